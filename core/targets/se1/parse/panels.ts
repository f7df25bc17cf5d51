/**
 * se1 knowledge panel and local pack.
 *
 * Knowledge panel: `data-attrid` slots have named the panel's parts since ~2017 (`title`,
 * `subtitle`, `description`, `kc:/...`, `ss:/...`, `hw:/...` facts with a `label:` span and a
 * value). Local pack: place cards (`.VkpGBb`, details in `.rllt__details`) whose name is a heading;
 * rating and review count are read from the card text ("4.5(1.2K)").
 */
import type { Document, Element } from '../../../parsers/dom.js';
import { all, attr, closest, linkTarget, one, text } from '../../../parsers/dom.js';
import { RATING, ratingOf } from '../../../parsers/values.js';
import type { KnowledgePanel, LocalResult } from './types.js';

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
  if (!titleEl) return null;
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

export function parseLocalPack(doc: Document, pageUrl: string): LocalResult[] {
  const out: LocalResult[] = [];
  for (const card of all('.VkpGBb, [data-local-result]', doc)) {
    const heading = one('[role="heading"], .dbg0pd', card);
    const title = heading ? text(heading) : '';
    if (!title) continue;
    const detailsEl = one('.rllt__details, [data-local-details]', card);
    const { rating, reviews } = ratingOf(text(card));
    let url: string | null = null;
    for (const a of all('a[href]', card)) {
      url = linkTarget(a.attribs.href, pageUrl);
      if (url) break;
    }
    let details = detailsEl ? text(detailsEl, (e) => e === heading) : null;
    if (details) details = details.replace(RATING, '').replace(/^[\s·]+|[\s·]+$/g, '').replace(/\s+·\s+·\s+/g, ' · ') || null;
    out.push({ position: out.length + 1, title, rating, reviews, details, url });
  }
  return out;
}
