/**
 * Rendering throughput on the simulator's script page (load, then network idle, then the
 * page's HTML), each contender in a fresh process of its own (the simulator in another), all on
 * the same Chromium binary:
 *   - raw playwright-core: one browser, a fresh context per page, launched with the farm's
 *     command line (farm/chromium-args.ts) on the same binary
 *   - Crawlee PlaywrightCrawler at several concurrencies
 *   - the farm, called directly (`run_js: true`)
 *   - Gleaner through its HTTP API: sync `POST /v1/scrape` with `run_js: true`, the service in a
 *     child process (its tree is what is metered; the calling client is not)
 * CPU ms/page counts the whole tree, Chromium included.
 *
 *   - the farm again with more contexts per worker (2 workers × 4 contexts, driven at 8), with
 *     its default one render thread (one Playwright, one Chromium) and with a render thread per
 *     worker (`GLEANER_BROWSER_THREADS=2`: the layout before browsers moved to one thread), and
 *     the raw loop at that concurrency too: memory (peak PSS of the whole tree) is compared at
 *     equal pages in flight (target: the farm within 100 MB of the raw loop, pages/s no lower)
 *   - the farm with the other browser mode (`browserMode: 'shared'`: one browser server per
 *     node, which render threads connect to), at the default concurrency
 *   node --import tsx bench/farm/browser.ts [--pages 80] [--concurrency 4] [--crawlee 4,8] [--farm-contexts 4] [--rows raw,farm] [--dist]
 *   node --import tsx bench/farm/browser.ts --farm-contexts 4 --farm-configs '[{"workerYoungMb":0},{}]' --dist   # settings side by side
 *
 * `--browsers <path>,<path>`: the browser choice instead (README "The browser"): the raw loop
 * and the farm at `--concurrency` on each binary, one after the other in the same run — full
 * Chromium in new headless mode against the headless shell, same load.
 *
 * `--dist`: farm rows run the compiled farm (`npm run build` first; `BENCH_DIST=/abs/dist` another
 * build, for A/B runs), as `npm start` does; from
 * source every worker thread also loads tsx and transpiles the farm's modules (~15 MB a thread).
 */
import { Pool } from 'undici';
import { importPeer, isMain, runChild, startService, tell } from '../child.js';
import { arg, argString, measure, printTable, type RunStats } from './measure.js';

export interface BrowserOptions {
  pages: number;
  concurrency: number;
  crawlee: number[];
  /**
   * Extra farm rows with more browser contexts per worker (GLEANER_CONTEXTS), each driven at
   * 2 workers × contexts: the farm at a higher concurrency, as the Crawlee sweep is.
   */
  farmContexts: number[];
  /** Only these rows (raw, playwright, farm, http); all when absent. */
  rows?: string[];
  /** Farm rows run the compiled farm in dist/. */
  dist?: boolean;
  /** Compare these browser binaries (raw and farm rows each) instead of the usual rows. */
  browsers?: string[];
  /**
   * Settings to compare (`Partial<Config>` each, e.g. `{"workerYoungMb": 0}`): instead of the
   * usual rows, the raw loop and one farm row per setting at 2 workers × each `farmContexts`.
   */
  farmConfigs?: Record<string, unknown>[];
}

export interface BrowserResult {
  rows: RunStats[];
  notes: string[];
}

const urlsFor = (origin: string, n: number, tag: string) => Array.from({ length: n }, (_, i) => `${origin}/js-only?${tag}=${i}`);
const WARM = 8;

export async function runBrowser(opts: BrowserOptions): Promise<BrowserResult> {
  const sim = await startService<{ origin: string }>('bench/sim.ts');
  const rows: RunStats[] = [];
  const notes: string[] = [];
  const only = opts.rows && opts.rows.length > 0 ? new Set(opts.rows) : undefined;
  const row = async (name: string, concurrency: number, extra: string[] = []): Promise<void> => {
    if (only && !only.has(name)) return;
    const args = ['--row', name, '--origin', sim.info.origin, '--pages', String(opts.pages), '--concurrency', String(concurrency), '--sim-pid', String(sim.pid), ...extra, ...(opts.dist ? ['--dist'] : [])];
    try {
      rows.push(await runChild<RunStats>('bench/farm/browser.ts', args, 300_000));
    } catch (err) {
      notes.push(`browser row ${name} (concurrency ${concurrency}) skipped: ${(err as Error).message}`);
    }
  };
  try {
    if (opts.browsers?.length) {
      for (const bin of opts.browsers) {
        await row('raw', opts.concurrency, ['--chromium', bin]);
        await row('farm', opts.concurrency, ['--chromium', bin]);
      }
      return { rows, notes };
    }
    if (opts.farmConfigs?.length) {
      for (const c of opts.farmContexts) {
        await row('raw', 2 * c);
        for (const cfg of opts.farmConfigs) await row('farm', 2 * c, ['--contexts', String(c), '--config', JSON.stringify(cfg)]);
      }
      return { rows, notes: [...memoryNotes(rows), ...notes] };
    }
    for (const c of new Set([opts.concurrency, ...opts.farmContexts.map((x) => 2 * x)])) await row('raw', c);
    for (const c of opts.crawlee) await row('playwright', c);
    await row('farm', opts.concurrency);
    for (const c of opts.farmContexts) {
      await row('farm', 2 * c, ['--contexts', String(c)]);
      await row('farm', 2 * c, ['--contexts', String(c), '--browser-threads', '2']);
    }
    await row('farm', opts.concurrency, ['--mode', 'shared']);
    await row('http', opts.concurrency);
  } finally {
    await sim.stop();
  }
  return { rows, notes: [...memoryNotes(rows), ...notes] };
}

/** Each farm or HTTP row against the raw loop at the same concurrency: peak PSS and pages/s. */
export function memoryNotes(rows: readonly RunStats[]): string[] {
  const out: string[] = [];
  for (const r of rows) {
    if (!/farm direct|Gleaner HTTP/.test(r.name)) continue;
    const raw = rows.find((x) => x.name.includes('raw playwright') && x.concurrency === r.concurrency);
    if (!raw) continue;
    const extra = r.peakPssMb - raw.peakPssMb;
    out.push(
      `memory at ${r.concurrency} in flight, ${r.name.replace(/^browser: /, '')}: peak PSS ${r.peakPssMb} MB vs raw ${raw.peakPssMb} MB ` +
        `(${extra >= 0 ? '+' : ''}${Math.round(extra)} MB; target ≤ +100 MB: ${extra <= 100 ? 'met' : 'NOT met'}), pages/s ${(r.pagesPerSec / raw.pagesPerSec).toFixed(2)}× raw.`,
    );
  }
  return out;
}

async function rowMain(name: string, origin: string, pages: number, concurrency: number, simPid: number | undefined): Promise<RunStats> {
  const { defaultChromium } = await import('../../core/config.js');
  const { resolveExecutable } = await import('../../farm/chromium-args.js');
  const chosen = argString('chromium') || undefined;
  const executablePath = resolveExecutable(chosen ?? defaultChromium());
  const tag = chosen ? ` [${/headless[-_]shell/.test(chosen) ? 'headless shell' : 'full Chromium'}]` : '';
  if (!executablePath) throw new Error('no Chromium found (GLEANER_CHROMIUM, /usr/bin/chromium-headless-shell)');
  const urls = urlsFor(origin, pages, 'i');
  const warm = urlsFor(origin, WARM, 'w');
  if (name === 'raw') {
    const { chromium } = await import('playwright-core');
    // The farm's browser command line (quiet start; for full Chromium, Playwright's disabled
    // features plus the omnibox WebUI popups): without it full Chromium's browser process spends
    // ~150 ms more CPU per new page (measured, bench/README.md), a baseline no one would run.
    // The farm's in-process GPU and network services are the farm's own work, not the baseline's.
    const { chromiumArgs } = await import('../../farm/chromium-args.js');
    const browser = await chromium.launch({ executablePath, args: chromiumArgs({ executablePath, hosts: {}, guarded: false, inProcessServices: false }) });
    const once = async (url: string) => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(url, { waitUntil: 'load' });
      await page.waitForLoadState('networkidle');
      await page.content();
      await context.close();
    };
    await Promise.all(warm.map(once));
    const stats = await measure(`browser: raw playwright-core (context per page)${tag}`, pages, concurrency, (i) => once(urls[i]!), process.pid, simPid);
    await browser.close();
    return stats;
  }
  if (name === 'playwright') {
    const { crawlPlaywright } = await importPeer(() => import('../peers/playwright.js'));
    return crawlPlaywright('browser: Crawlee PlaywrightCrawler', urls, warm, concurrency, executablePath);
  }
  if (name === 'farm') {
    const dist = process.argv.includes('--dist');
    // A computed specifier: dist/ has no type declarations; its modules are the sources' own.
    // BENCH_DIST: another build (an absolute path, see serve-dist.mjs) for A/B runs.
    const from = (path: string) => (dist ? `${process.env.BENCH_DIST || '../../dist'}/${path}` : `../../${path}`);
    const { loadConfig } = (await import(from('core/config.js'))) as typeof import('../../core/config.js');
    const { createFarm } = (await import(from('farm/index.js'))) as typeof import('../../farm/index.js');
    const { task } = await import('../../test/helpers/farm.js');
    const contexts = arg('contexts', 0);
    const threads = arg('browser-threads', 0);
    const shared = argString('mode') === 'shared';
    const more = argString('config');
    const config = loadConfig({}, { allowPrivate: true, workers: 2, ...(chosen ? { chromium: chosen } : {}), ...(contexts ? { contextsPerWorker: contexts } : {}), ...(threads ? { browserThreads: threads } : {}), ...(more ? (JSON.parse(more) as object) : {}) });
    const farm = await createFarm({ config, ...(shared ? { limits: { browserMode: 'shared' as const } } : {}) });
    await Promise.all(warm.map((url) => farm.run(task({ url, run_js: true }))));
    const label = (contexts
      ? `browser: farm direct (run_js true, 2 workers × ${contexts} contexts, ${threads > 1 ? `${threads} render threads: a browser per worker` : '1 render thread'})`
      : shared
        ? 'browser: farm direct (run_js true, shared browser server)'
        : 'browser: farm direct (run_js true)') + tag + (more ? ` ${more}` : '') + (dist ? ' [dist]' : '');
    const run = async (i: number) => {
      await farm.run(task({ url: urls[i]!, run_js: true }));
    };
    const stats = await measure(label, pages, concurrency, run, process.pid, simPid);
    await farm.close();
    return stats;
  }
  if (name === 'http') {
    const { startGatewayService } = await import('../gateway.js');
    const gw = await startGatewayService(2, process.argv.includes('--dist') ? ['--dist'] : []);
    const pool = new Pool(gw.info.url, { connections: concurrency });
    const headers = { authorization: `Bearer ${gw.info.key}`, 'content-type': 'application/json' };
    const scrape = async (url: string) => {
      const res = await pool.request({ path: '/v1/scrape', method: 'POST', headers, body: JSON.stringify({ url, run_js: true }) });
      const text = await res.body.text();
      if (res.statusCode !== 200) throw new Error(`sync scrape answered ${res.statusCode}: ${text.slice(0, 200)}`);
    };
    try {
      await Promise.all(warm.map(scrape));
      return await measure('browser: Gleaner HTTP sync /v1/scrape (run_js)', pages, concurrency, (i) => scrape(urls[i]!), gw.pid, simPid);
    } finally {
      await pool.close();
      await gw.stop();
    }
  }
  throw new Error(`unknown row ${name}`);
}

if (isMain(import.meta)) {
  const row = argString('row');
  if (row) {
    try {
      await tell({ type: 'result', value: await rowMain(row, argString('origin'), arg('pages', 80), arg('concurrency', 4), arg('sim-pid', 0) || undefined) });
    } catch (err) {
      await tell({ type: 'error', message: (err as Error).message });
      if (!process.send) throw err;
    }
    process.exit(0);
  }
  const crawlee = argString('crawlee', '4,8').split(',').filter(Boolean).map(Number);
  const farmContexts = argString('farm-contexts', '4').split(',').filter(Boolean).map(Number);
  const rows = argString('rows').split(',').filter(Boolean);
  const browsers = argString('browsers').split(',').filter(Boolean);
  const farmConfigs = argString('farm-configs') ? (JSON.parse(argString('farm-configs')) as Record<string, unknown>[]) : undefined;
  const result = await runBrowser({ pages: arg('pages', 80), concurrency: arg('concurrency', 4), crawlee, farmContexts, rows, dist: process.argv.includes('--dist'), browsers, ...(farmConfigs ? { farmConfigs } : {}) });
  printTable(result.rows);
  for (const n of result.notes) console.log(`- ${n}`);
}
