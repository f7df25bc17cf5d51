/**
 * HTML → Markdown: our converter against turndown (the baseline, a devDependency used here
 * only) on the same synthetic pages, in one run. Run with:
 *
 *   node --import tsx bench/markdown.bench.ts          # wall clock
 *   node --import tsx bench/markdown.bench.ts --cpu    # CPU time of this process
 *
 * The machine is shared: under load from other processes, wall-clock samples stretch while
 * CPU time does not, so `--cpu` gives steadier numbers (it also counts the garbage
 * collector's helper threads, which is a real cost of the conversion).
 *
 * Pages come from bench/pages/synthetic.ts (deterministic): a ~90 KB news article and a
 * ~90 KB retail listing, and the same two shapes at ~2 MB. The µs/KB column is our cost per
 * input KB; a second table follows it for the listing shape from 90 KB to 4 MB (ours only):
 * a flat µs/KB means linear time.
 */
import { Bench, type Task } from 'tinybench';
import TurndownService from 'turndown';
import { htmlToMarkdown } from '../core/markdown/index.js';
import { articlePage, listingPage } from './pages/synthetic.js';

const BASE = 'https://www.example.test/section/page.html';
const CPU = process.argv.includes('--cpu');

/** Milliseconds of CPU time used by this process so far (user + system, all threads). */
function cpuNow(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

interface Page {
  readonly name: string;
  readonly html: string;
}

const pages: Page[] = [
  { name: 'article 90KB', html: articlePage(90_000, 1) },
  { name: 'listing 90KB', html: listingPage(90_000, 2) },
  { name: 'article 2MB', html: articlePage(2_000_000, 3) },
  { name: 'listing 2MB', html: listingPage(2_000_000, 4) },
];

/** Turndown as a Gleaner user would configure it: ATX headings, fences, noise removed. */
function makeTurndown(): TurndownService {
  const td = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  td.remove(['script', 'style', 'noscript', 'template', 'iframe', 'head']);
  return td;
}

function p50(task: Task | undefined): number {
  const r = task?.result;
  if (r === undefined || (r.state !== 'completed' && r.state !== 'aborted-with-statistics')) {
    throw new Error(`benchmark task ${task?.name ?? '?'} did not complete`);
  }
  return r.latency.p50;
}

async function measure(page: Page): Promise<{ ours: number; turndown: number }> {
  const big = page.html.length > 500_000;
  const td = makeTurndown();
  const bench = new Bench({
    name: page.name,
    time: big ? 2_000 : 1_500,
    iterations: big ? 5 : 50,
    warmupTime: big ? 0 : 300,
    warmupIterations: big ? 2 : 20,
    ...(CPU ? { now: cpuNow } : {}),
  });
  bench.add('ours', () => {
    htmlToMarkdown(page.html, BASE);
  });
  bench.add('turndown', () => {
    td.turndown(page.html);
  });
  await bench.run();
  return { ours: p50(bench.getTask('ours')), turndown: p50(bench.getTask('turndown')) };
}

function pad(s: string, n: number): string {
  return s.length >= n ? s : ' '.repeat(n - s.length) + s;
}

async function main(): Promise<void> {
  const rows: string[] = [];
  console.log(`clock: ${CPU ? 'CPU time (process.cpuUsage)' : 'wall (performance.now)'}; node ${process.version}`);
  rows.push(
    `${'page'.padEnd(14)}${pad('KB', 7)}${pad('ours p50 ms', 13)}${pad('turndown p50 ms', 17)}${pad('ratio', 8)}` +
      `${pad('ours µs/KB', 12)}${pad('md KB', 8)}`,
  );
  for (const page of pages) {
    const kb = page.html.length / 1024;
    const out = htmlToMarkdown(page.html, BASE);
    const { ours, turndown } = await measure(page);
    rows.push(
      `${page.name.padEnd(14)}${pad(kb.toFixed(0), 7)}${pad(ours.toFixed(2), 13)}${pad(turndown.toFixed(2), 17)}` +
        `${pad((turndown / ours).toFixed(1) + 'x', 8)}${pad(((ours * 1000) / kb).toFixed(1), 12)}` +
        `${pad((out.length / 1024).toFixed(0), 8)}`,
    );
    if (process.stderr.isTTY) process.stderr.write(`${rows[rows.length - 1]}\n`); // progress
  }
  console.log(rows.join('\n'));
  await linearity();
}

/** Ours only, one page shape at growing sizes: µs per KB should stay flat. */
async function linearity(): Promise<void> {
  console.log(`\n${'listing size'.padEnd(14)}${pad('KB', 7)}${pad('ours p50 ms', 13)}${pad('µs/KB', 8)}`);
  for (const size of [90_000, 500_000, 1_000_000, 2_000_000, 4_000_000]) {
    const html = listingPage(size, 5);
    const bench = new Bench({
      time: 1_000,
      iterations: size > 500_000 ? 5 : 20,
      warmupIterations: 2,
      ...(CPU ? { now: cpuNow } : {}),
    });
    bench.add('ours', () => {
      htmlToMarkdown(html, BASE);
    });
    await bench.run();
    const ms = p50(bench.getTask('ours'));
    const kb = html.length / 1024;
    console.log(
      `${''.padEnd(14)}${pad(kb.toFixed(0), 7)}${pad(ms.toFixed(2), 13)}${pad(((ms * 1000) / kb).toFixed(1), 8)}`,
    );
  }
}

await main();
