/**
 * mkt1 parse time per page for the largest captured marketplace pages (product pages near
 * 2 MB, the search page, a bestseller list), read at run time from ../shared/fixtures; without
 * the fixtures, simulator pages padded with inline script and style to the same size. Baseline
 * in the same run: a bare htmlparser2 `parseDocument` of the same page, so the table shows what
 * the mkt1 blocks cost on top of building a DOM. Target: p50 under 15 ms for the largest pages.
 *
 *   node --import tsx bench/mkt1-parse.bench.ts
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'htmlparser2';
import { Bench } from 'tinybench';
import { latencyRows } from './report.js';
import { PARSERS } from '../core/targets/mkt1/parsers.js';
import { productPage } from '../test/sites/mkt1-product.js';
import { searchPage } from '../test/sites/mkt1-lists.js';
import { WORDS } from '../test/sites/mkt1-data.js';
import type { View } from '../test/sites/mkt1-shell.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURES = resolve(ROOT, '../shared/fixtures');

interface Page {
  name: string;
  route: string;
  url: string;
  html: string;
}

function largest(folder: string, match: RegExp, count: number): string[] {
  const dir = join(FIXTURES, folder);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.html') && match.test(f))
    .map((f) => ({ f, size: statSync(join(dir, f)).size }))
    .sort((a, b) => b.size - a.size)
    .slice(0, count)
    .map(({ f }) => join(dir, f));
}

function fixturePages(): Page[] {
  const page = (file: string, route: string, url: string): Page => ({ name: file.split('/').pop()!.replace(/\.html$/, ''), route, url, html: readFileSync(file, 'utf8') });
  return [
    ...largest('marketplace-product', /_dp_/, 2).map((f) => page(f, 'mkt1/product', 'https://www.example.com/dp/X')),
    ...largest('marketplace-search', /_search_/, 1).map((f) => page(f, 'mkt1/search', 'https://www.example.com/s?k=x')),
    ...largest('marketplace-search', /_bestsellers_/, 1).map((f) => page(f, 'mkt1/bestsellers', 'https://www.example.com/gp/bestsellers/x')),
  ];
}

/** Simulator pages padded like real ones: most of a captured page's bytes are inline script and style. */
function generatedPages(): Page[] {
  const v: View = { domain: 'com', base: '/mkt1/com', currency: 'USD', home: 'USD', words: WORDS.en, city: 'New York', countryName: 'United States', token: 'tok' };
  const pad = (html: string) => {
    const script = `<script>${'var x=function(a){return a&&a.b?a.b:{c:[1,2,3],d:"<div class=\\"g\\">"}};'.repeat(12000)}</script>`;
    const style = `<style>${'.a1b2{display:block;margin:0 4px}'.repeat(20000)}</style>`;
    return html.replace('</head>', `${style}</head>`).replace('</body>', `${script}</body>`);
  };
  return [
    { name: 'simulated product (padded)', route: 'mkt1/product', url: 'http://sim/mkt1/com/dp/B0SIMLMP01', html: pad(productPage(v, 'B0SIMLMP01', false)!) },
    { name: 'simulated search (padded)', route: 'mkt1/search', url: 'http://sim/mkt1/com/s?k=lamp', html: pad(searchPage(v, new URLSearchParams('k=lamp'))) },
  ];
}

const fromFixtures = existsSync(FIXTURES);
const pages = fromFixtures ? fixturePages() : generatedPages();
console.log(fromFixtures ? `Pages: the largest captured marketplace pages in ${FIXTURES}.` : `Fixture folder ${FIXTURES} is absent: benchmarking generated pages of the same size.`);

const bench = new Bench({ time: 400, warmupTime: 200 });
for (const p of pages) {
  const input = { html: p.html, url: p.url, page: 1, params: {} };
  const parser = PARSERS[p.route]!;
  bench.add(`parse ${p.route} ${p.name} (${(p.html.length / 1e6).toFixed(2)} MB)`, () => {
    parser(input);
  });
  bench.add(`  baseline parseDocument (${p.name})`, () => {
    parseDocument(p.html);
  });
}

await bench.run();
const rows = latencyRows(bench.tasks);
console.table(rows);
const worst = Math.max(...rows.filter((r) => r.task.startsWith('parse')).map((r) => Number(r['p50 ms'])));
const [load] = (await import('node:os')).loadavg();
console.log(`largest p50 of the mkt1 parsers: ${worst.toFixed(2)} ms (target < 15 ms): ${worst < 15 ? 'met' : 'NOT met'}; 1-minute load average during the run ${load.toFixed(1)} — rerun on an idle machine before comparing.`);
