/**
 * Crawl throughput: Gleaner's crawl (`POST /v1/async/crawl`, the real service with its durable
 * frontier) against Crawlee's CheerioCrawler on the same simulated site in the same run, and,
 * for `run_js`, against Crawlee's PlaywrightCrawler on a smaller site with the same browser.
 * Both sides convert every page to Markdown with Gleaner's converter (so the rows measure the
 * crawlers), follow same-host links, and run at the same concurrency; Gleaner's politeness
 * delay is 0 for the run (its default is 200 ms) and it reads robots.txt (Crawlee does not).
 *
 *   npm install --prefix bench                      # Crawlee (bench-only)
 *   node --import tsx bench/crawl.ts [--runs 3] [--products 1900] [--concurrency 8] [--js-products 60] [--js-concurrency 4] [--no-js | --js-only]
 *
 * Each row runs in a fresh process (bench/child.ts) and meters its own process tree (CPU, peak
 * RSS and PSS, Chromium included); the site runs in a process of its own. Rows alternate their
 * order from run to run; the table shows each row's median over the runs and the load average.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../core/config.js';
import { createLogger } from '../core/log.js';
import { htmlToMarkdown } from '../core/markdown/index.js';
import { startServer } from '../gateway/server.js';
import { startCrawlSite } from '../test/sites/crawl-site.js';
import { importPeer, isMain, onStop, runChild, startService, tell } from './child.js';
import { arg, round, startMeter } from './farm/measure.js';

interface Row {
  name: string;
  pages: number;
  seconds: number;
  pagesPerSec: number;
  cpuMsPerPage: number;
  peakRssMb: number;
  peakPssMb: number;
}

const SCRIPT = 'bench/crawl.ts';

function result(name: string, pages: number, m: ReturnType<ReturnType<typeof startMeter>['stop']>): Row {
  return {
    name,
    pages,
    seconds: round(m.wallMs / 1000, 2),
    pagesPerSec: round((pages / m.wallMs) * 1000),
    cpuMsPerPage: round(m.cpuMs / Math.max(1, pages), 2),
    peakRssMb: round(m.peakRssBytes / 1024 / 1024),
    peakPssMb: round(m.peakPssBytes / 1024 / 1024),
  };
}

async function gleanerRow(origin: string, concurrency: number, runJs: boolean): Promise<Row> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gleaner-bench-crawl-'));
  const key = 'bench-crawl-key-0123456789';
  const config = loadConfig({}, { host: '127.0.0.1', port: 0, realtimePort: 0, dataPort: 0, dataDir, bootstrapApiKey: key, allowPrivate: true, logLevel: 'silent' });
  const server = await startServer({ config, logger: createLogger('silent') });
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  try {
    const meter = startMeter(process.pid);
    const body = { url: `${origin}/`, limit: 100_000, delay_ms: 0, max_concurrency_per_host: concurrency, sitemap: 'skip', scrape: { output: ['markdown'], run_js: runJs } };
    const submitted = (await (await fetch(`${server.url}/v1/async/crawl`, { method: 'POST', headers, body: JSON.stringify(body) })).json()) as { id: string };
    let state: { status: string; counts: { done: number } | null };
    for (;;) {
      state = (await (await fetch(`${server.url}/v1/async/crawl/${submitted.id}?limit=1`, { headers })).json()) as typeof state;
      if (['done', 'faulted', 'cancelled'].includes(state.status)) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    if (state.status !== 'done') throw new Error(`crawl ${state.status}`);
    return result(runJs ? 'gleaner run_js' : 'gleaner', state.counts?.done ?? 0, meter.stop());
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

interface EnqueueCtx {
  body?: string | Buffer;
  page?: { content(): Promise<string> };
  request: { url: string };
  enqueueLinks(opts: { strategy: string }): Promise<unknown>;
}

async function crawleeRow(origin: string, concurrency: number, runJs: boolean, chromium: string): Promise<Row> {
  // @ts-ignore -- bench-only modules, resolved after `npm install --prefix bench`
  const { MemoryStorage } = await importPeer(() => import('@crawlee/memory-storage'));
  let pages = 0;
  const handler = async (ctx: EnqueueCtx): Promise<void> => {
    const html = ctx.page ? await ctx.page.content() : typeof ctx.body === 'string' ? ctx.body : (ctx.body ?? Buffer.alloc(0)).toString('utf8');
    htmlToMarkdown(html, ctx.request.url);
    pages++;
    await ctx.enqueueLinks({ strategy: 'same-hostname' });
  };
  // The handler reads what both crawlers give it (body or page); their context types differ.
  const common = { minConcurrency: concurrency, maxConcurrency: concurrency, autoscaledPoolOptions: { desiredConcurrency: concurrency }, maxRequestRetries: 0, requestHandler: handler as never };
  let crawler: { run(urls: string[]): Promise<unknown> };
  if (runJs) {
    // @ts-ignore -- bench-only
    const { Configuration, log, LogLevel, PlaywrightCrawler } = await importPeer(() => import('@crawlee/playwright'));
    // @ts-ignore -- bench-only
    const { chromium: launcher } = await importPeer(() => import('playwright'));
    log.setLevel(LogLevel.ERROR);
    const config = new Configuration({ persistStorage: false, storageClient: new MemoryStorage({ persistStorage: false, writeMetadata: false }) });
    crawler = new PlaywrightCrawler({ ...common, launchContext: { launcher, launchOptions: { executablePath: chromium, headless: true } }, navigationTimeoutSecs: 30 }, config);
  } else {
    // @ts-ignore -- bench-only
    const { CheerioCrawler, Configuration, log, LogLevel } = await importPeer(() => import('@crawlee/cheerio'));
    log.setLevel(LogLevel.ERROR);
    const config = new Configuration({ persistStorage: false, storageClient: new MemoryStorage({ persistStorage: false, writeMetadata: false }) });
    crawler = new CheerioCrawler({ ...common, keepAlive: false }, config);
  }
  const meter = startMeter(process.pid);
  await crawler.run([`${origin}/`]);
  return result(runJs ? 'crawlee PlaywrightCrawler' : 'crawlee CheerioCrawler', pages, meter.stop());
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

function loadavg(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

async function main(): Promise<void> {
  const role = process.argv[process.argv.indexOf('--role') + 1];
  if (process.argv.includes('--role')) {
    const origin = process.argv[process.argv.indexOf('--origin') + 1]!;
    const concurrency = arg('concurrency', 8);
    const chromium = loadConfig({}, {}).chromium ?? '/usr/bin/chromium';
    try {
      if (role === 'site') {
        const site = await startCrawlSite({ products: arg('products', 1900), plain: true, orphans: 0, slowPages: 0 });
        onStop(() => site.close());
        await tell({ type: 'ready', info: { origin: site.origin, pages: site.pages().length } });
        return;
      }
      const runJs = role!.endsWith('-js');
      const row = role!.startsWith('gleaner') ? await gleanerRow(origin, concurrency, runJs) : await crawleeRow(origin, concurrency, runJs, chromium);
      await tell({ type: 'result', value: row });
    } catch (err) {
      await tell({ type: 'error', message: (err as Error).message });
    }
    process.exit(0);
  }
  const runs = arg('runs', 3);
  const started = loadavg();
  const suites: Array<{ products: number; concurrency: number; roles: string[] }> = [];
  if (!process.argv.includes('--js-only')) suites.push({ products: arg('products', 1900), concurrency: arg('concurrency', 8), roles: ['gleaner', 'crawlee'] });
  if (!process.argv.includes('--no-js')) suites.push({ products: arg('js-products', 60), concurrency: arg('js-concurrency', 4), roles: ['gleaner-js', 'crawlee-js'] });
  const lines: string[] = [];
  for (const suite of suites) {
    const site = await startService<{ origin: string; pages: number }>(SCRIPT, ['--role', 'site', '--products', String(suite.products)]);
    const rows = new Map<string, Row[]>();
    try {
      for (let run = 0; run < runs; run++) {
        const order = run % 2 === 0 ? suite.roles : [...suite.roles].reverse();
        for (const role of order) {
          let row: Row;
          try {
            row = await runChild<Row>(SCRIPT, ['--role', role, '--origin', site.info.origin, '--concurrency', String(suite.concurrency)], 900_000);
          } catch (err) {
            // A row that fails or times out (a saturated machine) is reported, and the others still run.
            console.log(`run ${run + 1} ${role}: failed: ${(err as Error).message} (load ${loadavg()})`);
            continue;
          }
          console.log(`run ${run + 1} ${row.name}: ${row.pages} pages in ${row.seconds} s, ${row.pagesPerSec} pages/s, peak RSS ${row.peakRssMb} MB (load ${loadavg()})`);
          rows.set(row.name, [...(rows.get(row.name) ?? []), row]);
        }
      }
    } finally {
      await site.stop();
    }
    lines.push(`\nsite: ${site.info.pages} pages, concurrency ${suite.concurrency}, ${runs} runs (medians)\n`);
    lines.push('| crawler | pages | pages/s | CPU ms/page | peak RSS MB | peak PSS MB |', '|---|---:|---:|---:|---:|---:|');
    const medians: Record<string, number> = {};
    for (const [name, list] of rows) {
      medians[name] = median(list.map((r) => r.pagesPerSec));
      lines.push(`| ${name} | ${median(list.map((r) => r.pages))} | ${medians[name]} | ${median(list.map((r) => r.cpuMsPerPage))} | ${median(list.map((r) => r.peakRssMb))} | ${median(list.map((r) => r.peakPssMb))} |`);
    }
    const [ours, theirs] = [...rows.keys()];
    if (ours && theirs) lines.push(`\n${ours} / ${theirs} throughput: ${round(medians[ours]! / medians[theirs]!, 2)}x`);
  }
  lines.push(`\nload average (1, 5, 15 min): start ${started}, end ${loadavg()}`);
  console.log(lines.join('\n'));
}

if (isMain(import.meta)) void main();
