/**
 * End to end per family (issue 26 item 1): each dedicated route driven through the HTTP API
 * (sync `POST /v1/scrape/<route>`, `output: ["json"]`) at a fixed concurrency against the
 * local fixture site (site.ts: the captured pages of the family at their real size), beside a
 * raw loop of the same pages in the same run (raw.ts: undici + bare `parseDocument` + JSON
 * encode). Three processes besides this driver: the site, the service (bench/gateway.ts
 * --serve: LMDB in a temp dir, 2 fetch workers, logging at `info` to /dev/null) and the raw
 * loop; the Gleaner rows meter the service's process tree, the raw rows the raw process, each
 * over the same window as its own requests, and the site's CPU per page is reported beside.
 *
 * Each round runs every family once, the raw row and the Gleaner row back to back (their order
 * alternates between rounds, so a load change falls on both alike); the summary takes the
 * median of the rounds' ratios.
 *
 *   node --import tsx bench/families/e2e.ts [--families se1,mkt1-search] [--pages 64] [--concurrency 8] [--rounds 3] [--dist] [--json out.json]
 *
 * `--dist`: the service compiled (`npm run build` first), as `npm start` runs it.
 */
import { loadavg } from 'node:os';
import { writeFileSync } from 'node:fs';
import { Pool } from 'undici';
import { isMain, startService } from '../child.js';
import { startGatewayService } from '../gateway.js';
import { arg, argString, measure, round, type RunStats } from '../farm/measure.js';
import { pickFamilies, RETAIL_TOKEN, type Family } from './pages.js';
import { pageQuery, sitePages } from './site.js';
import type { RawAsk } from './raw.js';

export interface FamilyRound {
  family: string;
  route: string;
  round: number;
  raw: RunStats;
  gleaner: RunStats;
  /** parse_status of the Gleaner answers, counted. */
  statuses: Record<string, number>;
  load: number;
}

/** GLEANER_TARGETS for the fixture site: every family's token at its own path. */
export function siteTargets(origin: string): Record<string, { baseUrl: string }> {
  return {
    mkt1: { baseUrl: `${origin}/mkt1/{domain}` },
    se1: { baseUrl: `${origin}/se1` },
    se2: { baseUrl: `${origin}/se2` },
    video: { baseUrl: `${origin}/video` },
    [RETAIL_TOKEN]: { baseUrl: `${origin}/${RETAIL_TOKEN}` },
  };
}

/** The site's page indices of a family. */
export function familyIndices(family: Family): number[] {
  return sitePages().flatMap((p, i) => (p.family === family.name ? [i] : []));
}

export interface ScrapeClient {
  scrape(family: Family, index: number, statuses?: Record<string, number>): Promise<void>;
  close(): Promise<void>;
}

/** Sync dedicated-route requests over a keep-alive pool; a non-200 answer throws. */
export function scrapeClient(url: string, key: string, connections: number): ScrapeClient {
  const pool = new Pool(url, { connections, keepAliveTimeout: 30_000 });
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  return {
    async scrape(family, index, statuses) {
      const body = JSON.stringify({ query: pageQuery(index), output: ['json'], ...family.params });
      const res = await pool.request({ path: `/v1/scrape/${family.route}`, method: 'POST', headers, body, headersTimeout: 120_000, bodyTimeout: 120_000 });
      const text = await res.body.text();
      if (res.statusCode !== 200) throw new Error(`${family.route} answered ${res.statusCode}: ${text.slice(0, 300)}`);
      if (statuses) {
        const status = /"parse_status":"(\w+)"/.exec(text)?.[1] ?? 'none';
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    },
    close: () => pool.close(),
  };
}

export interface E2eOptions {
  families: Family[];
  pages: number;
  concurrency: number;
  rounds: number;
  /** The compiled service (dist/), as `npm start` runs it. */
  dist?: boolean;
}

export async function runFamilies(opts: E2eOptions): Promise<FamilyRound[]> {
  const site = await startService<{ origin: string }>('bench/families/site.ts');
  const raw = await startService<{ pid: number }>('bench/families/raw.ts');
  const gw = await startGatewayService(2, ['--config', JSON.stringify({ targets: siteTargets(site.info.origin) }), ...(opts.dist ? ['--dist'] : [])]);
  const client = scrapeClient(gw.info.url, gw.info.key, opts.concurrency);
  const out: FamilyRound[] = [];
  try {
    for (let round = 0; round < opts.rounds; round++) {
      for (const family of opts.families) {
        const indices = familyIndices(family);
        if (indices.length === 0) {
          console.log(`${family.name}: no captured pages (set GLEANER_FIXTURES)`);
          continue;
        }
        const statuses: Record<string, number> = {};
        // Warm: every page of the family once (the first round only needs it, later ones are cheap).
        await Promise.all(indices.map((i) => client.scrape(family, i)));
        const gleanerRow = () =>
          measure(`${family.name}: Gleaner HTTP ${family.route}`, opts.pages, opts.concurrency, (i) => client.scrape(family, indices[i % indices.length]!, statuses), gw.pid, site.pid);
        const ask: RawAsk = {
          name: `${family.name}: raw undici + parseDocument + JSON`,
          urls: indices.map((i) => `${site.info.origin}/raw/${pageQuery(i)}`),
          total: opts.pages,
          concurrency: opts.concurrency,
          warm: indices.length * 2,
          simPid: site.pid,
        };
        const rawRow = () => raw.ask<RunStats>(ask);
        const load = loadavg()[0]!;
        let r: RunStats;
        let g: RunStats;
        if (round % 2 === 0) (r = await rawRow(), g = await gleanerRow());
        else (g = await gleanerRow(), r = await rawRow());
        const row: FamilyRound = { family: family.name, route: family.route, round, raw: r, gleaner: g, statuses, load: round2(load) };
        out.push(row);
        console.log(
          `round ${round} ${family.name}: Gleaner ${g.pagesPerSec} p/s ${g.cpuMsPerPage} CPU-ms/page p50/p95 ${g.p50Ms}/${g.p95Ms} PSS ${g.peakPssMb} MB | raw ${r.pagesPerSec} p/s ${r.cpuMsPerPage} CPU-ms/page PSS ${r.peakPssMb} MB | ${(g.pagesPerSec / r.pagesPerSec).toFixed(2)}× pages/s, ${(g.cpuMsPerPage / r.cpuMsPerPage).toFixed(2)}× CPU | statuses ${JSON.stringify(statuses)} | load ${load.toFixed(1)}`,
        );
      }
    }
  } finally {
    await client.close();
    await Promise.allSettled([gw.stop(), raw.stop(), site.stop()]);
  }
  return out;
}

const round2 = (n: number) => round(n, 1);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** One row per family: medians over the rounds, ratios per round then their median. */
export function summarise(rows: readonly FamilyRound[]): Record<string, unknown>[] {
  const families = [...new Set(rows.map((r) => r.family))];
  return families.map((name) => {
    const rs = rows.filter((r) => r.family === name);
    const m = (f: (r: FamilyRound) => number) => round(median(rs.map(f)), 2);
    return {
      family: name,
      route: rs[0]!.route,
      'Gleaner p/s': m((r) => r.gleaner.pagesPerSec),
      'raw p/s': m((r) => r.raw.pagesPerSec),
      'p/s ratio': m((r) => r.gleaner.pagesPerSec / r.raw.pagesPerSec),
      'Gleaner CPU-ms/page': m((r) => r.gleaner.cpuMsPerPage),
      'raw CPU-ms/page': m((r) => r.raw.cpuMsPerPage),
      'CPU ratio': m((r) => r.gleaner.cpuMsPerPage / r.raw.cpuMsPerPage),
      'Gleaner p50/p95 ms': `${m((r) => r.gleaner.p50Ms)} / ${m((r) => r.gleaner.p95Ms)}`,
      'raw p50/p95 ms': `${m((r) => r.raw.p50Ms)} / ${m((r) => r.raw.p95Ms)}`,
      'Gleaner peak PSS MB': m((r) => r.gleaner.peakPssMb),
      'raw peak PSS MB': m((r) => r.raw.peakPssMb),
      'site CPU-ms/page': m((r) => r.gleaner.simCpuMsPerPage ?? NaN),
      failures: rs.reduce((a, r) => a + r.gleaner.failures + r.raw.failures, 0),
      statuses: JSON.stringify(rs.reduce<Record<string, number>>((a, r) => {
        for (const [k, v] of Object.entries(r.statuses)) a[k] = (a[k] ?? 0) + v;
        return a;
      }, {})),
      'load (1 min)': rs.map((r) => r.load).join(' / '),
    };
  });
}

if (isMain(import.meta)) {
  const families = pickFamilies(argString('families'));
  const load0 = loadavg();
  const rows = await runFamilies({ families, pages: arg('pages', 64), concurrency: arg('concurrency', 8), rounds: arg('rounds', 3), dist: process.argv.includes('--dist') });
  const table = summarise(rows);
  console.table(table);
  console.log(`1-minute load average ${load0[0]!.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end`);
  const json = argString('json');
  if (json) writeFileSync(json, JSON.stringify({ load: [load0, loadavg()], rows, table }, null, 1));
}
