/**
 * Per-account quotas (pages per day and per month, rendered pages per day and per month, and a
 * request rate) and the running totals they are checked against.
 *
 * - Quotas live in their own database, keyed by client id, read on every admitted request (an
 *   LMDB read, so `gleaner accounts set-quota` in another process takes effect at once).
 * - Totals are one counter per (account, period, kind): `[clientId, 'YYYY-MM-DD' | 'YYYY-MM',
 *   'pages' | 'rendered']`, incremented by the usage ledger in the same transaction as its own
 *   row, so they count exactly what `/v2/stats` counts (charged pages; faulted work never).
 * - Periods are UTC calendar days and months; a limit resets at the next UTC midnight or the
 *   first day of the next month. The request rate is a per-minute window kept in memory by the
 *   gateway (core/quota.ts evaluates it; it is not stored).
 */
import type { StoreDatabases } from './index.js';

export const QUOTA_LIMITS = ['pages_per_day', 'pages_per_month', 'rendered_per_day', 'rendered_per_month', 'requests_per_minute'] as const;
export type QuotaLimit = (typeof QUOTA_LIMITS)[number];

/** An account's quota; `null` is "no limit". */
export type Quota = Record<QuotaLimit, number | null>;

/** Charged pages so far in the current day and month (UTC). */
export interface QuotaUsage {
  pages_day: number;
  pages_month: number;
  rendered_day: number;
  rendered_month: number;
}

export type TotalKind = 'pages' | 'rendered';
/** [clientId, 'YYYY-MM-DD' | 'YYYY-MM', kind] */
export type TotalKey = [number, string, TotalKind];

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

/**
 * Adds charged pages to the totals. Call inside a write transaction (the usage ledger's): the
 * read-modify-write is then serialised with every other increment.
 */
export function addToTotals(dbs: StoreDatabases, clientId: number, at: number, pages: number, rendered: boolean): void {
  const keys: TotalKey[] = [
    [clientId, dayKey(at), 'pages'],
    [clientId, monthKey(at), 'pages'],
  ];
  if (rendered) keys.push([clientId, dayKey(at), 'rendered'], [clientId, monthKey(at), 'rendered']);
  for (const key of keys) dbs.totals.put(key, ((dbs.totals.get(key) as number | undefined) ?? 0) + pages);
}

export class QuotaStore {
  constructor(private readonly dbs: StoreDatabases) {}

  /**
   * The account's quota, or undefined when it has none (no limit of any kind). This is the one
   * read of quotas for every consumer: admission, `/v2/stats`, `/metrics`, the operator console.
   */
  quotaOf(clientId: number): Quota | undefined {
    const stored = this.dbs.quotas.get(clientId) as Partial<Quota> | undefined;
    return stored ? { ...emptyQuota(), ...stored } : undefined;
  }

  /** Every account that has a quota, in client id order. */
  listQuotas(): Array<{ clientId: number; quota: Quota }> {
    return [...this.dbs.quotas.getRange()].map((e) => ({ clientId: e.key as number, quota: { ...emptyQuota(), ...(e.value as Partial<Quota>) } }));
  }

  /**
   * Merges `changes` into the account's quota (`null` removes one limit); a quota left with no
   * limit at all is deleted. Returns the quota as stored, or undefined when none is left.
   */
  async setQuota(clientId: number, changes: Partial<Quota>): Promise<Quota | undefined> {
    return this.dbs.root.transaction(() => {
      const next: Quota = { ...emptyQuota(), ...((this.dbs.quotas.get(clientId) as Partial<Quota> | undefined) ?? {}), ...changes };
      if (QUOTA_LIMITS.every((k) => next[k] === null)) {
        this.dbs.quotas.remove(clientId);
        return undefined;
      }
      this.dbs.quotas.put(clientId, next);
      return next;
    });
  }

  /** Charged pages of the current UTC day and month. */
  usageOf(clientId: number, now = Date.now()): QuotaUsage {
    const day = dayKey(now);
    const month = monthKey(now);
    const get = (period: string, kind: TotalKind): number => (this.dbs.totals.get([clientId, period, kind] satisfies TotalKey) as number | undefined) ?? 0;
    return { pages_day: get(day, 'pages'), pages_month: get(month, 'pages'), rendered_day: get(day, 'rendered'), rendered_month: get(month, 'rendered') };
  }
}
