/**
 * Issue 16, defect 5: a browser that dies on every attempt. BROWSER_CRASHED is the farm's own
 * retry signal; after its one retry the request fails as REQUEST_FAILED_AFTER_MANY_RETRIES
 * (documented, not charged) with the cause in `detail`, through the farm and through the
 * gateway (sync answer and async job). Real Chromium, killed with SIGKILL while it holds the page.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../../core/config.js';
import { createFarm, type Farm } from '../../farm/index.js';
import { failure, task, waitFor } from '../helpers/farm.js';
import { call, postJson, startGateway, type TestGateway } from '../helpers/gateway.js';
import { startSimulator, type Simulator } from '../sites/server.js';
import { until } from '../helpers/wait.js';

let sim: Simulator;

beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(async () => {
  await sim?.close();
});

const DETAIL = 'Rendering the target failed: the browser crashed on each of 2 attempts (last: The browser crashed while rendering the page).';

/**
 * Kills the farm's browser each time the page at `path` is requested, `times` times: the
 * first attempt's browser, then the one relaunched for the retry.
 */
async function killOnEachHit(farm: () => Farm, path: string, times: number): Promise<void> {
  let lastPid = 0;
  for (let hit = 1; hit <= times; hit++) {
    await waitFor(() => (sim.hits.get(path) ?? 0) >= hit && (farm().stats().browserPid ?? 0) > 0 && farm().stats().browserPid !== lastPid, 20_000);
    lastPid = farm().stats().browserPid as number;
    process.kill(lastPid, 'SIGKILL');
  }
}

describe('a browser that dies on every attempt', () => {
  test('the farm retries once, then fails with REQUEST_FAILED_AFTER_MANY_RETRIES naming the crash; it carries on', async () => {
    const farm = await createFarm({ config: loadConfig({}, { allowPrivate: true, workers: 1, contextsPerWorker: 2 }) });
    try {
      await farm.run(task({ url: `${sim.origin}/static`, run_js: true }));
      const launches = farm.stats().browserLaunches;
      const path = '/slow?ms=5000&k=farm-twice';
      const run = failure(farm.run(task({ url: `${sim.origin}${path}`, run_js: true })));
      await killOnEachHit(() => farm, path, 2);
      expect(await run).toEqual({ code: 'REQUEST_FAILED_AFTER_MANY_RETRIES', message: DETAIL });
      expect(sim.hits.get(path)).toBe(2);
      const next = await farm.run(task({ url: `${sim.origin}/js-only`, run_js: true }));
      expect([next.results[0]!.html!.includes('Rendered by script'), farm.stats().browserLaunches]).toEqual([true, launches + 2]);
    } finally {
      await farm.close();
    }
  }, 60_000);
});

describe('through the gateway', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway({ contextsPerWorker: 2 });
    await postJson(gw, '/v1/scrape', { url: `${sim.origin}/static`, run_js: true });
  });
  afterAll(async () => {
    await gw?.close();
  });

  test('sync: 500 REQUEST_FAILED_AFTER_MANY_RETRIES, the cause in detail, never BROWSER_CRASHED', async () => {
    const path = '/slow?ms=5000&k=sync-twice';
    const answer = postJson(gw, '/v1/scrape', { url: `${sim.origin}${path}`, run_js: true });
    await killOnEachHit(() => gw.server.farm, path, 2);
    const a = await answer;
    expect([a.status, a.headers.get('content-type'), a.body.title, a.body.detail]).toEqual([500, 'application/problem+json', 'REQUEST_FAILED_AFTER_MANY_RETRIES', DETAIL]);
  }, 60_000);

  test('async: the job ends faulted with the documented title and is not charged', async () => {
    const path = '/slow?ms=5000&k=async-twice';
    const submitted = await postJson(gw, '/v1/async/scrape', { url: `${sim.origin}${path}`, run_js: true });
    const id = submitted.body.metadata.request_id as string;
    await killOnEachHit(() => gw.server.farm, path, 2);
    const job = await until(async () => {
      const j = (await call(`${gw.url}/v1/async/scrape/${id}`, { headers: gw.auth })).body;
      return j.status !== 'pending' && j;
    }, `job ${id} to end`, 30_000);
    expect([job.status, job.error]).toEqual(['faulted', { title: 'REQUEST_FAILED_AFTER_MANY_RETRIES', status: 500, detail: DETAIL }]);
    const stats = await call(`${gw.url.replace(/:\d+$/, `:${gw.server.dataPort}`)}/v2/stats`, {
      headers: { authorization: `Basic ${Buffer.from('tester:tester-password').toString('base64')}` },
    });
    // Only the warm-up page (sync, rendered) is counted: neither crashed request is.
    const totals = (stats.body.data.products as Array<{ all_count: number; mode_callback_count: number; mode_realtime_count: number }>).reduce(
      (t, p) => ({ all: t.all + p.all_count, callback: t.callback + p.mode_callback_count, realtime: t.realtime + p.mode_realtime_count }),
      { all: 0, callback: 0, realtime: 0 },
    );
    expect(totals).toEqual({ all: 1, callback: 0, realtime: 1 });
  }, 60_000);
});
