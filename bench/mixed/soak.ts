/**
 * The mixed-load soak (issue 26 item 5): the service (bench/gateway.ts --serve, 2 workers,
 * default settings otherwise) under a steady open-loop mix of plain, rendered, dedicated-route
 * and async-with-webhook requests (load.ts) for `--minutes`, sampled every `--sample-s`:
 * memory (PSS, RSS) and open file descriptors of its whole process tree, Chromium renderers,
 * the farm's contexts and pages, each kind's p50/p95. After the load: requests in flight and
 * webhooks drained, then the farm watched until its browser is idle-closed — no context, page
 * or renderer may be left.
 *
 * Verdicts: memory and fds flat after warm-up (least-squares slope over the samples after
 * `--warm-minutes`, and the median of the last five minutes against the first five after
 * warm-up), p95 steady (per five-minute block), nothing left open after the drain.
 *
 *   node --import tsx bench/mixed/soak.ts [--minutes 30] [--warm-minutes 5] [--rates plain=8,rendered=0.5,dedicated=2,async=1] [--sample-s 10] [--dist] [--json out.json]
 *
 * Results go to `--json` (default bench/results/soak-<time>.json, gitignored) and a summary to stdout.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { DEFAULTS } from '../../core/config.js';
import { BENCH_DIR, isMain, startService } from '../child.js';
import { siteTargets } from '../families/e2e.js';
import { arg, argString } from '../farm/measure.js';
import { startGatewayService } from '../gateway.js';
import { KINDS, MixedLoad, type Kind, type Rates, type WindowStats } from './load.js';
import { median, sample, slope, type Sample } from './sample.js';

export function parseRates(s: string): Rates {
  const rates: Rates = { plain: 0, rendered: 0, dedicated: 0, async: 0 };
  for (const part of s.split(',').filter(Boolean)) {
    const [k, v] = part.split('=');
    if (!(KINDS as readonly string[]).includes(k!)) throw new Error(`unknown kind ${k} (${KINDS.join(', ')})`);
    rates[k as Kind] = Number(v);
  }
  return rates;
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Window {
  t: number;
  stats: WindowStats[];
}

export interface SoakOptions {
  minutes: number;
  warmMinutes: number;
  rates: Rates;
  sampleS: number;
  /** Extra service settings (Config overrides). */
  config?: Record<string, unknown>;
  /** The compiled service (dist/). */
  dist?: boolean;
}

export interface SoakResult {
  options: SoakOptions;
  samples: Sample[];
  windows: Window[];
  drained: Sample;
  idle: Sample;
  idleWaitS: number;
  totals: Record<Kind, { done: number; failed: number; shed: number }>;
  load: { start: number[]; end: number[] };
}

export async function soak(opts: SoakOptions): Promise<SoakResult> {
  const load0 = loadavg();
  const sim = await startService<{ origin: string }>('bench/sim.ts');
  const site = await startService<{ origin: string }>('bench/families/site.ts');
  const idleMs = Number(opts.config?.browserIdleMs ?? DEFAULTS.browserIdleMs);
  const gw = await startGatewayService(2, ['--config', JSON.stringify({ targets: siteTargets(site.info.origin), ...opts.config }), ...(opts.dist ? ['--dist'] : [])]);
  const load = new MixedLoad({ gateway: gw.info.url, key: gw.info.key, sim: sim.info.origin, site: site.info.origin });
  const samples: Sample[] = [];
  const windows: Window[] = [];
  try {
    await load.listen();
    const t0 = performance.now();
    const now = () => (performance.now() - t0) / 1000;
    load.start(opts.rates);
    const end = t0 + opts.minutes * 60_000;
    while (performance.now() < end) {
      await wait(Math.min(opts.sampleS * 1000, end - performance.now()));
      const s = await sample(gw.pid, gw.info.url, gw.info.key, now());
      samples.push(s);
      windows.push({ t: s.t, stats: load.takeWindow() });
      const line = windows.at(-1)!.stats.map((w) => `${w.kind} ${w.done}/${w.failed}/${w.shed} p95 ${w.p95Ms}`).join(' | ');
      console.log(`t=${s.t}s PSS ${s.pssMb} MB fds ${s.fds} renderers ${s.renderers} contexts ${s.contexts} pages ${s.pages} load ${s.load1} | ${line}`);
    }
    load.stop();
    // Drain: every request answered and every webhook in (bounded).
    const drainBy = performance.now() + 180_000;
    while (load.inFlight() > 0 && performance.now() < drainBy) await wait(500);
    const drained = await sample(gw.pid, gw.info.url, gw.info.key, now());
    windows.push({ t: drained.t, stats: load.takeWindow() });
    // Idle: the browser closes `idleMs` after its last task; watch until nothing is left (bounded).
    const idleFrom = performance.now();
    let idle = drained;
    while (performance.now() - idleFrom < idleMs + 60_000) {
      await wait(2000);
      idle = await sample(gw.pid, gw.info.url, gw.info.key, now());
      if (idle.renderers === 0 && idle.contexts === 0 && idle.pages === 0 && performance.now() - idleFrom > idleMs) break;
    }
    const totals = Object.fromEntries(KINDS.map((k) => [k, load.totalsOf(k)])) as SoakResult['totals'];
    return { options: opts, samples, windows, drained, idle, idleWaitS: Math.round((performance.now() - idleFrom) / 1000), totals, load: { start: load0, end: loadavg() } };
  } finally {
    await load.close();
    await Promise.allSettled([gw.stop(), site.stop(), sim.stop()]);
  }
}

const r1 = (n: number) => Math.round(n * 10) / 10;

/** The verdict lines of a soak. */
export function summarise(r: SoakResult): string[] {
  const warm = r.options.warmMinutes * 60;
  const after = r.samples.filter((s) => s.t >= warm);
  const first = after.filter((s) => s.t < warm + 300);
  const last = after.filter((s) => s.t >= r.samples.at(-1)!.t - 300);
  const per10min = (f: (s: Sample) => number) => r1(slope(after.map((s) => s.t), after.map(f)) * 600);
  const lines = [
    `load: ${Object.entries(r.options.rates).map(([k, v]) => `${k} ${v}/s`).join(', ')} for ${r.options.minutes} min (warm-up ${r.options.warmMinutes} min); 1-minute load average ${r1(r.load.start[0]!)} at the start, ${r1(r.load.end[0]!)} at the end, ${r1(median(r.samples.map((s) => s.load1)))} median`,
    `answers: ${KINDS.map((k) => `${k} ${r.totals[k].done} done, ${r.totals[k].failed} failed, ${r.totals[k].shed} shed`).join('; ')}`,
    `PSS after warm-up: first 5 min median ${median(first.map((s) => s.pssMb))} MB, last 5 min ${median(last.map((s) => s.pssMb))} MB, slope ${per10min((s) => s.pssMb)} MB per 10 min (min ${Math.min(...after.map((s) => s.pssMb))}, max ${Math.max(...after.map((s) => s.pssMb))})`,
    `RSS after warm-up: first 5 min median ${median(first.map((s) => s.rssMb))} MB, last 5 min ${median(last.map((s) => s.rssMb))} MB, slope ${per10min((s) => s.rssMb)} MB per 10 min`,
    `open fds after warm-up: first 5 min median ${median(first.map((s) => s.fds))}, last 5 min ${median(last.map((s) => s.fds))}, slope ${per10min((s) => s.fds)} per 10 min (min ${Math.min(...after.map((s) => s.fds))}, max ${Math.max(...after.map((s) => s.fds))})`,
    `after the drain: contexts ${r.drained.contexts}, pages ${r.drained.pages}, renderers ${r.drained.renderers}, fds ${r.drained.fds}; ${r.idleWaitS} s later (browser idle close): contexts ${r.idle.contexts}, pages ${r.idle.pages}, renderers ${r.idle.renderers}, processes ${r.idle.processes}, fds ${r.idle.fds}, PSS ${r.idle.pssMb} MB`,
  ];
  // p95 per five-minute block and kind.
  const blocks: string[] = [];
  for (let from = 0; from < r.options.minutes * 60; from += 300) {
    const ws = r.windows.filter((w) => w.t > from && w.t <= from + 300);
    const cells = KINDS.filter((k) => r.options.rates[k] > 0).map((k) => {
      const p95s = ws.map((w) => w.stats.find((s) => s.kind === k)!).filter((s) => s.done > 0).map((s) => s.p95Ms);
      return `${k} ${median(p95s)}`;
    });
    blocks.push(`${from / 60}-${from / 60 + 5} min: ${cells.join(', ')}`);
  }
  lines.push(`p95 ms (median of the ${r.options.sampleS} s windows' p95) by five-minute block: ${blocks.join(' | ')}`);
  return lines;
}

if (isMain(import.meta)) {
  const opts: SoakOptions = {
    minutes: arg('minutes', 30),
    warmMinutes: arg('warm-minutes', 5),
    rates: parseRates(argString('rates', 'plain=8,rendered=0.5,dedicated=2,async=1')),
    sampleS: arg('sample-s', 10),
    dist: process.argv.includes('--dist'),
    ...(argString('config') ? { config: JSON.parse(argString('config')) as Record<string, unknown> } : {}),
  };
  const r = await soak(opts);
  const lines = summarise(r);
  for (const l of lines) console.log(`- ${l}`);
  const out = argString('json') || join(BENCH_DIR, 'results', `soak-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  mkdirSync(join(out, '..'), { recursive: true });
  writeFileSync(out, JSON.stringify({ ...r, summary: lines }, null, 1));
  console.log(`samples written to ${out}`);
  process.exit(0);
}
