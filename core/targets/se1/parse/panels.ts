/**
 * se1 knowledge panel: `data-attrid` slots have named the panel's parts since ~2017 (`title`,
 * `subtitle`, `description`, `kc:/...`, `ss:/...`, `hw:/...` facts with a `label:` span and a
 * value). The local pack is read in local.ts.
 */
import type { Document, Element } from '../../../parsers/dom.js';
import { all, attr, closest, contains, hostOf, linkTarget, one, text } from '../../../parsers/dom.js';
import { isEngineHost } from './news-tab.js';
import type { KnowledgePanel } from './types.js';

function factOf(el: Element): { label: string; value: string } | null {
  const labelEl = one('.w8qArf, [data-fact-label]', el);
  if (labelEl) {
    const label = text(labelEl).replace(/\s*:\s*$/, '');
    const valueEl = one('.LrzXr, .kno-fv, [data-fact-value]', el);
    const value = valueEl ? text(valueEl) : text(el, (e) => e === labelEl);
    return label && value ? { label, value } : null;
  }
  const t = text(el);
  const i = t.indexOf(': ');
  if (i <= 0 || i > 40) return null;
  return { label: t.slice(0, i), value: t.slice(i + 2) };
}

export function parseKnowledgePanel(doc: Document, pageUrl: string): KnowledgePanel | null {
  const titleEl = one('[data-attrid="title"]', doc);
  // Without the entity's title slot: the dictionary box or the "Things to know" panel.
  if (!titleEl) return otherPanel(doc, pageUrl);
  // Title, description and facts may sit in different columns (top card, right column), so the
  // slots are read page-wide: `data-attrid` facts occur only in the panel.
  const root = doc;
  const title = text(titleEl);
  if (!title) return null;
  const sub = one('[data-attrid="subtitle"]', root);
  const descBox = one('[data-attrid="description"]', root);
  let description: string | null = null;
  let source: KnowledgePanel['source'] = null;
  if (descBox) {
    const link = one('a[href]', descBox);
    const linkUrl = link ? linkTarget(link.attribs.href, pageUrl) : null;
    if (link && linkUrl) source = { title: text(link), url: linkUrl };
    // The source link sits in its own span after the text; headings label the block.
    description = text(descBox, (e) => /^h[1-6]$/.test(e.name) || attr(e, 'role') === 'button' || (link !== null && e === link.parent)) || null;
    if (description) description = description.replace(/\s*…$/, '');
    if (description && source && description.endsWith(source.title)) description = description.slice(0, -source.title.length).trim();
  }
  const facts: KnowledgePanel['facts'] = [];
  for (const el of all('[data-attrid^="kc:/"], [data-attrid^="ss:/"], [data-attrid^="hw:/"]', root)) {
    if (closest(el, (e) => (e.attribs['data-attrid'] ?? '').includes(':/'))) continue;
    const f = factOf(el);
    if (f) facts.push(f);
  }
  return { title, subtitle: sub ? text(sub) || null : null, description, source, facts };
}

/*
 * Knowledge panels without the entity `title` slot, read into the same shape. Two kinds seen on
 * 2024 result pages whose entity panel is absent:
 *
 * - The dictionary box: `data-attrid="EntryHeader"` whose `data-psd` names the headword, one
 *   `data-attrid="SenseDefinition"` per sense (its `data-psd` holds the definition text), and a
 *   `DictionaryHeader` crediting the dictionary with a link.
 * - The "Things to know" side panel: a column (`#rhs`, or any block) holding
 *   `data-attrid="lab/title/<aspect>"` rows, each an aspect of the topic ("Purpose", "Benefits")
 *   with the search it stands for ("what are gu gels for"), under the panel's own heading.
 *
 * `data-psd` is a `key~:&value~;&key~:&value` list the engine writes for its own scripts; it
 * holds the plain text without the markup around it, in every interface language.
 */

/** One value of a `data-psd` list (`headword~:&movement~;&tts_country~:&us`). */
function psdValue(el: Element | null, key: string): string | null {
  const psd = el?.attribs['data-psd'];
  if (!psd) return null;
  for (const part of psd.split('~;&')) {
    const i = part.indexOf('~:&');
    if (i > 0 && part.slice(0, i).replace(/^&/, '') === key) return part.slice(i + 3).replace(/~;?$/, '').trim() || null;
  }
  return null;
}

function dictionaryPanel(doc: Document, pageUrl: string): KnowledgePanel | null {
  const entry = one('[data-attrid="EntryHeader"]', doc);
  if (!entry) return null;
  const title = psdValue(entry, 'headword');
  if (!title) return null;
  const senses = all('[data-attrid="SenseDefinition"]', doc);
  const first = senses[0] ?? null;
  // The definition's own span, when `data-psd` is missing: the first line of the sense block.
  const description = psdValue(first, 'sense_definition') ?? (first ? text(one('span', first) ?? first) || null : null);
  const credit = one('[data-attrid="DictionaryHeader"] a[href]', doc);
  const url = credit ? linkTarget(credit.attribs.href, pageUrl) : null;
  return { title, subtitle: null, description, source: credit && url ? { title: text(credit), url } : null, facts: [] };
}

const ASPECT = 'lab/title/';

function topicsPanel(doc: Document): KnowledgePanel | null {
  const rows = all(`[data-attrid^="${ASPECT}"]`, doc);
  if (rows.length === 0) return null;
  const facts: KnowledgePanel['facts'] = [];
  for (const row of rows) {
    const label = (row.attribs['data-attrid'] as string).slice(ASPECT.length).trim();
    // The row shows the aspect, an ellipsis, then the search the aspect stands for.
    const value = text(row, (e) => text(e) === label || text(e) === '…').replace(/^…\s*/, '');
    if (label) facts.push({ label, value });
  }
  const title = panelHeading(rows[0] as Element);
  return title ? { title, subtitle: null, description: null, source: null, facts } : null;
}

/**
 * The heading of the panel holding `row`: the first heading (`role=heading`, not the rows' own
 * wrappers) before the row, in the smallest ancestor that has one. Headings come in document
 * order, so the one wrapping the row ends the look (what follows is below the row: feedback
 * prompts). Bounded climb.
 */
function panelHeading(row: Element): string | null {
  let cur: Element | null = row.parent?.type === 'tag' ? (row.parent as Element) : null;
  for (let i = 0; i < 10 && cur; i++) {
    for (const h of all('[role="heading"]', cur)) {
      if (contains(h, row)) break;
      if (one(`[data-attrid^="${ASPECT}"]`, h)) continue;
      const t = text(h);
      if (t) return t;
    }
    cur = cur.parent?.type === 'tag' ? (cur.parent as Element) : null;
  }
  return null;
}

/*
 * The "About <entity>" group of 2025 result pages, in the results column where the entity panel
 * is absent: a group heading (`role=heading aria-level=2`) above a list (`role=list`) of cards,
 * each card one link out whose label is given by reference (`aria-labelledby` naming the card's
 * text and its source line). The first card is the entity's description from its source. Other
 * card lists labelled this way (the "People also search for" entities) link back to the engine's
 * own searches, so outside links are what tells this group.
 */
const ABOUT_CARD = '[role="listitem"] a[href][aria-labelledby]';

function aboutPanel(doc: Document, pageUrl: string): KnowledgePanel | null {
  for (const list of all('[role="list"]', doc)) {
    const cards = all(ABOUT_CARD, list)
      .map((a) => ({ a, url: linkTarget(a.attribs.href, pageUrl) }))
      .filter((c): c is { a: Element; url: string } => c.url !== null && !isEngineHost(c.url));
    if (cards.length < 2) continue;
    const title = groupHeading(list);
    const first = cards[0] as { a: Element; url: string };
    const parts = (first.a.attribs['aria-labelledby'] ?? '').split(/\s+/).filter(Boolean);
    const labelled = parts.map((id) => byId(doc, id)).filter((e): e is Element => e !== null);
    const desc = labelled[0];
    const description = desc ? text(desc) || null : null;
    if (!title || !desc || !description) continue;
    // The source's name is the card's remaining line: neither the description nor its headed label ("From …").
    const card = closest(first.a, (e) => e.attribs.role === 'listitem');
    const sourceName = card ? text(card, (e) => e === desc || e.attribs.role === 'heading') : '';
    return { title, subtitle: null, description, source: { title: sourceName || hostOf(first.url), url: first.url }, facts: [] };
  }
  return null;
}

/** The group heading above `list`: the first level-2 heading in the smallest ancestor with one (bounded). */
function groupHeading(list: Element): string | null {
  let cur = list.parent;
  for (let i = 0; i < 8 && cur && cur.type === 'tag'; i++, cur = cur.parent) {
    const h = one('[role="heading"][aria-level="2"]', cur);
    if (h) return text(h) || null;
  }
  return null;
}

function byId(doc: Document, id: string): Element | null {
  return one(`[id="${id.replace(/["\\]/g, '')}"]`, doc);
}

/** A knowledge panel of one of the kinds above, or null. */
function otherPanel(doc: Document, pageUrl: string): KnowledgePanel | null {
  return dictionaryPanel(doc, pageUrl) ?? topicsPanel(doc) ?? aboutPanel(doc, pageUrl);
}
