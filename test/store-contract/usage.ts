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

  test('charges recorded at once (a sync burst) fold exactly as one by one, and each is readable once its promise resolves', async () => {
    const store = await h.open();
    const at = Date.now();
    // 24 charges in flight together: two accounts, parsed and not, some rendered, one empty.
    const entries = Array.from({ length: 24 }, (_, i) =>
      usageEntry(i % 2 === 0 ? 7 : 8, { at, results: i === 5 ? 0 : 1 + (i % 3), mode: 'realtime', parsed: i % 4 === 0, render: i % 3 === 0, responseTimeMs: 10 + i, requestBytes: i, responseBytes: 100 * i }),
    );
    const first = store.usage.record(entries[0]!);
    const rest = entries.slice(1).map((e) => store.usage.record(e));
    await first;
    await Promise.all(rest);
    const expected = (clientId: number, parsed: boolean) => {
      const mine = entries.filter((e) => e.clientId === clientId && e.parsed === parsed && e.results > 0);
      const sum = (f: (e: (typeof entries)[number]) => number) => mine.reduce((n, e) => n + f(e), 0);
      return {
        all_count: sum((e) => e.results),
        mode_callback_count: 0,
        mode_realtime_count: sum((e) => e.results),
        mode_superapi_count: 0,
        contenttype_parsed_count: parsed ? sum((e) => e.results) : 0,
        contenttype_html_count: parsed ? 0 : sum((e) => e.results),
        render_count: sum((e) => (e.render ? e.results : 0)),
        geo_location_count: 0,
        response_time_ms_sum: sum((e) => e.responseTimeMs * e.results),
        request_traffic: sum((e) => e.requestBytes),
        response_traffic: sum((e) => e.responseBytes),
      };
    };
    for (const clientId of [7, 8]) {
      const rows = await store.usage.rows(clientId);
      expect(rows.map((r) => [r.parsed, r.counters])).toEqual([
        [false, expected(clientId, false)],
        ...(entries.some((e) => e.clientId === clientId && e.parsed) ? [[true, expected(clientId, true)]] : []),
      ]);
      const mine = entries.filter((e) => e.clientId === clientId);
      const pages = mine.reduce((n, e) => n + e.results, 0);
      const rendered = mine.reduce((n, e) => n + (e.render ? e.results : 0), 0);
      expect(store.quotas.usageOf(clientId, at)).toEqual({ pages_day: pages, pages_month: pages, rendered_day: rendered, rendered_month: rendered });
    }
    // A charge that resolves is in the ledger then, also when it joined another's transaction.
    const a = store.usage.record(usageEntry(9, { at, results: 2 }));
    const b = store.usage.record(usageEntry(9, { at, results: 3 }));
    await b;
    expect((await store.usage.rows(9))[0]!.counters.all_count).toBe(5);
    await a;
    await store.usage.record(usageEntry(9, { at, results: 1 }));
    expect((await store.usage.rows(9))[0]!.counters.all_count).toBe(6);
    expect(store.quotas.usageOf(9, at).pages_day).toBe(6);
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
