/**
 * Parse time per page for the largest search-engine pages: the captured pages in
 * ../shared/fixtures when present (read at run time), else simulator pages padded with inline
 * script and style to the captured pages' size (1.5 MB). Baseline in the same run: a bare
 * htmlparser2 `parseDocument` of the same page, so the table shows what the block extractors
 * cost on top of building the DOM. Target: p50 under 20 ms for the largest pages.
 *
 *   node --import tsx bench/parse.bench.ts
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'htmlparser2';
import { Bench } from 'tinybench';
import { latencyRows } from './report.js';
import { parsePage } from '../core/targets/index.js';
import { se1Docs, se2Docs } from '../test/sites/se-data.js';
import { se1WebPage } from '../test/sites/se1-web.js';
import { se2Page } from '../test/sites/se2-web.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURES = resolve(ROOT, '../shared/fixtures');

interface Page {
  name: string;
  route: string;
  html: string;
}

function fixturePages(): Page[] {
  const out: Page[] = [];
  for (const [family, route] of [
    ['search-engine-1', 'se1/search'],
    ['search-engine-2', 'se2/search'],
  ] as const) {
    const dir = join(FIXTURES, family);
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.html'))
      .map((f) => ({ f, size: statSync(join(dir, f)).size }))
      .sort((a, b) => b.size - a.size)
      .slice(0, family === 'search-engine-1' ? 4 : 2);
    for (const { f } of files) out.push({ name: f.replace(/\.html$/, ''), route, html: readFileSync(join(dir, f), 'utf8') });
  }
  return out;
}

/** Simulator pages padded like real ones: most of a captured page's bytes are inline script and style. */
function generatedPages(): Page[] {
  const pad = (html: string) => {
    const script = `<script>${'var x=function(a){return a&&a.b?a.b:{c:[1,2,3],d:"<div class=\\"g\\">"}};'.repeat(9000)}</script>`;
    const style = `<style>${'.a1b2{display:block;margin:0 4px}'.repeat(14000)}</style>`;
    return html.replace('</head>', `${style}</head>`).replace('</body>', `${script}</body>`);
  };
  return [
    { name: 'simulated se1 page 1 (padded)', route: 'se1/search', html: pad(se1WebPage({ query: 'green tea', page: 1, num: 10, docs: se1Docs('green tea', 1, 10) })) },
    { name: 'simulated se2 page 1 (padded)', route: 'se2/search', html: pad(se2Page({ query: 'green tea', page: 1, docs: se2Docs('green tea', 1) })) },
  ];
}

const fromFixtures = existsSync(FIXTURES);
const pages = fromFixtures ? fixturePages() : generatedPages();
console.log(fromFixtures ? `Pages: the largest captured pages in ${FIXTURES}.` : `Fixture folder ${FIXTURES} is absent: benchmarking generated pages of the same size.`);

const bench = new Bench({ time: 400, warmupTime: 200 });
for (const p of pages) {
  const input = { html: p.html, url: 'https://www.example.com/search', page: 1, params: {} };
  bench.add(`parse ${p.route} ${p.name} (${(p.html.length / 1e6).toFixed(2)} MB)`, () => {
    parsePage(p.route, input);
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
console.log(`largest p50 of our parser: ${worst.toFixed(2)} ms (target < 20 ms): ${worst < 20 ? 'met' : 'NOT met'}; 1-minute load average during the run ${load.toFixed(1)} — rerun on an idle machine before comparing.`);
