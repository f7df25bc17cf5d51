/**
 * se1 "people also ask" and related searches.
 *
 * Questions: `related-question-pair` blocks (2019-2026), the question in `data-q` or the toggle's
 * text; the expanded answer, when present, is a headed source link plus a description.
 * Related searches: links back to the engine's own search (`/search?...q=`) that come in groups
 * of three or more, excluding pagination, verticals, filters, spelling and entity links. Grouping
 * is structural, so the heading language ("Related searches", "Ähnliche Suchanfragen") is not needed.
 */
import type { Document, Element } from '../../../parsers/dom.js';
import { all, attr, closest, contains, linkTarget, one, text } from '../../../parsers/dom.js';
import { inRegion } from './regions.js';
import type { RelatedQuestion, RelatedSearch } from './types.js';

export function parseQuestions(doc: Document, pageUrl: string): RelatedQuestion[] {
  const out: RelatedQuestion[] = [];
  const seen = new Set<string>();
  for (const pair of all('.related-question-pair', doc)) {
    // The toggle is a button since 2020, a tab (`role=tab`, 2019) before.
    const toggle = one('[role="button"], [role="tab"]', pair);
    const question = (attr(pair, 'data-q') ?? (toggle ? text(toggle) : '')).trim();
    if (!question || seen.has(question)) continue;
    seen.add(question);
    let title: string | null = null;
    let url: string | null = null;
    let anchor: Element | null = null;
    for (const h of all('h3, [role="heading"][aria-level="3"]', pair)) {
      const a = closest(h, (e) => e.name === 'a' && e.attribs.href !== undefined, 6);
      const target = a ? linkTarget(a.attribs.href, pageUrl) : null;
      if (a && target) {
        title = text(h) || null;
        url = target;
        anchor = a;
        break;
      }
    }
    const desc = one('[data-attrid="wa:/description"], .hgKElc, [data-md] .wDYxhc', pair);
    let snippet = desc ? text(desc) : '';
    if (!snippet) {
      snippet = text(pair, (e) => e === toggle || e === anchor || e.name === 'cite' || e.name === 'a' || attr(e, 'role') === 'button' || attr(e, 'role') === 'tab');
    }
    out.push({ question, title, url, snippet: snippet || null });
  }
  return out;
}

const NOT_RELATED = /[?&](?:start|tbm|udm|tbs|stick|ludocid|spell|rflfq|lrd|ibp|uule|si|kgmid|tbo|gbv|uds|oq)=/;

function isRelatedLink(a: Element): string | null {
  const href = a.attribs.href ?? '';
  const qs = href.indexOf('?');
  if (qs < 0) return null;
  const path = href.slice(0, qs);
  // The engine's own web search (`/search`, or relative `search` under a path prefix), not a vertical's.
  const p = path.replace(/^https?:\/\/[^/]+/, '');
  if (!/(^|\/)search$/.test(p) || /\/(?:travel|maps|shopping|trends|lens)\//.test(`/${p}`)) return null;
  if (NOT_RELATED.test(href)) return null;
  const q = new URLSearchParams(href.slice(qs + 1)).get('q');
  return q && q.trim() ? q : null;
}

export function parseRelatedSearches(doc: Document, pageUrl: string): RelatedSearch[] {
  const cands: Element[] = [];
  for (const a of all('a[href*="q="]', doc)) {
    if (!isRelatedLink(a)) continue;
    if (inRegion(a, 'ads', 'paa', 'panel', 'aio', 'images', 'news', 'shopping', 'video', 'carousel')) continue;
    const t = text(a);
    if (!t || t.length > 120) continue;
    cands.push(a);
  }
  // Keep links whose group (ancestor within 7 levels holding >= 3 candidates) is a real list.
  const grouped = cands.filter((a) => {
    let cur = a.parent;
    for (let i = 0; cur && cur.type === 'tag' && i < 7; i++, cur = cur.parent) {
      const box = cur;
      let n = 0;
      for (const c of cands) if (contains(box, c) && ++n >= 3) return true;
    }
    return false;
  });
  const out: RelatedSearch[] = [];
  const seen = new Set<string>();
  for (const a of grouped) {
    const query = text(a);
    const key = query.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ query, url: linkTarget(a.attribs.href, pageUrl, true) });
  }
  return out;
}
