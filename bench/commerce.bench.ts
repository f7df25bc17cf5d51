/**
 * Parse time of the generic commerce parsers on the largest product and listing pages: the
 * largest captured retail pages in ../shared/fixtures (the commerce families' own pages), the
 * largest marketplace pages as a stress case (2 MB; mkt1 has its own parsers for them) when
 * present, read at run time, and simulator pages padded with inline script and style to the same size (the structured-data
 * path on a page of real weight). Baselines in the same run: `loadHtml` (the DOM build every
 * HTML parse starts with) and a bare htmlparser2 `parseDocument`. Target: p50 under 10 ms.
 *
 *   node --import tsx bench/commerce.bench.ts
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'htmlparser2';
import { Bench } from 'tinybench';
import { latencyRows } from './report.js';
import { loadHtml } from '../core/parsers/dom.js';
import { parseListing } from '../core/targets/commerce/listing.js';
import { parseProduct } from '../core/targets/commerce/product.js';
import { CATALOGUE } from '../test/sites/commerce-data.js';
import { listingPage, productPage, type PageContext } from '../test/sites/commerce-pages.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURES = resolve(ROOT, '../shared/fixtures');

interface Page {
  name: string;
  kind: 'product' | 'listing';
  html: string;
}

/** The largest file of a folder whose name matches. */
function largest(folders: string[], match: RegExp): { name: string; html: string } | null {
  const files = folders.flatMap((d) =>
    existsSync(join(FIXTURES, d)) ? readdirSync(join(FIXTURES, d)).filter((f) => match.test(f) && !f.includes('expected')).map((f) => join(FIXTURES, d, f)) : [],
  );
  files.sort((a, b) => statSync(b).size - statSync(a).size);
  const f = files[0];
  return f ? { name: f.slice(FIXTURES.length + 1), html: readFileSync(f, 'utf8') } : null;
}

const ctx: PageContext = {
  home: 'https://shop.test/',
  link: (id) => `https://shop.test/item/${id}`,
  currency: 'USD',
  show: (n) => `$${n.toFixed(2)}`,
  price: (p) => p.price,
  query: 'outdoor',
  page: 1,
  pages: 2,
  total: 6,
  nextUrl: null,
};
/** Most of a real page's bytes are inline script and style: pad a simulator page to 1.5 MB the same way. */
const pad = (html: string): string =>
  html
    .replace('</head>', `<style>${'.a1b2{display:block;margin:0 4px}'.repeat(14000)}</style></head>`)
    .replace('</body>', `<script>${'var x=function(a){return a&&a.b?a.b:{c:[1,2,3],d:"<div class=\\"g\\">"}};'.repeat(9000)}</script></body>`);

const pages: Page[] = [];
const product = largest(['retail'], /product.*\.html$/);
const listing = largest(['retail'], /search.*\.html$/);
const stressProduct = largest(['marketplace-product'], /\.html$/);
const stressListing = largest(['marketplace-search'], /\.html$/);
for (const [kind, page] of [['product', product], ['listing', listing], ['product', stressProduct], ['listing', stressListing]] as const) {
  if (page) pages.push({ name: page.name, kind, html: page.html });
}
if (!product) console.log(`Fixture folder ${FIXTURES} is absent: benchmarking simulator pages only.`);
pages.push({ name: 'simulator JSON-LD product (padded)', kind: 'product', html: pad(productPage('jsonld', CATALOGUE[0]!, ctx)) });
pages.push({ name: 'simulator cards listing (padded)', kind: 'listing', html: pad(listingPage('cards', CATALOGUE.slice(0, 4), ctx)) });

const bench = new Bench({ time: 400, warmupTime: 200 });
for (const p of pages) {
  const input = { html: p.html, url: 'https://shop.test/page', page: 1, params: {} };
  const parse = p.kind === 'product' ? () => parseProduct(input) : () => parseListing('search')(input);
  bench.add(`${p.kind} ${p.name} (${(p.html.length / 1e6).toFixed(2)} MB)`, parse);
  bench.add(`  baseline loadHtml (${p.name})`, () => loadHtml(p.html));
  bench.add(`  baseline parseDocument (${p.name})`, () => parseDocument(p.html));
}

await bench.run();
console.table(latencyRows(bench.tasks));
