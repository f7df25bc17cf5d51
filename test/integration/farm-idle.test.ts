/**
 * Threads and browsers on demand: a farm serving only rendered pages starts no fetch thread
 * (the first plain task starts them all), one serving only static pages starts no Chromium
 * (fetch threads never render; render threads start with the first run_js task), and a browser
 * without rendering work closes after GLEANER_BROWSER_IDLE_MS, its thread later, once that close
 * is surely over (farm/pool-threads.ts: a thread that ends first leaves its browser a zombie,
 * which this test would see as a browser still alive); the next rendering task starts both again. A browser that is
 * rendering is never closed as idle. Real farm, real Chromium, both browser modes; the cold
 * starts get deadlines that fit a loaded CI machine (COLD_RENDER_MS).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../../core/config.js';
import { IDLE_CLOSE_MS } from '../../farm/browser/local.js';
import { createFarm } from '../../farm/index.js';
import { COLD_RENDER_MS, task, waitFor } from '../helpers/farm.js';
import { startSimulator, type Simulator } from '../sites/server.js';

let sim: Simulator;

beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(async () => {
  await sim?.close();
});

/** Browser processes among this process's descendants (every thread's children). */
function browsers(): number[] {
  const found: number[] = [];
  const stack = [process.pid];
  const seen = new Set<number>();
  while (stack.length > 0) {
    const pid = stack.pop()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    let tids: string[] = [];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      try {
        for (const kid of readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean)) {
          stack.push(Number(kid));
          if (/chrom/i.test(readFileSync(`/proc/${kid}/cmdline`, 'utf8').split('\0')[0] ?? '')) found.push(Number(kid));
        }
      } catch {
        // gone
      }
    }
  }
  return found;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test('a farm serving only rendered pages starts no fetch thread; the first plain task starts them all', async () => {
  const farm = await createFarm({ config: loadConfig({}, { allowPrivate: true, workers: 2 }) });
  try {
    expect([farm.ready(), farm.stats().workers]).toEqual([true, 0]);
    const rendered = await Promise.all([0, 1].map((i) => farm.run(task({ url: `${sim.origin}/js-only?fetchless=${i}`, run_js: true }, { timeoutMs: COLD_RENDER_MS }))));
    expect(rendered.map((o) => [o.status, o.results[0].metadata.run_js])).toEqual([[200, true], [200, true]]);
    expect(farm.stats()).toMatchObject({ workers: 0, renderThreads: 1, queued: 0 });
    const plain = await farm.run(task({ url: `${sim.origin}/static?fetchless=plain`, output: ['markdown'] }));
    expect(plain.status).toBe(200);
    expect(farm.stats()).toMatchObject({ workers: 2, renderThreads: 1 });
    expect(farm.ready()).toBe(true);
  } finally {
    await farm.close();
  }
  expect(farm.ready()).toBe(false);
}, 120_000);

test('a farm serving only static pages starts no Chromium and no render thread', async () => {
  const farm = await createFarm({ config: loadConfig({}, { allowPrivate: true, workers: 2 }) });
  try {
    await Promise.all(Array.from({ length: 40 }, (_, i) => farm.run(task({ url: `${sim.origin}/static?only=${i}`, output: ['markdown'] }))));
    expect(farm.stats()).toMatchObject({ workers: 2, renderThreads: 0, browserLaunches: 0, browserPid: undefined, contexts: 0 });
    expect(browsers()).toEqual([]);
  } finally {
    await farm.close();
  }
});

describe.each(['per-worker', 'shared'] as const)('browser mode %s', (browserMode) => {
  test('an idle browser is closed, then its thread; the next rendering task starts both again', async () => {
    const farm = await createFarm({ config: loadConfig({}, { allowPrivate: true, workers: 1, browserIdleMs: 1500 }), limits: { browserMode } });
    try {
      // Busy is not idle: a page rendering for longer than the idle period keeps its browser.
      const first = await farm.run(task({ url: `${sim.origin}/slow?ms=2500&k=idle-${browserMode}`, run_js: true }, { timeoutMs: COLD_RENDER_MS + 2500 }));
      expect(first.status).toBe(200);
      const pid = farm.stats().browserPid as number;
      expect([farm.stats().browserLaunches, alive(pid)]).toEqual([1, true]);
      // The idle period, then a graceful close of at most IDLE_CLOSE_MS before a kill; then the
      // thread's own idle time (pool-threads.ts: the idle period plus IDLE_CLOSE_MS + 5 s).
      await waitFor(() => !alive(pid), 1500 + IDLE_CLOSE_MS + 5000);
      expect(farm.stats().browserPid).toBeUndefined();
      if (browserMode === 'per-worker') await waitFor(() => farm.stats().renderThreads === 0, 1500 + IDLE_CLOSE_MS + 5000 + 5000);
      expect(browsers()).toEqual([]);
      const again = await farm.run(task({ url: `${sim.origin}/js-only`, run_js: true }, { timeoutMs: COLD_RENDER_MS }));
      expect([again.results[0]!.html!.includes('Rendered by script'), farm.stats().browserLaunches, farm.stats().renderThreads]).toEqual([true, 2, 1]);
    } finally {
      await farm.close();
    }
  }, 150_000);
});

test('the idle period is a setting; 0 keeps the browser', () => {
  expect([loadConfig({}).browserIdleMs, loadConfig({ GLEANER_BROWSER_IDLE_MS: '0' }).browserIdleMs, loadConfig({}).browserThreads]).toEqual([15_000, 0, 1]);
});
