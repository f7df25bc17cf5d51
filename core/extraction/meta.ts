/**
 * The document's own statements about itself: `<title>`, meta tags (OpenGraph, Twitter cards,
 * description, author, ...), `<html lang>`, the canonical link, the largest icon, and the
 * page's URL. Each is a candidate with its source (`meta:og:title`, `title`, `link:canonical`).
 */
import { type Document, type Element, absoluteUrl, allElements, clean, isInvisible } from './dom.js';
import { type Candidate, WEIGHT } from './model.js';

const META_SKIP = /^(viewport|robots|googlebot|theme-color|referrer|format-detection|google-site-verification|msapplication-.*|apple-mobile-web-app-.*|csrf-.*|generator|color-scheme)$/i;

function sizeOf(el: Element): number {
  const m = /(\d+)x(\d+)/i.exec(el.attribs.sizes ?? '');
  if (m) return Number(m[1]);
  return /apple-touch-icon/i.test(el.attribs.rel ?? '') ? 180 : 16;
}

export function metaCandidates(doc: Document, base: string, out: Candidate[]): void {
  const metas = new Map<string, Candidate>();
  let icon: { url: string; size: number } | undefined;
  for (const el of allElements(doc)) {
    if (el.name === 'html' && el.attribs.lang) out.push({ path: ['lang'], value: clean(el.attribs.lang), origin: 'meta', weight: WEIGHT.meta, source: 'html[lang]' });
    else if (el.name === 'title' && !isInvisible(el) && !metas.has('<title>')) {
      const text = clean(el.children.map((c) => ('data' in c ? String(c.data) : '')).join(''));
      if (text) metas.set('<title>', { path: ['title'], value: text, origin: 'title', weight: WEIGHT.title, source: 'title' });
    } else if (el.name === 'meta') {
      const key = el.attribs.property ?? el.attribs.name ?? (el.attribs['http-equiv']?.toLowerCase() === 'content-language' ? 'language' : undefined);
      const content = el.attribs.content;
      if (!key || content === undefined || clean(content) === '' || META_SKIP.test(key) || el.attribs.itemprop) continue;
      const prev = metas.get(key);
      if (prev) {
        prev.value = Array.isArray(prev.value) ? [...prev.value, clean(content)] : [prev.value, clean(content)];
        continue;
      }
      const lower = key.toLowerCase();
      const weight = lower === 'title' ? WEIGHT.title : lower.startsWith('twitter:') ? 0.8 : lower.includes(':') ? WEIGHT.meta : 0.8;
      metas.set(key, { path: key.split(/[:.]/).filter(Boolean), value: clean(content), origin: lower === 'title' ? 'title' : 'meta', weight, source: `meta:${key}` });
    } else if (el.name === 'link' && el.attribs.href) {
      const rel = (el.attribs.rel ?? '').toLowerCase();
      const url = absoluteUrl(el.attribs.href, base);
      if (!url) continue;
      if (rel.split(/\s+/).includes('canonical')) out.push({ path: ['canonical'], value: url, origin: 'link', weight: WEIGHT.link, source: 'link:canonical' });
      else if (/(^|\s)(icon|apple-touch-icon)(\s|$)/.test(rel) && (!icon || sizeOf(el) > icon.size)) icon = { url, size: sizeOf(el) };
    }
  }
  out.push(...metas.values());
  if (icon) out.push({ path: ['logo'], value: icon.url, origin: 'link', weight: 0.6, source: 'link:icon' });
  out.push({ path: ['url'], value: base, origin: 'page', weight: WEIGHT.page, source: 'page:url' });
}

