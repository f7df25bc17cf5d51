/**
 * se1 knowledge panel: `data-attrid` slots have named the panel's parts since ~2017 (`title`,
 * `subtitle`, `description`, `kc:/...`, `ss:/...`, `hw:/...` facts with a `label:` span and a
 * value). The local pack is read in local.ts.
 */
import type { Document, Element } from '../../../parsers/dom.js';
import { all, attr, closest, linkTarget, one, text } from '../../../parsers/dom.js';
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
