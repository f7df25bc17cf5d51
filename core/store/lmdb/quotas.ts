/**
 * Quotas and totals in LMDB: `quotas` (client id → Quota) and `totals` ([clientId,
 * 'YYYY-MM-DD' | 'YYYY-MM', 'pages' | 'rendered'] → charged pages), incremented by the usage
 * ledger inside its own transaction (usage.ts).
 */
import { dayKey, emptyQuota, monthKey, QUOTA_LIMITS, type Quota, type QuotaStore, type QuotaUsage } from '../quotas.js';
import type { StoreDatabases } from './index.js';

export type TotalKind = 'pages' | 'rendered';
/** [clientId, 'YYYY-MM-DD' | 'YYYY-MM', kind] */
export type TotalKey = [number, string, TotalKind];

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

export class LmdbQuotas implements QuotaStore {
  constructor(private readonly dbs: StoreDatabases) {}

  quotaOf(clientId: number): Quota | undefined {
    const stored = this.dbs.quotas.get(clientId) as Partial<Quota> | undefined;
    return stored ? { ...emptyQuota(), ...stored } : undefined;
  }

  listQuotas(): Array<{ clientId: number; quota: Quota }> {
    return [...this.dbs.quotas.getRange()].map((e) => ({ clientId: e.key as number, quota: { ...emptyQuota(), ...(e.value as Partial<Quota>) } }));
  }

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

  usageOf(clientId: number, now = Date.now()): QuotaUsage {
    const day = dayKey(now);
    const month = monthKey(now);
    const get = (period: string, kind: TotalKind): number => (this.dbs.totals.get([clientId, period, kind] satisfies TotalKey) as number | undefined) ?? 0;
    return { pages_day: get(day, 'pages'), pages_month: get(month, 'pages'), rendered_day: get(day, 'rendered'), rendered_month: get(month, 'rendered') };
  }
}
