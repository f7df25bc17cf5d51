/** Contract: the usage ledger, quotas and their totals, and the feed. */
import { expect, test } from 'vitest';
import type { JobEvent } from '../../core/events.js';
import { dayKey } from '../../core/store/quotas.js';
import { eventually, usageEntry, type StoreHarness } from './harness.js';

export function usageContract(h: StoreHarness): void {
  test('recorded usage folds into one row per day, product, source and parsed; totals move with it', async () => {
    const store = await h.open();
    const at = Date.now();
    await store.usage.record(usageEntry(5, { at, results: 2, mode: 'realtime', render: true, geo: true }));
    await store.usage.record(usageEntry(5, { at, results: 3 }));
    await store.usage.record(usageEntry(5, { at, results: 1, parsed: true }));
    await store.usage.record(usageEntry(5, { at, results: 0 }));
    await store.usage.record(usageEntry(6, { at, results: 4 }));
    const rows = await store.usage.rows(5);
    expect(rows.map((r) => [r.day, r.product, r.source, r.parsed, r.counters.all_count])).toEqual([
      [dayKey(at), 'web_scraper_api', 'universal', false, 5],
      [dayKey(at), 'web_scraper_api', 'universal', true, 1],
    ]);
    expect(rows[0]!.counters).toEqual({
      all_count: 5,
      mode_callback_count: 3,
      mode_realtime_count: 2,
      mode_superapi_count: 0,
      contenttype_parsed_count: 0,
      contenttype_html_count: 5,
      render_count: 2,
      geo_location_count: 2,
      response_time_ms_sum: 200,
      request_traffic: 20,
      response_traffic: 2000,
    });
    expect(await store.usage.rows(5, '1999-01-01', '1999-12-31')).toEqual([]);
    expect(store.quotas.usageOf(5, at)).toEqual({ pages_day: 6, pages_month: 6, rendered_day: 2, rendered_month: 2 });
    expect(store.quotas.usageOf(6, at).pages_day).toBe(4);
    // Another day of the month counts for the month only.
    const other = new Date(at);
    other.setUTCDate(other.getUTCDate() === 1 ? 2 : 1);
    await store.usage.record(usageEntry(5, { at: other.getTime(), results: 10 }));
    expect(store.quotas.usageOf(5, at)).toMatchObject({ pages_day: 6, pages_month: 16 });
  });

  test('quotas merge, list, drop one limit, and vanish with their last limit; another handle sees them', async () => {
    const store = await h.open();
    const other = await h.openAnother(store);
    expect(store.quotas.quotaOf(1)).toBeUndefined();
    await store.quotas.setQuota(1, { pages_per_day: 10 });
    expect(await store.quotas.setQuota(1, { requests_per_minute: 60 })).toEqual({ pages_per_day: 10, pages_per_month: null, rendered_per_day: null, rendered_per_month: null, requests_per_minute: 60 });
    await eventually(() => other.quotas.quotaOf(1)?.requests_per_minute === 60, undefined, 'quota visible on another handle');
    await store.quotas.setQuota(1, { pages_per_day: null });
    expect(store.quotas.listQuotas()).toEqual([{ clientId: 1, quota: expect.objectContaining({ pages_per_day: null, requests_per_minute: 60 }) }]);
    expect(await store.quotas.setQuota(1, { requests_per_minute: null })).toBeUndefined();
    expect(store.quotas.quotaOf(1)).toBeUndefined();
    await eventually(() => other.quotas.quotaOf(1) === undefined, undefined, 'quota removal visible on another handle');
  });

  test('feed events reach every subscriber until it unsubscribes', async () => {
    const store = await h.open();
    const seen: JobEvent[] = [];
    const also: JobEvent[] = [];
    const stop = store.feed.subscribe((e) => seen.push(e));
    store.feed.subscribe((e) => also.push(e));
    const event: JobEvent = { type: 'accepted', jobId: '1000000000000000001', clientId: 1, routeId: 'universal', at: Date.now() };
    store.feed.publish(event);
    await eventually(() => seen.length === 1 && also.length === 1, undefined, 'event delivered');
    expect(seen).toEqual([event]);
    stop();
    store.feed.publish({ ...event, type: 'started' });
    await eventually(() => also.length === 2, undefined, 'second event delivered');
    expect(seen.length).toBe(1);
  });
}
