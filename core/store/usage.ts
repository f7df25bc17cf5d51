/**
 * The usage ledger: one counter row per (account, day, product, source, parsed), incremented
 * for every charged result of either API. `/v2/stats` reads and folds these rows (spec 2.6).
 * Faulted work is never recorded (spec 3: not charged).
 *
 * Rows are read-modify-written inside an LMDB transaction: lmdb-js runs transaction callbacks
 * one at a time in its write batch, so concurrent increments cannot lose updates.
 */
import type { Product } from '../registry/types.js';
import type { StoreDatabases } from './index.js';
import { addToTotals } from './quotas.js';

/** `realtime` = sync (both APIs); `callback` = Web API async and Job API push-pull. */
export type UsageMode = 'realtime' | 'callback' | 'superapi';

export interface UsageEntry {
  clientId: number;
  /** Unix ms of completion. */
  at: number;
  product: Product;
  source: string;
  mode: UsageMode;
  parsed: boolean;
  render: boolean;
  geo: boolean;
  /** Charged results (pages). */
  results: number;
  responseTimeMs: number;
  requestBytes: number;
  responseBytes: number;
}

export interface UsageCounters {
  all_count: number;
  mode_callback_count: number;
  mode_realtime_count: number;
  mode_superapi_count: number;
  contenttype_parsed_count: number;
  contenttype_html_count: number;
  render_count: number;
  geo_location_count: number;
  /** Sum over results; average_response_time = response_time_ms_sum / all_count / 1000. */
  response_time_ms_sum: number;
  request_traffic: number;
  response_traffic: number;
}

/** [clientId, 'YYYY-MM-DD', product, source, parsed 0|1] */
export type UsageKey = [number, string, Product, string, number];

export function emptyCounters(): UsageCounters {
  return {
    all_count: 0,
    mode_callback_count: 0,
    mode_realtime_count: 0,
    mode_superapi_count: 0,
    contenttype_parsed_count: 0,
    contenttype_html_count: 0,
    render_count: 0,
    geo_location_count: 0,
    response_time_ms_sum: 0,
    request_traffic: 0,
    response_traffic: 0,
  };
}

export function addCounters(into: UsageCounters, from: UsageCounters): UsageCounters {
  for (const k of Object.keys(into) as Array<keyof UsageCounters>) into[k] += from[k];
  return into;
}

export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export interface UsageRow {
  day: string;
  product: Product;
  source: string;
  parsed: boolean;
  counters: UsageCounters;
}

export class UsageLedger {
  constructor(private readonly dbs: StoreDatabases) {}

  async record(entry: UsageEntry): Promise<void> {
    if (entry.results <= 0) return;
    const key: UsageKey = [entry.clientId, dayOf(entry.at), entry.product, entry.source, entry.parsed ? 1 : 0];
    const n = entry.results;
    await this.dbs.root.transaction(() => {
      const row = { ...emptyCounters(), ...((this.dbs.usage.get(key) as UsageCounters | undefined) ?? {}) };
      row.all_count += n;
      if (entry.mode === 'callback') row.mode_callback_count += n;
      else if (entry.mode === 'realtime') row.mode_realtime_count += n;
      else row.mode_superapi_count += n;
      if (entry.parsed) row.contenttype_parsed_count += n;
      else row.contenttype_html_count += n;
      if (entry.render) row.render_count += n;
      if (entry.geo) row.geo_location_count += n;
      row.response_time_ms_sum += entry.responseTimeMs * n;
      row.request_traffic += entry.requestBytes;
      row.response_traffic += entry.responseBytes;
      this.dbs.usage.put(key, row);
      // Quota totals move with the ledger, in the same transaction (quotas.ts).
      addToTotals(this.dbs, entry.clientId, entry.at, n, entry.render);
    });
  }

  /** An account's rows between two days (inclusive, 'YYYY-MM-DD'), in key order. */
  rows(clientId: number, from = '0000-00-00', to = '9999-99-99'): UsageRow[] {
    const out: UsageRow[] = [];
    for (const { key, value } of this.dbs.usage.getRange({ start: [clientId, from], end: [clientId, `${to}\uffff`] })) {
      const [, day, product, source, parsed] = key as UsageKey;
      out.push({ day, product, source, parsed: parsed === 1, counters: value as UsageCounters });
    }
    return out;
  }
}
