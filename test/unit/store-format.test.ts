/**
 * The embedded store's format stamp and migrations (core/store/lmdb/migrations.ts): a store written in the
 * previous format (Gleaner 0.1: no stamp, no quota totals) — built here by writing that layout
 * straight into LMDB — opens in this build with its data intact and its quota totals rebuilt
 * from the usage ledger; a fresh store is stamped at once; a newer store is refused.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from 'lmdb';
import { afterEach, describe, expect, test } from 'vitest';
import { LmdbStore } from '../../core/store/lmdb/index.js';
import { CURRENT_FORMAT, FORMAT_KEY, StoreFormatError } from '../../core/store/lmdb/migrations.js';
import { dayKey, monthKey } from '../../core/store/quotas.js';
import { createHash } from 'node:crypto';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gleaner-format-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const counters = (all: number, render: number) => ({
  all_count: all,
  mode_callback_count: 0,
  mode_realtime_count: all,
  mode_superapi_count: 0,
  contenttype_parsed_count: 0,
  contenttype_html_count: all,
  render_count: render,
  geo_location_count: 0,
  response_time_ms_sum: 100 * all,
  request_traffic: 10,
  response_traffic: 1000,
});

/** The layout Gleaner 0.1 wrote: these named databases, msgpack values, no `store:format`. */
async function writeFormat1Store(dir: string, today: string, lastMonthDay: string): Promise<string> {
  const root = open({ path: dir, maxDbs: 32 });
  const meta = root.openDB({ name: 'meta' });
  const accounts = root.openDB({ name: 'accounts' });
  const keys = root.openDB({ name: 'keys' });
  const usage = root.openDB({ name: 'usage' });
  for (const name of ['users', 'jobs', 'results', 'queue', 'outbox', 'expiry']) root.openDB({ name });
  const key = 'operator-chosen-key-0123456789';
  await root.transaction(() => {
    meta.put('seq:client', 1);
    accounts.put(1, { clientId: 1, name: 'old', entitlements: ['*'], admin: true, webhookSecret: 's3cret', createdAt: 1 });
    const hash = createHash('sha256').update(key).digest();
    keys.put(hash.toString('hex').slice(0, 16), { id: hash.toString('hex').slice(0, 16), clientId: 1, hash, label: 'old', createdAt: 1, revokedAt: null });
    usage.put([1, today, 'web_scraper_api', 'universal', 0], counters(5, 2));
    usage.put([1, today, 'serp_scraper_api', 'se1_search', 1], counters(3, 0));
    usage.put([1, lastMonthDay, 'web_scraper_api', 'universal', 0], counters(7, 7));
  });
  await root.close();
  return key;
}

describe('store format', () => {
  test('a previous-format store opens: data intact, stamp moved, quota totals rebuilt from the ledger', async () => {
    const dir = tempDir();
    const now = Date.now();
    const today = dayKey(now);
    const lastMonth = new Date(now);
    lastMonth.setUTCDate(0); // last day of the previous month
    const key = await writeFormat1Store(dir, today, dayKey(lastMonth.getTime()));

    const store = LmdbStore.open(dir);
    try {
      expect(store.migrated.map((m) => [m.from, m.to])).toEqual([[1, 2]]);
      expect(store.dbs.meta.get(FORMAT_KEY)).toBe(CURRENT_FORMAT);
      expect(store.accounts.authenticate(key)?.name).toBe('old');
      expect((await store.usage.rows(1)).length).toBe(3);
      // Today's 8 pages (2 rendered) count against today's and this month's quota; last month's do not.
      expect(store.quotas.usageOf(1, now)).toEqual({ pages_day: 8, pages_month: 8, rendered_day: 2, rendered_month: 2 });
      expect(store.dbs.totals.get([1, monthKey(lastMonth.getTime()), 'pages'])).toBe(7);
    } finally {
      await store.close();
    }
    // Opening again changes nothing: the stamp says it is current.
    const again = LmdbStore.open(dir);
    expect(again.migrated).toEqual([]);
    expect(again.quotas.usageOf(1, now).pages_day).toBe(8);
    await again.close();
  });

  test('a new store is stamped with the current format and needs no migration', async () => {
    const store = LmdbStore.open(tempDir());
    expect(store.migrated).toEqual([]);
    expect(store.dbs.meta.get(FORMAT_KEY)).toBe(CURRENT_FORMAT);
    await store.close();
  });

  test('the ledger and the quota totals move together after the upgrade', async () => {
    const store = LmdbStore.open(tempDir());
    const at = Date.now();
    await store.usage.record({ clientId: 4, at, product: 'web_scraper_api', source: 'universal', mode: 'realtime', parsed: false, render: true, geo: false, results: 2, responseTimeMs: 5, requestBytes: 1, responseBytes: 1 });
    expect(store.quotas.usageOf(4, at)).toEqual({ pages_day: 2, pages_month: 2, rendered_day: 2, rendered_month: 2 });
    await store.close();
  });

  test('a store written by a newer format is refused with what to do', async () => {
    const dir = tempDir();
    const root = open({ path: dir, maxDbs: 32 });
    await root.openDB({ name: 'meta' }).put(FORMAT_KEY, CURRENT_FORMAT + 1);
    await root.close();
    expect(() => LmdbStore.open(dir)).toThrow(StoreFormatError);
    expect(() => LmdbStore.open(dir)).toThrow(/written by a newer Gleaner \(store format 3; this executable reads up to 2\)/);
  });

  test('quotas: set, merge, remove one limit, and none left deletes the quota', async () => {
    const store = LmdbStore.open(tempDir());
    expect(store.quotas.quotaOf(1)).toBeUndefined();
    await store.quotas.setQuota(1, { pages_per_day: 10 });
    await store.quotas.setQuota(1, { requests_per_minute: 60 });
    expect(store.quotas.quotaOf(1)).toEqual({ pages_per_day: 10, pages_per_month: null, rendered_per_day: null, rendered_per_month: null, requests_per_minute: 60 });
    await store.quotas.setQuota(1, { pages_per_day: null });
    expect(store.quotas.listQuotas()).toEqual([{ clientId: 1, quota: expect.objectContaining({ pages_per_day: null, requests_per_minute: 60 }) }]);
    expect(await store.quotas.setQuota(1, { requests_per_minute: null })).toBeUndefined();
    expect(store.quotas.quotaOf(1)).toBeUndefined();
    await store.close();
  });
});
