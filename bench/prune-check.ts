/**
 * The page cut (core/parsers/prune.ts) on every captured page: the DOM `loadPruned` builds must
 * be the full DOM (`loadHtml`) restricted to the kept elements, their shells and ancestors,
 * node for node, for the product page's `PRODUCT_KEEP`, the search page's `SEARCH_KEEP` and for generic ways of keeping (every
 * element with an id, a class pattern, shells, pseudo-random elements). Also says whether the
 * raw page was scanned in one walk or had to be stripped first, and what share of the lean page
 * the product and search cuts keep. Run it after changing a `Keep`, the scanner or the tree rules.
 *
 *   node --import tsx bench/prune-check.ts
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnyNode, Element } from 'domhandler';
import { leanHtml, StripTracker } from '../core/parsers/lean.js';
import { loadHtml } from '../core/parsers/load.js';
import { loadPruned, prunedHtml, type Keep } from '../core/parsers/prune.js';
import type { TagAttributes } from '../core/parsers/tag-cursor.js';
import { SEARCH_KEEP } from '../core/targets/mkt1/list-regions.js';
import { PRODUCT_KEEP } from '../core/targets/mkt1/regions.js';

const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), '../../shared/fixtures');

function ser(n: AnyNode): string {
  if (n.type === 'text') return JSON.stringify(n.data);
  if (n.type === 'comment') return `<!--${n.data}-->`;
  if ('attribs' in n) return `<${n.name} ${JSON.stringify(n.attribs)}>[${n.children.map(ser).join(',')}]`;
  return n.type;
}

const isElement = (n: AnyNode): n is Element => n.type === 'tag' || n.type === 'script' || n.type === 'style';

function restricted(nodes: AnyNode[], keep: Keep, within: readonly string[]): string[] {
  const out: string[] = [];
  for (const n of nodes.filter(isElement)) {
    const attrs = { get: (k: string) => n.attribs[k], has: (k: string) => n.attribs[k] !== undefined } as TagAttributes;
    const v = keep.test(n.name, attrs, within);
    if (v === true) {
      out.push(ser(n));
      continue;
    }
    const inner = restricted(n.children, keep, typeof v === 'string' ? [...within, v] : within);
    if (inner.length > 0 || typeof v === 'string') out.push(`<${n.name} ${JSON.stringify(n.attribs)}>[${inner.join(',')}]`);
  }
  return out;
}

const hash = (s: string): number => {
  let h = 7;
  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0;
  return h;
};

const KEEPS: Record<string, Keep> = {
  product: PRODUCT_KEEP,
  search: SEARCH_KEEP,
  ids: { attrs: ['id'], test: (_tag, a) => a.has('id') },
  classes: { attrs: ['class'], test: (_tag, a) => /a-section|s-result|price|title/.test(a.get('class') ?? '') },
  shells: { attrs: ['id', 'class'], test: (tag, a, within) => (within.length === 0 ? (a.has('id') ? 'in' : false) : tag === 'span' || tag === 'a' || /price|title/.test(a.get('class') ?? '')) },
  random: { attrs: ['id', 'class', 'href'], test: (tag, a) => ((hash(tag + (a.get('class') ?? '') + (a.get('href') ?? '') + (a.get('id') ?? '')) & 63) === 5 ? true : (hash(tag + (a.get('id') ?? '')) & 31) === 6 ? 'r' : false) },
};

if (!existsSync(FIXTURES)) {
  console.log(`No fixtures at ${FIXTURES}.`);
  process.exit(0);
}
let checked = 0;
let wrong = 0;
let stripped = 0;
for (const dir of readdirSync(FIXTURES, { withFileTypes: true }).filter((d) => d.isDirectory())) {
  for (const file of readdirSync(join(FIXTURES, dir.name)).filter((f) => f.endsWith('.html')).sort()) {
    const html = readFileSync(join(FIXTURES, dir.name, file), 'utf8');
    const full = loadHtml(html).children;
    for (const [name, keep] of Object.entries(KEEPS)) {
      checked++;
      if (!prunedHtml(html, keep, new StripTracker())) stripped++;
      const doc = loadPruned(html, keep);
      const got = doc ? doc.children.filter(isElement).map(ser).join('\n') : null;
      if (got !== restricted(full, keep, []).join('\n')) {
        wrong++;
        console.log(`DIFFERS: ${dir.name}/${file} keeping ${name}${got === null ? ' (no cut)' : ''}`);
      }
    }
    if (dir.name === 'marketplace-product') {
      const lean = leanHtml(html);
      const cut = prunedHtml(lean, PRODUCT_KEEP);
      console.log(`${file}: product cut ${cut ? ((cut.html.length / lean.length) * 100).toFixed(0) : '-'} % of ${(lean.length / 1e3).toFixed(0)} kB lean`);
    }
    if (dir.name === 'marketplace-search' && file.includes('_search_')) {
      const lean = leanHtml(html);
      const cut = prunedHtml(lean, SEARCH_KEEP);
      console.log(`${file}: search cut ${cut ? ((cut.html.length / lean.length) * 100).toFixed(0) : '-'} % of ${(lean.length / 1e3).toFixed(0)} kB lean`);
    }
  }
}
console.log(`${checked} cuts checked, ${wrong} differ from the full DOM; ${stripped} needed the page stripped first.`);
process.exitCode = wrong > 0 ? 1 : 0;
