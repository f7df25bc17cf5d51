/**
 * The console's activity recorder on a controlled clock: slots roll over and expire after an
 * hour, latency percentiles come from the log-scale histogram, recent jobs follow their events.
 */
import { describe, expect, test } from 'vitest';
import { Activity, percentiles, SLOT_MS, SLOTS } from '../../gateway/console/activity.js';

const T0 = 1_800_000_000_000;

function recorder(): { activity: Activity; clock: { now: number } } {
  const clock = { now: T0 };
  return { activity: new Activity(() => clock.now), clock };
}

describe('activity', () => {
  test('job events are counted per slot and expire after an hour', () => {
    const { activity, clock } = recorder();
    activity.jobEvent({ type: 'accepted', jobId: '1', clientId: 1, routeId: 'universal', at: T0 });
    activity.jobEvent({ type: 'started', jobId: '1', clientId: 1, routeId: 'universal', at: T0 + 10 });
    activity.jobEvent({ type: 'done', jobId: '1', clientId: 1, routeId: 'universal', at: T0 + 410 });
    const sum = (key: 'accepted' | 'done') => activity.window().reduce((n, s) => n + s[key], 0);
    expect([sum('accepted'), sum('done'), activity.window().length]).toEqual([1, 1, SLOTS]);
    expect(percentiles(activity.window().map((s) => s.jobLatency))).toEqual({ count: 1, p50: 414, p95: 414 });
    clock.now = T0 + SLOTS * SLOT_MS;
    expect([sum('accepted'), sum('done')]).toEqual([0, 0]);
  });

  test('sync latency and error titles from the pipeline tap; pages by family', () => {
    const { activity } = recorder();
    for (let i = 1; i <= 100; i++) activity.request('scrape', 200, i * 10, undefined);
    activity.request('healthz', 200, 5000, undefined);
    activity.request('scrape', 400, 1, 'VALIDATION_ERROR');
    activity.request('status', 401, 1, undefined);
    // Not errors of a caller's: a readiness probe while starting, an MCP client probing GET /mcp.
    activity.request('readyz', 503, 1, undefined, '/readyz');
    activity.request('unmatched', 405, 1, 'METHOD_NOT_ALLOWED', '/mcp');
    // A protocol's own refusal without a problem document is counted by status, apart.
    activity.request('mcp', 400, 1, undefined, '/mcp');
    activity.pages('search_engine', 3);
    const slots = activity.window();
    const p = percentiles(slots.map((s) => s.syncLatency));
    // Bucket upper bounds: within 25% above the true 500 ms and 950 ms.
    expect([p.count, p.p50! >= 500 && p.p50! <= 625, p.p95! >= 950 && p.p95! <= 1188]).toEqual([101, true, true]);
    const errors = Object.fromEntries(slots.flatMap((s) => [...s.errors]));
    const other = Object.fromEntries(slots.flatMap((s) => [...s.other]));
    const unauthorized = slots.reduce((n, s) => n + s.unauthorized, 0);
    expect([errors, unauthorized, other, slots.at(-1)!.pages.search_engine]).toEqual([{ VALIDATION_ERROR: 1 }, 1, { 400: 1 }, 3]);
  });

  test('recent jobs: newest first, latest state, capped; failures stay findable after a burst; filters', () => {
    const { activity } = recorder();
    activity.jobEvent({ type: 'accepted', jobId: 'f1', clientId: 3, routeId: 'mkt1/product', at: T0 });
    activity.jobEvent({ type: 'failed', jobId: 'f1', clientId: 3, routeId: 'mkt1/product', at: T0 + 1, error: { code: 'REQUEST_FAILED_AFTER_MANY_RETRIES', message: 'x' } });
    // A burst of 500 successful jobs after the failure.
    for (let i = 0; i < 500; i++) activity.jobEvent({ type: 'accepted', jobId: String(i), clientId: 2, routeId: 'se1/search', at: T0 + 10 + i });
    activity.jobEvent({ type: 'delivered', jobId: '499', clientId: 2, routeId: 'se1/search', at: T0 + 600 });
    const recent = activity.jobs.list();
    expect([recent.length, recent[0]!.job_id, recent[0]!.state]).toEqual([100, '499', 'delivered']);
    expect(activity.jobs.list({ state: 'failed' }).map((j) => [j.job_id, j.error])).toEqual([['f1', 'REQUEST_FAILED_AFTER_MANY_RETRIES']]);
    expect(activity.jobs.list({ route: 'mkt1/*' }).map((j) => j.job_id)).toEqual(['f1']);
    expect(activity.jobs.list({ account: 2, limit: 3 }).map((j) => j.job_id)).toEqual(['499', '498', '497']);
  });
});
