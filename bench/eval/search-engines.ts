/**
 * The search engines' evaluation on the captured pages: se1/se2 parsers against the expected
 * outputs beside them (three shapes, read by eval-expected.ts) through a serp-parser-shaped
 * view of our output.
 */
import { readFileSync } from 'node:fs';
import { hostOf, linkTarget, loadHtml, text } from '../../core/parsers/dom.js';
import { normaliseUrl } from '../../core/search/merge.js';
import { parsePage } from '../../core/targets/index.js';
import { parseHotelCards } from '../../core/targets/se1/parse/hotels.js';
import { parseOffers } from '../../core/targets/se1/parse/shopping.js';
import type { Check, Expected, Path } from '../eval-expected.js';
import { fromAssertions, fromPartial, fromWebSearcher } from '../eval-expected.js';
import type { EvalRow, FamilyEval, Fixture } from './types.js';

const PAGE_URL = 'https://www.example.com/search';

type J = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const nonEmpty = <T>(a: T[]): T[] | undefined => (a.length > 0 ? a : undefined);
const links = (ls: { title: string; url: string }[]) => nonEmpty(ls.map((s) => ({ title: s.title, href: s.url, type: 'INLINE' })));

/** Our output in the shape the expected files talk about (serp-parser / se-scraper names). */
function viewOf(json: J, html: string): J {
  const doc = loadHtml(html);
  const ad = (a: J) => ({ position: a.position, title: a.title, url: a.url, domain: hostOf(a.url), snippet: a.description, sitelinks: links(a.sitelinks) });
  const top = (json.paid ?? []).filter((a: J) => a.block === 'top').map(ad);
  const bottom = (json.paid ?? []).filter((a: J) => a.block === 'bottom').map(ad);
  const adwords = top.length + bottom.length > 0 ? { adwordsTop: nonEmpty(top), adwordsBottom: nonEmpty(bottom) } : undefined;
  const hotels = parseHotelCards(doc, PAGE_URL);
  return {
    keyword: json.query,
    totalResults: json.result_count,
    organic: (json.organic ?? []).map((o: J) => ({
      title: o.title,
      url: o.url,
      domain: hostOf(o.url),
      snippet: o.snippet,
      featured: json.featured_snippet?.url === o.url || undefined,
      sitelinks: links(o.sitelinks),
    })),
    relatedKeywords: (json.related_searches ?? []).map((r: J) => ({ keyword: r.query, path: r.url ? r.url.replace(/^https?:\/\/[^/]+/, '') : null })),
    topStories: nonEmpty((json.top_stories ?? []).map((t: J) => ({ title: t.title, url: t.url, publisher: t.source, published: t.published }))),
    adwords,
    adwordsTop: adwords?.adwordsTop,
    videos: nonEmpty(json.videos ?? []),
    locals: nonEmpty(json.local_pack ?? []),
    shopResults: nonEmpty(json.shopping ?? []),
    hotels: hotels.length ? { hotels: hotels.map((h) => ({ name: h.name, price: h.price?.value, currency: h.price?.currency, rating: h.rating, votes: h.reviews, stars: h.stars ?? undefined, description: h.description ?? undefined })) } : undefined,
    top_products: (json.shopping ?? []).map((s: J) => ({ title: s.title, price: s.price, merchant_name: s.merchant, link: s.url, rank: s.position })),
    right_info: { vendors: parseOffers(doc, PAGE_URL).map((o) => ({ merchant_name: o.merchant, price: o.price?.text })) },
  };
}

/** Names the view models; a check through any other name is not applicable to our output. */
const MODELLED = new Set([
  'keyword', 'totalResults', 'organic', 'title', 'url', 'domain', 'snippet', 'featured', 'sitelinks', 'href', 'type', 'relatedKeywords',
  'path', 'topStories', 'publisher', 'published', 'adwords', 'adwordsTop', 'adwordsBottom', 'position', 'videos', 'locals',
  'shopResults', 'hotels', 'name', 'price', 'currency', 'rating', 'votes', 'stars', 'description', 'top_products', 'merchant_name',
  'link', 'rank', 'right_info', 'vendors',
]);

const at = (v: unknown, path: Path): unknown => path.reduce<unknown>((o, k) => (o === null || o === undefined ? undefined : (o as J)[k as string]), v);
const norm = (v: unknown) => (typeof v === 'string' ? v.replace(/[\s\u00a0]+/g, ' ').trim() : v);
const urlish = (k: unknown) => k === 'url' || k === 'href' || k === 'link';
const unwrap = (s: string) => linkTarget(s, PAGE_URL, true) ?? s;

type Outcome = 'pass' | 'fail' | 'n/a' | 'stale';

function judge(check: Check, view: J, haystack: string): Outcome {
  if (check.path.some((p) => typeof p === 'string' && !MODELLED.has(p))) return 'n/a';
  const got = at(view, check.path);
  const leaf = check.path[check.path.length - 1];
  switch (check.kind) {
    case 'length':
      return Array.isArray(got) ? (got.length === check.value ? 'pass' : 'fail') : check.value === 0 && got === undefined ? 'pass' : 'fail';
    case 'defined':
      return got !== undefined ? 'pass' : 'fail';
    case 'undefined':
      return got === undefined ? 'pass' : 'fail';
    case 'truthy':
      return got ? 'pass' : 'fail';
    case 'contains':
    case 'equals': {
      const want = norm(check.value);
      // Link values carry capture-specific tracking parameters: absent verbatim means another capture.
      if (typeof want === 'string' && !haystack.includes(want)) return 'stale';
      if (typeof want === 'string' && typeof got === 'string') {
        const a = urlish(leaf) ? unwrap(want) : want;
        const b = norm(got) as string;
        return (check.kind === 'contains' ? b.includes(a) : b === a) ? 'pass' : 'fail';
      }
      return got === want ? 'pass' : 'fail';
    }
  }
}

/** Longest increasing run of matched positions over matches: 1 means same relative order. */
function orderScore(positions: number[]): number {
  if (positions.length < 2) return 1;
  const tails: number[] = [];
  for (const p of positions) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (tails[mid] < p) lo = mid + 1;
      else hi = mid;
    }
    tails[lo] = p;
  }
  return tails.length / positions.length;
}

function readExpected(file: string): Expected {
  const data = JSON.parse(readFileSync(file, 'utf8'));
  if (file.endsWith('.assertions.json')) return fromAssertions(data);
  if (Array.isArray(data.results) && data.features) return fromWebSearcher(data);
  return fromPartial(data);
}

/** One page: expected organic results found (recall, order), expectations passed, blocks present. */
function evaluate(fixture: Fixture): EvalRow {
  const html = readFileSync(fixture.file, 'utf8');
  const route = fixture.family === 'search-engine-2' ? 'se2/search' : 'se1/search';
  const parsed = parsePage(route, { html, url: PAGE_URL, page: 1, params: {} })!;
  const json = parsed.json as J;
  const found = (json.organic ?? []).length;
  const row: EvalRow = { page: fixture.file.split('/').pop()!.replace(/\.html$/, ''), status: parsed.status, right: 0, total: 0, detail: `${found} organic`, failures: [] };
  if (!fixture.expected) return row;
  const exp = readExpected(fixture.expected);
  const notes: string[] = [];
  if (exp.organic) {
    const ours = (json.organic as J[]).map((o) => normaliseUrl(o.url));
    const positions = exp.organic.map((e) => ours.indexOf(normaliseUrl(e.url))).filter((i) => i >= 0);
    row.right += positions.length;
    row.total += exp.organic.length;
    for (const e of exp.organic) if (!ours.includes(normaliseUrl(e.url))) row.failures!.push(`organic ${e.url}: not found`);
    notes.push(`organic ${positions.length}/${exp.organic.length}, order ${(orderScore(positions) * 100).toFixed(0)}%`);
  } else if (exp.organicCount !== null) {
    const ok = exp.organicCount === 0 ? found === 0 : found >= exp.organicCount;
    row.right += ok ? 1 : 0;
    row.total += 1;
    if (!ok) row.failures!.push(`organic count: expected ${exp.organicCount}, got ${found}`);
    notes.push(`organic count ${found}/${exp.organicCount}`);
  }
  if (exp.checks.length > 0) {
    const view = viewOf(json, html);
    const haystack = norm(`${html.replace(/&amp;/g, '&')} ${text(loadHtml(html))}`) as string;
    const tally: Record<Outcome, number> = { pass: 0, fail: 0, 'n/a': 0, stale: 0 };
    for (const c of exp.checks) {
      const outcome = judge(c, view, haystack);
      tally[outcome]++;
      if (outcome === 'fail') row.failures!.push(`${c.path.join('.')} ${c.kind} ${JSON.stringify(c.value)?.slice(0, 120)} | got ${JSON.stringify(at(view, c.path))?.slice(0, 160)}`);
    }
    row.right += tally.pass;
    row.total += tally.pass + tally.fail;
    notes.push(`checks ${tally.pass}/${tally.pass + tally.fail}` + (tally.stale ? ` (${tally.stale} stale)` : '') + (tally['n/a'] ? ` (${tally['n/a']} n/a)` : ''));
  }
  if (exp.blocks.length > 0) {
    const have = exp.blocks.filter((b) => (Array.isArray(json[b]) ? json[b].length > 0 : json[b] !== null && json[b] !== undefined));
    row.right += have.length;
    row.total += exp.blocks.length;
    for (const b of exp.blocks) if (!have.includes(b)) row.failures!.push(`block ${b}: missing`);
    notes.push(`blocks ${have.length}/${exp.blocks.length}`);
  }
  row.detail = [`${found} organic`, ...notes].join('; ');
  return row;
}

/**
 * se1/se2 on the captured result pages: expected organic results (by URL) found, serp-parser /
 * se-scraper / parsy expectations passed (checks written for another capture than the page's
 * are `stale` and not counted; fields our output does not model are `n/a`), blocks present.
 */
export const SEARCH_ENGINES: FamilyEval = {
  name: 'search engines',
  folders: ['search-engine-1', 'search-engine-2'],
  threshold: 0.95,
  run: (fixtures) => fixtures.filter((f) => f.file.endsWith('.html')).map(evaluate),
};
