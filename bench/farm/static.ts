/**
 * Plain-HTTP throughput on the simulator's static page (0.4 KB), or with `--page-kb N` on a
 * synthetic news article of about N KB (issue 26 measures 87: `--page-kb 87`), HTML → Markdown,
 * each contender in a fresh process of its own (the simulator in another):
 *   - raw: one process, an undici keep-alive loop + htmlToMarkdown (the single-process baseline)
 *   - turndown: the same loop with turndown as the converter (the "raw undici + turndown" loop
 *     issue #20 compares the static path with)
 *   - undici / wreq: fetch only, no conversion: undici against the plain path's impersonating
 *     client as the farm uses it (wreq-js with Chrome's TLS/h2 and the profile's headers,
 *     net/fetcher.ts), the price of looking like Chrome
 *   - Crawlee CheerioCrawler at several concurrencies (the same converter in its handler)
 *   - the farm, called directly (`run_js: false`, markdown output)
 *   - Gleaner through its HTTP API: sync `POST /v1/scrape` with markdown output, the service in
 *     a child process (its tree is what is metered; the calling client is not)
 * and, in the HTTP row's process, one request at a time: the sync scrape's p50 against a raw
 * fetch of the same page (target: adds under 5 ms).
 *
 * Every contender is warmed with the same `--warm` pages first (JIT, connection pools; the farm
 * has three isolates to warm, a short run otherwise measures its compilation), and the
 * simulator's own CPU per page is reported with each row (`simCpuMsPerPage`): on two cores it
 * bounds every contender at 2000 / (own + simulator CPU ms per page) pages/s.
 *
 *   node --import tsx bench/farm/static.ts [--pages 10000] [--warm 1000] [--concurrency 16] [--crawlee 8,16,32] [--rows raw,farm] [--page-kb 87]
 *   node --import tsx bench/farm/static.ts --rows undici,wreq,turndown,farm   # the identity rows (bench/README)
 */
import { Agent, Pool, request } from 'undici';
import { importPeer, isMain, runChild, startService, tell } from '../child.js';
import { arg, argString, measure, printTable, quantile, round, type RunStats } from './measure.js';

export interface StaticOptions {
  pages: number;
  /** Warm-up pages per contender, before metering (default 1000). */
  warm?: number;
  /** Only these rows (raw, cheerio, farm, http); all when absent. */
  rows?: string[];
  concurrency: number;
  crawlee: number[];
  overheadSamples: number;
  /** The HTTP row runs the compiled service (dist/). */
  dist?: boolean;
  /** Serve a synthetic article of about this many KB instead of the 0.4 KB `/static` page. */
  pageKb?: number;
}

export interface Overhead {
  samples: number;
  rawFetchP50Ms: number;
  syncHtmlP50Ms: number;
  syncMarkdownP50Ms: number;
}

export interface StaticResult {
  rows: RunStats[];
  overhead: Overhead | undefined;
  notes: string[];
}

type RowValue = { stats: RunStats; overhead?: Overhead };

/** `page` is the page's address without a query (`…/static` or `…/article`); each URL is unique. */
const urlsFor = (page: string, n: number, tag: string) => Array.from({ length: n }, (_, i) => `${page}?${tag}=${i}`);

export async function runStatic(opts: StaticOptions): Promise<StaticResult> {
  const kb = opts.pageKb ?? 0;
  const sim = await startService<{ origin: string; articleOrigin?: string }>('bench/sim.ts', kb > 0 ? ['--article-kb', String(kb)] : []);
  const page = kb > 0 ? `${sim.info.articleOrigin!}/article` : `${sim.info.origin}/static`;
  const rows: RunStats[] = [];
  const notes: string[] = [];
  let overhead: Overhead | undefined;
  const only = opts.rows && opts.rows.length > 0 ? new Set(opts.rows) : undefined;
  const row = async (name: string, concurrency: number): Promise<void> => {
    if (only && !only.has(name)) return;
    const args = ['--row', name, '--page', page, '--pages', String(opts.pages), '--concurrency', String(concurrency), '--samples', String(opts.overheadSamples), '--warm', String(opts.warm ?? 1000), '--sim-pid', String(sim.pid), ...(opts.dist ? ['--dist'] : [])];
    try {
      const v = await runChild<RowValue>('bench/farm/static.ts', args, 240_000);
      rows.push(v.stats);
      overhead ??= v.overhead;
    } catch (err) {
      notes.push(`static row ${name} (concurrency ${concurrency}) skipped: ${(err as Error).message}`);
    }
  };
  try {
    await row('undici', opts.concurrency);
    await row('wreq', opts.concurrency);
    await row('turndown', opts.concurrency);
    await row('raw', opts.concurrency);
    for (const c of opts.crawlee) await row('cheerio', c);
    await row('farm', opts.concurrency);
    await row('http', opts.concurrency);
  } finally {
    await sim.stop();
  }
  return { rows, overhead, notes };
}

async function rowMain(name: string, page: string, pages: number, concurrency: number, samples: number, warmPages: number, simPid: number | undefined): Promise<RowValue> {
  const urls = urlsFor(page, pages, 'i');
  const warm = urlsFor(page, warmPages, 'w');
  /** Warm-up at the row's concurrency, like the metered run. */
  const warmUp = async (f: (url: string) => Promise<unknown>) => {
    let next = 0;
    await Promise.all(Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < warm.length; i = next++) await f(warm[i]!);
    }));
  };
  if (name === 'raw') {
    const { htmlToMarkdown } = await import('../../core/markdown/index.js');
    const agent = new Agent({ keepAliveTimeout: 10_000, connections: concurrency });
    const once = async (url: string) => htmlToMarkdown(await (await request(url, { dispatcher: agent })).body.text(), url);
    await warmUp(once);
    const stats = await measure('static: raw undici + htmlToMarkdown (1 process)', pages, concurrency, (i) => once(urls[i]!).then(() => undefined), process.pid, simPid);
    await agent.close();
    return { stats };
  }
  if (name === 'turndown') {
    const { default: TurndownService } = await import('turndown');
    const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });
    const agent = new Agent({ keepAliveTimeout: 10_000, connections: concurrency });
    const once = async (url: string) => turndown.turndown(await (await request(url, { dispatcher: agent })).body.text());
    await warmUp(once);
    const stats = await measure('static: raw undici + turndown (1 process)', pages, concurrency, (i) => once(urls[i]!).then(() => undefined), process.pid, simPid);
    await agent.close();
    return { stats };
  }
  if (name === 'undici') {
    const agent = new Agent({ keepAliveTimeout: 10_000, connections: concurrency });
    const once = async (url: string) => (await request(url, { dispatcher: agent })).body.text();
    await warmUp(once);
    const stats = await measure('fetch only: undici (1 process)', pages, concurrency, (i) => once(urls[i]!).then(() => undefined), process.pid, simPid);
    await agent.close();
    return { stats };
  }
  if (name === 'wreq') {
    const { httpFetch } = await import('../../farm/net/fetcher.js');
    const { Transports } = await import('../../farm/net/transports.js');
    const { requestHeaders } = await import('../../farm/identity/headers.js');
    const { profileFor } = await import('../../farm/identity/profile.js');
    const policy = { allowPrivate: true, hosts: {} };
    const transports = new Transports(policy);
    const profile = profileFor({ sessionKey: 'bench', device: 'desktop' });
    const abort = { signal: new AbortController().signal };
    const once = (url: string) =>
      httpFetch({ url, method: 'GET', headers: (hop, cookie) => requestHeaders(profile, { method: hop.method, url: hop.url, headers: undefined, cookie }), proxy: null, maxBytes: 20 << 20, abort }, transports, policy);
    await warmUp(once);
    const stats = await measure('fetch only: wreq-js as the plain path uses it (1 process)', pages, concurrency, (i) => once(urls[i]!).then(() => undefined), process.pid, simPid);
    await transports.close();
    return { stats };
  }
  if (name === 'cheerio') {
    const { crawlCheerio } = await importPeer(() => import('../peers/cheerio.js'));
    return { stats: await crawlCheerio('static: Crawlee CheerioCrawler', urls, warm, concurrency) };
  }
  if (name === 'farm') {
    const { loadConfig } = await import('../../core/config.js');
    const { createFarm } = await import('../../farm/index.js');
    const { task } = await import('../../test/helpers/farm.js');
    const farm = await createFarm({ config: loadConfig({}, { allowPrivate: true }) });
    await warmUp((url) => farm.run(task({ url, output: ['markdown'] })));
    const stats = await measure(
      'static: farm direct (run_js false, markdown)',
      pages,
      concurrency,
      async (i) => {
        await farm.run(task({ url: urls[i]!, output: ['markdown'] }));
      },
      process.pid,
      simPid,
    );
    await farm.close();
    return { stats };
  }
  if (name === 'http') {
    const { startGatewayService } = await import('../gateway.js');
    const gw = await startGatewayService(2, process.argv.includes('--dist') ? ['--dist'] : []);
    const pool = new Pool(gw.info.url, { connections: concurrency });
    const headers = { authorization: `Bearer ${gw.info.key}`, 'content-type': 'application/json' };
    const scrape = async (url: string, output?: string[]) => {
      const res = await pool.request({ path: '/v1/scrape', method: 'POST', headers, body: JSON.stringify(output ? { url, output } : { url }) });
      const text = await res.body.text();
      if (res.statusCode !== 200) throw new Error(`sync scrape answered ${res.statusCode}: ${text.slice(0, 200)}`);
    };
    try {
      await warmUp((url) => scrape(url, ['markdown']));
      const stats = await measure('static: Gleaner HTTP sync /v1/scrape (markdown)', pages, concurrency, (i) => scrape(urls[i]!, ['markdown']), gw.pid, simPid);
      return { stats, overhead: await syncOverhead(page, scrape, samples) };
    } finally {
      await pool.close();
      await gw.stop();
    }
  }
  throw new Error(`unknown row ${name}`);
}

/** One request at a time, interleaved: raw fetch, sync scrape (html), sync scrape (markdown). */
async function syncOverhead(page: string, scrape: (url: string, output?: string[]) => Promise<void>, samples: number): Promise<Overhead> {
  const agent = new Agent({ keepAliveTimeout: 10_000 });
  const raw: number[] = [];
  const html: number[] = [];
  const md: number[] = [];
  const time = async (into: number[], f: () => Promise<unknown>) => {
    const s = performance.now();
    await f();
    into.push(performance.now() - s);
  };
  for (let i = 0; i < samples; i++) {
    const url = `${page}?o=${i}`;
    await time(raw, async () => (await request(url, { dispatcher: agent })).body.text());
    await time(html, () => scrape(`${url}&h`));
    await time(md, () => scrape(`${url}&m`, ['markdown']));
  }
  await agent.close();
  const p50 = (xs: number[]) => round(quantile(xs.sort((a, b) => a - b), 0.5), 2);
  return { samples, rawFetchP50Ms: p50(raw), syncHtmlP50Ms: p50(html), syncMarkdownP50Ms: p50(md) };
}

if (isMain(import.meta)) {
  const row = argString('row');
  if (row) {
    try {
      const simPid = arg('sim-pid', 0) || undefined;
      await tell({ type: 'result', value: await rowMain(row, argString('page'), arg('pages', 10000), arg('concurrency', 16), arg('samples', 200), arg('warm', 1000), simPid) });
    } catch (err) {
      await tell({ type: 'error', message: (err as Error).message });
      if (!process.send) throw err;
    }
    process.exit(0);
  }
  const crawlee = argString('crawlee', '8,16,32').split(',').filter(Boolean).map(Number);
  const rows = argString('rows').split(',').filter(Boolean);
  const result = await runStatic({ pages: arg('pages', 10000), warm: arg('warm', 1000), concurrency: arg('concurrency', 16), crawlee, overheadSamples: arg('samples', 200), rows, dist: process.argv.includes('--dist'), pageKb: arg('page-kb', 0) });
  printTable(result.rows);
  if (result.overhead) console.table([result.overhead]);
  for (const n of result.notes) console.log(`- ${n}`);
}
