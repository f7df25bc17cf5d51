/**
 * The quota seam: per-account quotas (pages per day and per month, rendered pages per day and
 * per month, and a request rate) and the charged totals they are checked against. Implemented
 * by lmdb/quotas.ts.
 *
 * - Reads are synchronous: admission reads the quota and the totals on every request. LMDB
 *   reads them from the store (so `gleaner accounts set-quota` in another process applies at
 *   once); the cluster store serves them from a local replica of its quota and totals buckets
 *   kept by a KV watch (a change on any node is seen within a second or two).
 * - Totals are one counter per (account, period, kind), moved by the usage ledger in the same
 *   step as its own row, so they count exactly what `/v2/stats` counts (charged pages;
 *   faulted work never).
 * - Reservations: the pages of accepted, unfinished jobs (queued or running) are held against
 *   every page limit from `enqueue` until `finish` (jobs.ts `reservationOf`), so work waiting in
 *   the queue is counted at admission. `enqueue` adds a job's reservation in the same step that
 *   queues it; `finish` removes it in the same step that charges the job (done) or not
 *   (faulted): a page is never counted twice, nor dropped between held and charged. They
 *   survive restarts: LMDB rebuilds them from its durable queue when the job runner starts.
 *   Sync requests hold their pages in the gateway's memory (gateway/quota.ts), not here.
 * - Periods are UTC calendar days and months; a limit resets at the next UTC midnight or the
 *   first day of the next month. The request rate is a per-minute window kept in memory by the
 *   gateway (core/quota.ts evaluates it; it is not stored).
 */

export const QUOTA_LIMITS = ['pages_per_day', 'pages_per_month', 'rendered_per_day', 'rendered_per_month', 'requests_per_minute'] as const;
export type QuotaLimit = (typeof QUOTA_LIMITS)[number];

/** An account's quota; `null` is "no limit". */
export type Quota = Record<QuotaLimit, number | null>;

/** Pages a piece of work takes from the page limits; rendered limits apply when it renders (`run_js`). */
export interface PageNeed {
  pages: number;
  rendered: boolean;
}

/** Pages held by accepted, unfinished work: counted against every page limit (day and month). */
export interface QuotaReserved {
  pages: number;
  /** Of which rendered: counted against the rendered limits too. */
  rendered: number;
}

/** Charged pages so far in the current day and month (UTC). */
export interface QuotaUsage {
  pages_day: number;
  pages_month: number;
  rendered_day: number;
  rendered_month: number;
}

export interface QuotaStore {
  /**
   * The account's quota, or undefined when it has none (no limit of any kind). This is the one
   * read of quotas for every consumer: admission, `/v2/stats`, `/metrics`, the operator console.
   */
  quotaOf(clientId: number): Quota | undefined;
  /** Every account that has a quota, in client id order. */
  listQuotas(): Array<{ clientId: number; quota: Quota }>;
  /**
   * Merges `changes` into the account's quota (`null` removes one limit); a quota left with no
   * limit at all is deleted. Returns the quota as stored, or undefined when none is left.
   */
  setQuota(clientId: number, changes: Partial<Quota>): Promise<Quota | undefined>;
  /** Charged pages of the current UTC day and month. */
  usageOf(clientId: number, now?: number): QuotaUsage;
  /**
   * Pages of the account's queued and running jobs (their `reservationOf`), as of the last
   * `enqueue`/`finish` this handle has seen (cluster: every node's, within a second or two).
   */
  reservedOf(clientId: number): QuotaReserved;
}

export function noReservation(): QuotaReserved {
  return { pages: 0, rendered: 0 };
}

export function emptyQuota(): Quota {
  return { pages_per_day: null, pages_per_month: null, rendered_per_day: null, rendered_per_month: null, requests_per_minute: null };
}

export function dayKey(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function monthKey(ms: number): string {
  return new Date(ms).toISOString().slice(0, 7);
}

/** Unix ms of the next UTC midnight and of the first instant of the next UTC month. */
export function periodResets(now: number): { day: number; month: number } {
  const d = new Date(now);
  return {
    day: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1),
    month: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1),
  };
}
