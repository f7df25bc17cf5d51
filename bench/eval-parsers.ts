/**
 * Scores the se1/se2 parsers on the captured pages in ../shared/fixtures (relative to the repo
 * root), against the expected outputs beside them: recall and order of organic results (title
 * and URL), the assertions/partial expectations of each page, and presence of each block.
 * Prints one row per page and a summary. Reads the fixtures at run time; copies nothing.
 *
 *   node --import tsx bench/eval-parsers.ts
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parsePage } from '../core/targets/index.js';
import { hostOf, linkTarget, loadHtml, text } from '../core/parsers/dom.js';
import { parseHotelCards } from '../core/targets/se1/parse/hotels.js';
import { parseOffers } from '../core/targets/se1/parse/shopping.js';
import { normaliseUrl } from '../core/search/merge.js';
import type { Check, Expected, Path } from './eval-expected.js';
import { fromAssertions, fromPartial, fromWebSearcher } from './eval-expected.js';
import { runFamilies } from './eval/run.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURES = resolve(ROOT, '../shared/fixtures');
const PAGE_URL = 'https://www.example.com/search';
/** `--verbose` lists every failed check with what the parser gave; `--family <name>` runs one family. */
const VERBOSE = process.argv.includes('--verbose');
const ONLY = process.argv.includes('--family') ? process.argv[process.argv.indexOf('--family') + 1] : undefined;

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

interface Row {
  page: string;
  expected: string;
  found: number;
  recall: number | null;
  order: number | null;
  checks: string;
  blocks: string;
  status: string;
}

function evaluate(family: string, htmlFile: string, expectedFile: string | null): Row {
  const html = readFileSync(htmlFile, 'utf8');
  const route = family === 'search-engine-2' ? 'se2/search' : 'se1/search';
  const parsed = parsePage(route, { html, url: PAGE_URL, page: 1, params: {} })!;
  const json = parsed.json as J;
  const found = (json.organic ?? []).length;
  const row: Row = { page: htmlFile.split('/').pop()!.replace(/\.html$/, ''), expected: '-', found, recall: null, order: null, checks: '-', blocks: '-', status: parsed.status };
  if (!expectedFile) return row;
  const exp = readExpected(expectedFile);
  if (exp.organic) {
    const ours = (json.organic as J[]).map((o) => normaliseUrl(o.url));
    const positions = exp.organic.map((e) => ours.indexOf(normaliseUrl(e.url))).filter((i) => i >= 0);
    row.recall = positions.length / Math.max(1, exp.organic.length);
    row.order = orderScore(positions);
    row.expected = String(exp.organic.length);
  } else if (exp.organicCount !== null) {
    row.recall = exp.organicCount === 0 ? (found === 0 ? 1 : 0) : Math.min(found, exp.organicCount) / exp.organicCount;
    row.expected = `${exp.organicCount} (count)`;
  }
  if (exp.checks.length > 0) {
    const view = viewOf(json, html);
    const haystack = norm(`${html.replace(/&amp;/g, '&')} ${text(loadHtml(html))}`) as string;
    const tally: Record<Outcome, number> = { pass: 0, fail: 0, 'n/a': 0, stale: 0 };
    for (const c of exp.checks) {
      const outcome = judge(c, view, haystack);
      tally[outcome]++;
      if (VERBOSE && outcome === 'fail') {
        console.log(`  ${row.page}: ${c.path.join('.')} ${c.kind} ${JSON.stringify(c.value)?.slice(0, 120)} | got ${JSON.stringify(at(view, c.path))?.slice(0, 160)}`);
      }
    }
    row.checks = `${tally.pass}/${tally.pass + tally.fail}` + (tally.stale ? ` (${tally.stale} stale)` : '') + (tally['n/a'] ? ` (${tally['n/a']} n/a)` : '');
  }
  if (exp.blocks.length > 0) {
    const have = exp.blocks.filter((b) => (Array.isArray(json[b]) ? json[b].length > 0 : json[b] !== null && json[b] !== undefined));
    row.blocks = `${have.length}/${exp.blocks.length}` + (have.length < exp.blocks.length ? ` missing ${exp.blocks.filter((b) => !have.includes(b)).join(',')}` : '');
  }
  return row;
}

function main(): void {
  if (!existsSync(join(FIXTURES, 'MANIFEST.tsv'))) {
    console.log(`Fixture folder ${FIXTURES} is absent: parser evaluation skipped (it reads captured pages at run time).`);
    return;
  }
  const familiesOk = runFamilies(FIXTURES, VERBOSE, ONLY);
  const seOk = ONLY === undefined || ONLY === 'search engines' ? searchEngines() : true;
  if (!familiesOk || !seOk) process.exitCode = 1;
}

/** The se1/se2 evaluation: organic recall and order, expectations, blocks. True when met. */
function searchEngines(): boolean {
  console.log('\n## search engines');
  const lines = readFileSync(join(FIXTURES, 'MANIFEST.tsv'), 'utf8').split('\n').slice(1);
  const rows: Row[] = [];
  for (const line of lines) {
    const [family, local, , , , , expected] = line.split('\t');
    if (!family?.startsWith('search-engine') || !local?.endsWith('.html')) continue;
    const exp = expected && expected.endsWith('.json') && existsSync(join(FIXTURES, expected)) ? join(FIXTURES, expected) : null;
    rows.push(evaluate(family, join(FIXTURES, local), exp));
  }
  const pct = (v: number | null) => (v === null ? '-' : `${(v * 100).toFixed(0)}%`);
  const header = ['page', 'status', 'organic exp', 'found', 'recall', 'order', 'checks pass', 'blocks'];
  const table = rows.map((r) => [r.page, r.status, r.expected, String(r.found), pct(r.recall), pct(r.order), r.checks, r.blocks]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((t) => t[i].length)));
  const fmt = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ');
  console.log(fmt(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const t of table) console.log(fmt(t));
  const scored = rows.filter((r) => r.recall !== null);
  const min = Math.min(...scored.map((r) => r.recall!));
  const mean = scored.reduce((a, r) => a + r.recall!, 0) / Math.max(1, scored.length);
  console.log(`\n${rows.length} pages, ${scored.length} with expected organic results: recall min ${pct(min)}, mean ${pct(mean)}; target >= 95% on every page: ${min >= 0.95 ? 'met' : 'NOT met'}.`);
  console.log('checks: assertions/partial expectations passed over applicable; "stale" = expected text absent from the page (written for another capture); "n/a" = fields our output does not model.');
  return min >= 0.95;
}

main();
