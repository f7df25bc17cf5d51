/**
 * Quotas, totals and reservations in LMDB: `quotas` (client id → Quota), `totals` ([clientId,
 * 'YYYY-MM-DD' | 'YYYY-MM', 'pages' | 'rendered'] → charged pages), incremented by the usage
 * ledger inside its own transaction (usage.ts), and `reserved` ([clientId, 'pages' |
 * 'rendered'] → pages held by queued and running jobs), moved by `enqueue` and `finish` inside
 * theirs (jobs.ts) and rebuilt from the durable queue when the job runner starts (work.ts).
 */
import { reservationOf, type JobRecord } from '../jobs.js';
import { dayKey, emptyQuota, monthKey, QUOTA_LIMITS, type Quota, type QuotaReserved, type QuotaStore, type QuotaUsage } from '../quotas.js';
import type { StoreDatabases } from './index.js';
import type { QueueKey } from './jobs.js';

export type TotalKind = 'pages' | 'rendered';
/** [clientId, 'YYYY-MM-DD' | 'YYYY-MM', kind] */
export type TotalKey = [number, string, TotalKind];

/**
 * Adds charged pages to the totals. Call inside a write transaction (the usage ledger's): the
 * read-modify-write is then serialised with every other increment.
 */
export function addToTotals(dbs: StoreDatabases, clientId: number, at: number, pages: number, rendered: boolean): void {
  for (const key of totalKeys(clientId, at, rendered)) dbs.totals.put(key, ((dbs.totals.get(key) as number | undefined) ?? 0) + pages);
}

/** `addToTotals` of several charges, each total read and written once with their sum. */
export function addTotalsOf(dbs: StoreDatabases, charges: Iterable<{ clientId: number; at: number; results: number; render: boolean }>): void {
  const sums = new Map<string, { key: TotalKey; pages: number }>();
  for (const c of charges) {
    if (c.results <= 0) continue;
    for (const key of totalKeys(c.clientId, c.at, c.render)) {
      const id = JSON.stringify(key);
      const sum = sums.get(id);
      if (sum) sum.pages += c.results;
      else sums.set(id, { key, pages: c.results });
    }
  }
  for (const { key, pages } of sums.values()) dbs.totals.put(key, ((dbs.totals.get(key) as number | undefined) ?? 0) + pages);
}

function totalKeys(clientId: number, at: number, rendered: boolean): TotalKey[] {
  const keys: TotalKey[] = [
    [clientId, dayKey(at), 'pages'],
    [clientId, monthKey(at), 'pages'],
  ];
  if (rendered) keys.push([clientId, dayKey(at), 'rendered'], [clientId, monthKey(at), 'rendered']);
  return keys;
}

/** [clientId, kind] */
export type ReservedKey = [number, TotalKind];

/**
 * Adds (sign 1) or releases (sign -1) jobs' reservations, one counter write per account and
 * kind. Call inside the write transaction that queues or finishes the jobs: the counters then
 * move exactly with the queue.
 */
export function moveReservations(dbs: StoreDatabases, jobs: Iterable<JobRecord>, sign: 1 | -1): void {
  const sums = new Map<number, QuotaReserved>();
  for (const job of jobs) {
    const held = reservationOf(job);
    const sum = sums.get(job.clientId) ?? { pages: 0, rendered: 0 };
    sums.set(job.clientId, { pages: sum.pages + held.pages, rendered: sum.rendered + held.rendered });
  }
  for (const [clientId, sum] of sums) {
    for (const [kind, n] of [['pages', sum.pages], ['rendered', sum.rendered]] as const) {
      if (n <= 0) continue;
      const key: ReservedKey = [clientId, kind];
      // Never below zero: a job queued by a build without reservations releases what it never added.
      const next = Math.max(0, ((dbs.reserved.get(key) as number | undefined) ?? 0) + sign * n);
      if (next > 0) dbs.reserved.put(key, next);
      else dbs.reserved.remove(key);
    }
  }
}

/**
 * Recomputes every account's reservation from the durable queue (the service's start: a store
 * of an older build, or anything that ever made the counters drift). Returns the jobs counted.
 */
export function rebuildReservations(dbs: StoreDatabases): number {
  return dbs.root.transactionSync(() => {
    for (const key of [...dbs.reserved.getKeys()]) dbs.reserved.remove(key);
    const queued: JobRecord[] = [];
    for (const key of dbs.queue.getKeys()) {
      const job = dbs.jobs.get((key as QueueKey)[1]) as JobRecord | undefined;
      if (job) queued.push(job);
    }
    moveReservations(dbs, queued, 1);
    return queued.length;
  });
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

  reservedOf(clientId: number): QuotaReserved {
    const get = (kind: TotalKind): number => (this.dbs.reserved.get([clientId, kind] satisfies ReservedKey) as number | undefined) ?? 0;
    return { pages: get('pages'), rendered: get('rendered') };
  }
}
