/**
 * Deadlines, cancellation, a browser killed mid-job, and the farm's drain/destroy lifecycle.
 * A farm's first rendered page waits for a cold render thread and its browser: those tasks get
 * deadlines, and the waits on them conditions, that fit a loaded CI machine (COLD_RENDER_MS).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig, type Config } from '../../core/config.js';
import { DEFAULT_LIMITS, createFarm, type Farm } from '../../farm/index.js';
import { COLD_RENDER_MS, codeOf, failure, task, waitFor, whileRunning } from '../helpers/farm.js';
import { startSimulator, type Simulator } from '../sites/server.js';

let sim: Simulator;
let config: Config;

beforeAll(async () => {
  sim = await startSimulator();
  config = loadConfig({}, { allowPrivate: true, workers: 1, contextsPerWorker: 2 });
});

afterAll(async () => {
  await sim?.close();
});

describe('a shared farm', () => {
  let farm: Farm;
  beforeAll(async () => {
    farm = await createFarm({ config });
    // Warm the worker: a cold thread (loading its modules) would eat into the short deadlines below.
    await farm.run(task({ url: `${sim.origin}/static` }));
  });
  afterAll(async () => {
    await farm?.close();
  });

  test('deadline on the plain path: REQUEST_FAILED_SCRAPE_TIMEOUT', async () => {
    expect(await failure(farm.run(task({ url: `${sim.origin}/slow?ms=5000&k=plain` }, { timeoutMs: 800 })))).toEqual({
      code: 'REQUEST_FAILED_SCRAPE_TIMEOUT',
      message: 'The scrape did not finish within the synchronous deadline; retry with backoff or use the async route.',
    });
    expect(farm.stats()).toMatchObject({ inFlight: 0, pages: 0 });
  });

  test('deadline in the browser: the page is closed and its context freed', async () => {
    await farm.run(task({ url: `${sim.origin}/static`, run_js: true }, { timeoutMs: COLD_RENDER_MS }));
    expect(farm.stats()).toMatchObject({ contexts: 1, pages: 0 });
    const run = farm.run(task({ url: `${sim.origin}/slow?ms=10000&k=browser`, run_js: true }, { timeoutMs: 1500 }));
    await whileRunning(run, () => farm.stats().pages === 1);
    expect(await codeOf(run)).toBe('REQUEST_FAILED_SCRAPE_TIMEOUT');
    // The timed-out page took its (reused) context with it.
    expect(farm.stats()).toMatchObject({ inFlight: 0, pages: 0, contexts: 0 });
  });

  test('the caller abandoning a task cancels it in the worker', async () => {
    const ac = new AbortController();
    const run = farm.run(task({ url: `${sim.origin}/slow?ms=10000&k=abort`, run_js: true }), ac.signal);
    await whileRunning(run, () => farm.stats().pages === 1);
    ac.abort();
    expect(await codeOf(run)).toBe('SERVICE_UNAVAILABLE');
    await waitFor(() => farm.stats().pages === 0 && farm.stats().inFlight === 0);
    expect(farm.stats()).toMatchObject({ inFlight: 0, pages: 0, contexts: 0 });
  });

  test('a browser killed mid-job: the job is retried on a new browser and succeeds', () => killMidJob(farm, 'kill'));
});

test('the default browser mode is per-worker', () => {
  expect(DEFAULT_LIMITS.browserMode).toBe('per-worker');
});

describe.each(['per-worker', 'shared'] as const)('browser mode %s', (browserMode) => {
  test('a browser killed mid-job: retried on a new browser; destroy() then kills the browser', async () => {
    const farm = await createFarm({ config, limits: { browserMode } });
    try {
      await killMidJob(farm, `kill-${browserMode}`);
      const pid = farm.stats().browserPid as number;
      const path = `/slow?ms=20000&k=destroy-${browserMode}`;
      const run = failure(farm.run(task({ url: `${sim.origin}${path}`, run_js: true })));
      await whileRunning(run, () => sim.hits.get(path) === 1);
      await farm.destroy();
      expect(await run).toEqual({ code: 'SERVICE_UNAVAILABLE', message: 'The farm was stopped while the task ran.' });
      await waitFor(() => !alive(pid));
    } finally {
      await farm.destroy();
    }
  }, 120_000);
});

/** Kills the browser while a page waits on the simulator; the job must succeed on a new one. */
async function killMidJob(farm: Farm, key: string): Promise<void> {
  await farm.run(task({ url: `${sim.origin}/static`, run_js: true }, { timeoutMs: COLD_RENDER_MS }));
  const before = farm.stats();
  const path = `/slow?ms=1500&k=${key}`;
  // The retry launches a new browser (not a new thread): the default 30 s deadline fits it.
  const run = farm.run(task({ url: `${sim.origin}${path}`, run_js: true }));
  await whileRunning(run, () => sim.hits.get(path) === 1);
  process.kill(before.browserPid as number, 'SIGKILL');
  const out = await run;
  expect([out.status, out.results[0].metadata.url, sim.hits.get(path)]).toEqual([200, `${sim.origin}${path}`, 2]);
  const after = farm.stats();
  expect([after.browserLaunches, after.browserPid !== before.browserPid]).toEqual([before.browserLaunches + 1, true]);
  // And the farm carries on.
  const next = await farm.run(task({ url: `${sim.origin}/js-only`, run_js: true }));
  expect(next.results[0].html).toContain('Rendered by script');
}

describe('memory gate', () => {
  test('no new context above the RSS limit: the page waits, then times out; plain fetches go on', async () => {
    const farm = await createFarm({ config, limits: { maxRssBytes: 1 } });
    try {
      expect(await codeOf(farm.run(task({ url: `${sim.origin}/static`, run_js: true }, { timeoutMs: 2500 })))).toBe(
        'REQUEST_FAILED_SCRAPE_TIMEOUT',
      );
      // A cold render thread (started by this first run_js task) may still be starting when the
      // pool answers at the deadline; the task leaves it when it arrives and sees the deadline.
      await waitFor(() => farm.stats().inFlight === 0, COLD_RENDER_MS);
      expect(farm.stats()).toMatchObject({ contexts: 0, pages: 0, inFlight: 0 });
      expect((await farm.run(task({ url: `${sim.origin}/static` }))).status).toBe(200);
    } finally {
      await farm.close();
    }
  }, 120_000);
});

describe('shutdown', () => {
  test('close() stops taking work and drains in-flight tasks', async () => {
    const farm = await createFarm({ config });
    const plain = farm.run(task({ url: `${sim.origin}/slow?ms=800&k=drain-plain` }));
    const rendered = farm.run(task({ url: `${sim.origin}/slow?ms=800&k=drain-browser`, run_js: true }, { timeoutMs: COLD_RENDER_MS }));
    await whileRunning(rendered, () => sim.hits.get('/slow?ms=800&k=drain-browser') === 1);
    const closing = farm.close();
    expect(await codeOf(farm.run(task({ url: `${sim.origin}/static` })))).toBe('SERVICE_UNAVAILABLE');
    const [a, b] = await Promise.all([plain, rendered]);
    expect([a.status, b.status, b.results[0].metadata.run_js]).toEqual([200, 200, true]);
    await closing;
    expect(farm.ready()).toBe(false);
  }, 120_000);

  test('destroy() aborts in-flight tasks now and kills the browser', async () => {
    const farm = await createFarm({ config });
    const run = farm.run(task({ url: `${sim.origin}/slow?ms=20000&k=destroy`, run_js: true }, { timeoutMs: COLD_RENDER_MS + 20_000 }));
    await whileRunning(run, () => sim.hits.get('/slow?ms=20000&k=destroy') === 1);
    const pid = farm.stats().browserPid as number;
    const outcome = failure(run);
    await farm.destroy();
    expect(await outcome).toEqual({ code: 'SERVICE_UNAVAILABLE', message: 'The farm was stopped while the task ran.' });
    await waitFor(() => !alive(pid));
  }, 120_000);
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
