/**
 * CPU work past its deadline stops (issue 24 A): a worker thread stuck in synchronous work
 * (here: the Markdown and the mkt1 parse of a 20 MB, 1,800,000-deep page, one synchronous
 * step of several seconds) cannot hear its deadline or a cancel; the pool terminates the
 * thread `backstopMs` after the task should have stopped, starts another, and retries once the
 * other tasks the thread held. Real farm, real worker threads, a local site.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig, type Config } from '../../core/config.js';
import { createFarm, type Farm } from '../../farm/index.js';
import { failure, task } from '../helpers/farm.js';
import { startHeavySite, type HeavySite } from '../helpers/heavy-site.js';
import { until } from '../helpers/wait.js';

let site: HeavySite;
let config: Config;

/** One synchronous step of seconds in the worker: Markdown, then the mkt1 parser, of a 20 MB deep page. */
const heavy = () => ({ url: `${site.url}/s?k=deep1800000`, output: ['markdown', 'json'] });
const small = () => ({ url: `${site.url}/small`, output: ['markdown'] });

beforeAll(async () => {
  site = await startHeavySite();
  config = loadConfig({}, { allowPrivate: true, workers: 1 });
});

afterAll(async () => {
  await site?.close();
});

describe('a worker thread stuck past its task', () => {
  let farm: Farm;
  beforeAll(async () => {
    // One thread and no spare: every task shares it. A short backstop keeps the test short.
    farm = await createFarm({ config, limits: { backstopMs: 200, spareThreads: 0 } });
    await farm.run(task(small()));
  });
  afterAll(async () => {
    await farm?.destroy();
  });

  test('a cancel it cannot hear: the thread is terminated and replaced, its other task retried', async () => {
    const ac = new AbortController();
    const first = failure(farm.run(task(heavy(), { routeId: 'mkt1' }), ac.signal));
    const other = farm.run(task(heavy(), { routeId: 'mkt1', timeoutMs: 120_000 }), undefined);
    await until(() => farm.stats().stalled === 1, 'the worker to be stuck in a heavy page', 60_000);
    ac.abort();
    expect(await first).toEqual({ code: 'SERVICE_UNAVAILABLE', message: 'The task was cancelled.' });
    await until(() => farm.stats().terminated === 1, 'the stuck thread to be terminated');
    // The other task was on the terminated thread (or queued behind it): it runs again and completes.
    const out = await other;
    expect(out.results[0]?.markdown).toBe('x\n');
    expect(out.results[0]?.metadata.parse_status).toBe('unrecognised');
    expect(farm.stats()).toMatchObject({ terminated: 1, inFlight: 0, workers: 1 });
    const after = await farm.run(task(small()));
    expect(after.results[0]?.markdown).toMatch(/^# small\n/);
  });

  test('a deadline it cannot hear: answered REQUEST_FAILED_SCRAPE_TIMEOUT, the thread terminated', async () => {
    const before = farm.stats().terminated;
    // The page arrives well within 1.5 s (a local 20 MB body); its synchronous step (about 2.5 s
    // on an idle 2-core machine with the depth cap, longer under load) then runs past the deadline.
    const f = await failure(farm.run(task(heavy(), { routeId: 'mkt1', timeoutMs: 1500 })));
    expect(f).toEqual({ code: 'REQUEST_FAILED_SCRAPE_TIMEOUT', message: 'The scrape did not finish within the synchronous deadline; retry with backoff or use the async route.' });
    await until(() => farm.stats().terminated === before + 1, 'the stuck thread to be terminated');
    await until(() => farm.stats().workers === 1 && farm.stats().stalled === 0, 'a fresh thread in its place');
    const after = await farm.run(task(small()));
    expect(after.results[0]?.markdown).toMatch(/^# small\n/);
  });
});
