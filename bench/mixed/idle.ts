/**
 * How long an idle browser should live (GLEANER_BROWSER_IDLE_MS, issue 26 item 3): the service
 * under the same mixed load once per candidate idle time, in alternating order over rounds.
 * The load: plain and dedicated requests at a steady rate, and rendered requests in bursts of
 * `--burst` separated by quiet gaps that cycle through `--gaps` seconds (short gaps the browser
 * should survive, long ones where it holds memory for nothing). Per setting:
 *
 * - CPU of the service's whole tree per page served (a close the next burst pays for shows up
 *   as a relaunch: the throughput a node loses), browser launches, rendered p50/p95;
 * - memory: PSS of the tree averaged over time (sampled every 2 s) and its peak.
 *
 *   node --import tsx bench/mixed/idle.ts [--idle 5000,15000,30000,60000] [--rounds 2] [--gaps 4,10,25,50,90] [--burst 3]
 *     [--rates plain=6,dedicated=1] [--cycles 1] [--dist] [--json out.json]
 */
import { loadavg } from 'node:os';
import { writeFileSync } from 'node:fs';
import { isMain, startService } from '../child.js';
import { siteTargets } from '../families/e2e.js';
import { arg, argString, treeCpuMs } from '../farm/measure.js';
import { startGatewayService } from '../gateway.js';
import { MixedLoad, type Rates } from './load.js';
import { median, sample } from './sample.js';
import { parseRates } from './soak.js';

export interface IdleRow {
  idleMs: number;
  round: number;
  seconds: number;
  pages: number;
  rendered: number;
  failed: number;
  cpuMsPerPage: number;
  launches: number;
  renderedP50Ms: number;
  renderedP95Ms: number;
  meanPssMb: number;
  peakPssMb: number;
  load1: number;
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function oneSetting(idleMs: number, round: number, rates: Rates, gaps: number[], burst: number, cycles: number, dist: boolean): Promise<IdleRow> {
  const sim = await startService<{ origin: string }>('bench/sim.ts');
  const site = await startService<{ origin: string }>('bench/families/site.ts');
  const gw = await startGatewayService(2, ['--config', JSON.stringify({ targets: siteTargets(site.info.origin), browserIdleMs: idleMs }), ...(dist ? ['--dist'] : [])]);
  const load = new MixedLoad({ gateway: gw.info.url, key: gw.info.key, sim: sim.info.origin, site: site.info.origin });
  try {
    // Warm: threads up, the browser launched once, the JIT past its first pages.
    load.fire('rendered', burst);
    load.fire('plain', 20);
    load.fire('dedicated', 5);
    while (load.inFlight() > 0) await wait(200);
    load.takeWindow();
    const browsers = new Set<number>();
    const pss: number[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const s = await sample(gw.pid, gw.info.url, gw.info.key, 0);
        pss.push(s.pssMb);
        for (const b of s.browsers) browsers.add(b);
        await wait(2000);
      }
    })();
    const before = new Set(browsers);
    const cpu0 = treeCpuMs(gw.pid);
    const t0 = performance.now();
    load.start(rates);
    for (let c = 0; c < cycles; c++) {
      for (const gap of gaps) {
        load.fire('rendered', burst);
        await wait(gap * 1000);
      }
    }
    load.stop();
    while (load.inFlight() > 0) await wait(200);
    const seconds = (performance.now() - t0) / 1000;
    const cpu = treeCpuMs(gw.pid) - cpu0;
    sampling = false;
    await sampler;
    const w = load.takeWindow();
    const pages = w.reduce((a, x) => a + x.done, 0);
    const rendered = w.find((x) => x.kind === 'rendered')!;
    return {
      idleMs,
      round,
      seconds: Math.round(seconds),
      pages,
      rendered: rendered.done,
      failed: w.reduce((a, x) => a + x.failed + x.shed, 0),
      cpuMsPerPage: Math.round((cpu / Math.max(1, pages)) * 100) / 100,
      // The warm-up's browser is not a launch of the measured window.
      launches: [...browsers].filter((b) => !before.has(b)).length,
      renderedP50Ms: rendered.p50Ms,
      renderedP95Ms: rendered.p95Ms,
      meanPssMb: Math.round(pss.reduce((a, b) => a + b, 0) / Math.max(1, pss.length)),
      peakPssMb: Math.round(Math.max(...pss)),
      load1: Math.round(loadavg()[0]! * 10) / 10,
    };
  } finally {
    await load.close();
    await Promise.allSettled([gw.stop(), site.stop(), sim.stop()]);
  }
}

if (isMain(import.meta)) {
  const idles = argString('idle', '5000,15000,30000,60000').split(',').map(Number);
  const gaps = argString('gaps', '4,10,25,50,90').split(',').map(Number);
  const rates = parseRates(argString('rates', 'plain=6,dedicated=1'));
  const rounds = arg('rounds', 2);
  const rows: IdleRow[] = [];
  for (let r = 0; r < rounds; r++) {
    // Rotate the order each round so no setting always runs first (or last) on a drifting machine.
    const order = idles.map((_, i) => idles[(i + r) % idles.length]!);
    for (const idle of order) {
      const row = await oneSetting(idle, r, rates, gaps, arg('burst', 3), arg('cycles', 1), process.argv.includes('--dist'));
      rows.push(row);
      console.log(JSON.stringify(row));
    }
  }
  const summary = idles.map((idle) => {
    const rs = rows.filter((x) => x.idleMs === idle);
    const m = (f: (x: IdleRow) => number) => median(rs.map(f));
    return { idleMs: idle, 'CPU ms/page': m((x) => x.cpuMsPerPage), launches: m((x) => x.launches), 'rendered p50 ms': m((x) => x.renderedP50Ms), 'rendered p95 ms': m((x) => x.renderedP95Ms), 'mean PSS MB': m((x) => x.meanPssMb), 'peak PSS MB': m((x) => x.peakPssMb), 'load (1 min)': rs.map((x) => x.load1).join(' / ') };
  });
  console.table(summary);
  const json = argString('json');
  if (json) writeFileSync(json, JSON.stringify({ rows, summary }, null, 1));
  process.exit(0);
}
