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
import { isFieldLevel, loadExpectation } from './expectation.js';
import { fieldRow, mergeRows, type FieldFamily } from './field-eval.js';
import type { View } from './score.js';
import { CI_THRESHOLD, type EvalRow, type FamilyEval, type Fixture } from './types.js';

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

function readExpected(file: string): Expected | null {
  const data = JSON.parse(readFileSync(file, 'utf8'));
  if (isFieldLevel(data)) return null;
  if (file.endsWith('.assertions.json')) return fromAssertions(data);
  if (Array.isArray(data.results) && data.features) return fromWebSearcher(data);
  return fromPartial(data);
}

/** One page: expected organic results found (recall, order), expectations passed, blocks present. */
function evaluate(fixture: Fixture): EvalRow | null {
  const html = readFileSync(fixture.file, 'utf8');
  const route = fixture.family === 'search-engine-2' ? 'se2/search' : 'se1/search';
  const parsed = parsePage(route, { html, url: PAGE_URL, page: 1, params: {} })!;
  const json = parsed.json as J;
  const found = (json.organic ?? []).length;
  const row: EvalRow = { page: fixture.file.split('/').pop()!.replace(/\.html$/, ''), status: parsed.status, right: 0, total: 0, claims: 0, claimsRight: 0, detail: `${found} organic`, failures: [] };
  if (!fixture.expected) return null;
  const exp = readExpected(fixture.expected);
  if (!exp) return null;
  const notes: string[] = [];
  if (exp.organic) {
    const ours = (json.organic as J[]).map((o) => normaliseUrl(o.url));
    const positions = exp.organic.map((e) => ours.indexOf(normaliseUrl(e.url))).filter((i) => i >= 0);
    row.right += positions.length;
    row.total += exp.organic.length;
    // The expected list is every organic result: a returned one outside it is a false one.
    const wanted = new Set(exp.organic.map((e) => normaliseUrl(e.url)));
    row.claims += ours.length;
    row.claimsRight += new Set(ours.filter((u) => wanted.has(u))).size;
    for (const e of exp.organic) if (!ours.includes(normaliseUrl(e.url))) row.failures!.push(`organic ${e.url}: not found`);
    notes.push(`organic ${positions.length}/${exp.organic.length}, order ${(orderScore(positions) * 100).toFixed(0)}%`);
  } else if (exp.organicCount !== null) {
    const ok = exp.organicCount === 0 ? found === 0 : found >= exp.organicCount;
    row.right += ok ? 1 : 0;
    row.total += 1;
    row.claims += found;
    row.claimsRight += Math.min(found, exp.organicCount);
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
      // A value the parser gave where one was expected is a claim (length and absence checks are not).
      if ((outcome === 'pass' || outcome === 'fail') && (c.kind === 'equals' || c.kind === 'contains') && at(view, c.path) !== undefined) {
        row.claims++;
        if (outcome === 'pass') row.claimsRight++;
      }
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

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);

/**
 * se1/se2 as the field-level format sees them: the organic results; on a vertical's page
 * (images, news) that returns no organic list, the vertical's items.
 */
export function seView(_route: string, j: J): View {
  const list = ['organic', 'images', 'news'].map((k) => (Array.isArray(j[k]) ? (j[k] as J[]) : [])).find((l) => l.length > 0) ?? [];
  return { items: list.map((o) => ({ title: str(o.title), url: str(o.url ?? o.link), id: null })) };
}

const SE_FAMILY = (route: string): FieldFamily => ({ route: () => route, url: () => PAGE_URL, view: seView });

function engine(name: string, folder: string, route: string): FamilyEval {
  return {
    name,
    folders: [folder],
    threshold: CI_THRESHOLD,
    run: (fixtures) =>
      fixtures
        .filter((f) => f.file.endsWith('.html'))
        .flatMap((fx) => mergeRows(evaluate(fx), loadExpectation(fx) ? (fieldRow(fx, SE_FAMILY(route))?.row ?? null) : null) ?? []),
  };
}

/**
 * se1/se2 on the captured result pages: expected organic results (by URL) found, serp-parser /
 * se-scraper / parsy expectations passed (checks written for another capture than the page's
 * are `stale` and not counted; fields our output does not model are `n/a`), blocks present;
 * and the field-level expectations (the fixture's own, or hand-written).
 */
export const SE1_EVAL = engine('se1', 'search-engine-1', 'se1/search');
export const SE2_EVAL = engine('se2', 'search-engine-2', 'se2/search');
