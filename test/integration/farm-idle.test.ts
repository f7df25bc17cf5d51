/**
 * Browsers on demand: a farm serving only static pages starts no Chromium (fetch threads never
 * render; render threads start with the first run_js task), and a browser without rendering
 * work closes after GLEANER_BROWSER_IDLE_MS, its thread after twice that; the next rendering
 * task starts both again. A browser that is rendering is never closed as idle. Real farm,
 * real Chromium, both browser modes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../../core/config.js';
import { createFarm } from '../../farm/index.js';
import { task, waitFor } from '../helpers/farm.js';
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
      const first = await farm.run(task({ url: `${sim.origin}/slow?ms=2500&k=idle-${browserMode}`, run_js: true }));
      expect(first.status).toBe(200);
      const pid = farm.stats().browserPid as number;
      expect([farm.stats().browserLaunches, alive(pid)]).toEqual([1, true]);
      await waitFor(() => !alive(pid), 10_000);
      expect(farm.stats().browserPid).toBeUndefined();
      if (browserMode === 'per-worker') await waitFor(() => farm.stats().renderThreads === 0, 10_000);
      expect(browsers()).toEqual([]);
      const again = await farm.run(task({ url: `${sim.origin}/js-only`, run_js: true }));
      expect([again.results[0]!.html!.includes('Rendered by script'), farm.stats().browserLaunches, farm.stats().renderThreads]).toEqual([true, 2, 1]);
    } finally {
      await farm.close();
    }
  }, 60_000);
});

test('the idle period is a setting; 0 keeps the browser', () => {
  expect([loadConfig({}).browserIdleMs, loadConfig({ GLEANER_BROWSER_IDLE_MS: '0' }).browserIdleMs, loadConfig({}).browserThreads]).toEqual([60_000, 0, 1]);
});
