/**
 * The usage seam: the ledger `/v2/stats` reads (spec 2.6), one counter row per (account, day,
 * product, source, parsed), and the quota totals that move with it (quotas.ts). Implemented by
 * lmdb/usage.ts. Faulted work is never recorded (spec 3: not charged).
 *
 * Async jobs are charged by `JobStore.finish` (exactly once per job, with its final state);
 * sync requests by `record`. In both stores an increment is atomic with the totals it moves.
 */
import type { Product } from '../registry/types.js';

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

export interface UsageRow {
  day: string;
  product: Product;
  source: string;
  parsed: boolean;
  counters: UsageCounters;
}

export interface UsageLedger {
  /** Adds a charged result (sync requests; `results <= 0` records nothing). */
  record(entry: UsageEntry): Promise<void>;
  /** An account's rows between two days (inclusive, 'YYYY-MM-DD'), in key order. */
  rows(clientId: number, from?: string, to?: string): Promise<UsageRow[]>;
}

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

/** A ledger row with one entry added (every implementation counts the same way). */
export function addEntry(row: UsageCounters, entry: UsageEntry): UsageCounters {
  const n = entry.results;
  const next = { ...emptyCounters(), ...row };
  next.all_count += n;
  if (entry.mode === 'callback') next.mode_callback_count += n;
  else if (entry.mode === 'realtime') next.mode_realtime_count += n;
  else next.mode_superapi_count += n;
  if (entry.parsed) next.contenttype_parsed_count += n;
  else next.contenttype_html_count += n;
  if (entry.render) next.render_count += n;
  if (entry.geo) next.geo_location_count += n;
  next.response_time_ms_sum += entry.responseTimeMs * n;
  next.request_traffic += entry.requestBytes;
  next.response_traffic += entry.responseBytes;
  return next;
}

export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
