/**
 * `npm run bench [-- NAME ...] [--quick]`: runs the benches (all by default, or the named ones
 * of: validation parse commerce mkt1 markdown gateway jobs farm assistants), prints each table, and writes one
 * Markdown document of every table to bench/results/latest.md (gitignored).
 *
 * Every contender runs in a process of its own and every loop is bounded in count and time;
 * the default run takes about 5 minutes on two cores. `--quick` shortens every run (for a
 * smoke test; its numbers are not for comparison).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_DIR, ROOT } from './child.js';
import { runAssistants } from './farm/assistants.js';
import { runBrowser } from './farm/browser.js';
import type { RunStats } from './farm/measure.js';
import { runStatic, type Overhead } from './farm/static.js';
import { runGatewayBench } from './gateway.js';
import { runJobsBench } from './jobs.js';
import { machineLine, printSection, ratio, toMarkdown, type Section } from './report.js';

const MICRO = { validation: 'bench/validation.bench.ts', parse: 'bench/parse.bench.ts', commerce: 'bench/commerce.bench.ts', mkt1: 'bench/mkt1-parse.bench.ts', markdown: 'bench/markdown.bench.ts' } as const;
const ALL = ['validation', 'parse', 'commerce', 'mkt1', 'markdown', 'gateway', 'jobs', 'farm', 'assistants'] as const;
type Name = (typeof ALL)[number];

const quick = process.argv.includes('--quick');
const asked = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const unknown = asked.filter((a) => !(ALL as readonly string[]).includes(a));
if (unknown.length > 0) {
  console.error(`unknown bench ${unknown.join(', ')}; choose from: ${ALL.join(' ')}`);
  process.exit(2);
}
const names: Name[] = asked.length > 0 ? ALL.filter((n) => asked.includes(n)) : [...ALL];

/** A tinybench script in a child process; its own printed tables are the section. */
function micro(name: keyof typeof MICRO, timeoutMs = 240_000): Promise<Section> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', MICRO[name]], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const failed = code !== 0 ? [`${MICRO[name]} ${signal ? `was killed (${signal}, limit ${timeoutMs / 1000} s)` : `exited with ${code}`}`] : [];
      resolve({ id: name, title: `Micro-bench: ${MICRO[name]}`, tables: [], text: out, notes: failed });
    });
  });
}

function farmRow(page: string, r: RunStats, best = false): Record<string, unknown> {
  return {
    page,
    contender: r.name.replace(/^(static|browser): /, '') + (best ? ' (best)' : ''),
    concurrency: r.concurrency,
    'pages/s': r.pagesPerSec,
    'p50 ms': r.p50Ms,
    'p95 ms': r.p95Ms,
    'CPU ms/page': r.cpuMsPerPage,
    'peak RSS MB': r.peakRssMb,
    'peak PSS MB': r.peakPssMb,
    failures: r.failures,
  };
}

const best = (rows: RunStats[], prefix: string) => rows.filter((r) => r.name.includes(prefix)).sort((a, b) => b.pagesPerSec - a.pagesPerSec)[0];
const find = (rows: RunStats[], part: string) => rows.find((r) => r.name.includes(part));
/** The farm row at the service's default concurrency (not the extra contexts rows). */
const farmDefault = (rows: RunStats[]) => rows.find((r) => r.name.includes('farm direct') && !r.name.includes('contexts,') && !r.name.includes('shared'));

function target(label: string, ours: RunStats | undefined, base: RunStats | undefined, want: number): string {
  if (!ours || !base) return `${label}: not measured (a row is missing).`;
  const r = ours.pagesPerSec / base.pagesPerSec;
  return `${label}: ${ratio(r)} (target ≥ ${want.toFixed(1)}×: ${r >= want ? 'met' : 'NOT met'}).`;
}

function overheadNote(o: Overhead | undefined): string {
  if (!o) return 'sync overhead: not measured.';
  const added = o.syncHtmlP50Ms - o.rawFetchP50Ms;
  return `sync overhead (one request at a time, ${o.samples} samples): raw fetch p50 ${o.rawFetchP50Ms} ms, sync /v1/scrape p50 ${o.syncHtmlP50Ms} ms (html) / ${o.syncMarkdownP50Ms} ms (markdown): adds ${added.toFixed(2)} ms (target < 5 ms: ${added < 5 ? 'met' : 'NOT met'}).`;
}

async function farm(): Promise<Section> {
  const s = await runStatic({ pages: quick ? 200 : 1000, concurrency: 16, crawlee: quick ? [16] : [8, 16, 32], overheadSamples: quick ? 30 : 200 });
  const b = await runBrowser({ pages: quick ? 16 : 80, concurrency: 4, crawlee: quick ? [4] : [4, 8], farmContexts: quick ? [] : [4] });
  const cheerio = best(s.rows, 'Cheerio');
  const pwc = best(b.rows, 'PlaywrightCrawler');
  const rows = [...s.rows.map((r) => farmRow('static', r, r === cheerio)), ...b.rows.map((r) => farmRow('js-only', r, r === pwc))];
  const notes = [
    target('static Markdown, farm direct vs raw single-process loop', farmDefault(s.rows), find(s.rows, 'raw'), 1.5),
    target('static Markdown, farm direct vs best CheerioCrawler', farmDefault(s.rows), cheerio, 2.5),
    target('static Markdown, Gleaner HTTP vs raw single-process loop', find(s.rows, 'Gleaner HTTP'), find(s.rows, 'raw'), 1.5),
    target('static Markdown, Gleaner HTTP vs best CheerioCrawler', find(s.rows, 'Gleaner HTTP'), cheerio, 2.5),
    target('browser, farm direct vs raw Playwright (both at concurrency 4)', farmDefault(b.rows), find(b.rows, 'raw'), 1.0),
    target('browser, farm direct vs best PlaywrightCrawler', farmDefault(b.rows), pwc, 1.2),
    target('browser, farm direct with 4 contexts per worker vs best PlaywrightCrawler', find(b.rows, '1 render thread'), pwc, 1.2),
    target('browser, Gleaner HTTP vs raw Playwright', find(b.rows, 'Gleaner HTTP'), find(b.rows, 'raw'), 1.0),
    target('browser, Gleaner HTTP vs best PlaywrightCrawler', find(b.rows, 'Gleaner HTTP'), pwc, 1.2),
    overheadNote(s.overhead),
    'CPU ms/page: the contender\'s whole process tree (Node threads, browser server, Chromium); Gleaner HTTP rows meter the service\'s tree only, not the calling client. The simulator runs in a process of its own, in no row.',
    ...s.notes,
    ...b.notes,
  ];
  return { id: 'farm', title: 'Farm: raw baselines, Crawlee peers, farm direct, Gleaner HTTP (same simulator pages, same Chromium)', tables: [{ rows }], notes };
}

async function run(name: Name): Promise<Section> {
  switch (name) {
    case 'validation':
    case 'parse':
    case 'commerce':
    case 'mkt1':
    case 'markdown':
      return micro(name);
    case 'gateway':
      return runGatewayBench({ seconds: quick ? 2 : 5, connections: 32 });
    case 'jobs':
      return runJobsBench({ seconds: quick ? 2 : 5, connections: 32, jobs: quick ? 1000 : 10_000, batch: 500, drainTimeoutS: 300 });
    case 'farm':
      return farm();
    case 'assistants': {
      const a = await runAssistants({ questions: quick ? 8 : 24, concurrency: 4 });
      const rows = a.rows.map((r) => ({ assistant: r.name, concurrency: r.concurrency, 'questions/min': r.questionsPerMin, 'p50 ms': r.p50Ms, 'p95 ms': r.p95Ms, 'CPU ms/question': r.cpuMsPerPage, 'peak RSS MB': r.peakRssMb, failures: r.failures }));
      const notes = ['Farm direct, 2 workers, simulator chat pages; CPU is the farm\'s whole process tree (Chromium included) per question. Latency is mostly waiting: the answer streams for ~0.5 s and must stay stable for stableMs (600 ms).', ...a.notes];
      return { id: 'assistants', title: 'Assistants: questions per minute and farm CPU per question (simulator)', tables: [{ rows }], notes };
    }
  }
}

const startLoad = machineLine();
const t0 = performance.now();
const sections: Section[] = [];
console.log(`benches: ${names.join(' ')}${quick ? ' (quick)' : ''}\nmachine: ${startLoad}`);
for (const name of names) {
  const s0 = performance.now();
  let section: Section;
  try {
    section = await run(name);
  } catch (err) {
    section = { id: name, title: name, tables: [], notes: [`FAILED: ${(err as Error).stack ?? String(err)}`] };
  }
  section.seconds = (performance.now() - s0) / 1000;
  printSection(section);
  sections.push(section);
}
const dir = join(BENCH_DIR, 'results');
mkdirSync(dir, { recursive: true });
const file = join(dir, 'latest.md');
writeFileSync(file, toMarkdown(sections, startLoad, machineLine(), (performance.now() - t0) / 1000));
console.log(`\nwrote ${file} (${((performance.now() - t0) / 1000).toFixed(0)} s in all)`);
process.exit(sections.some((s) => s.notes.some((n) => n.startsWith('FAILED'))) ? 1 : 0);
