/**
 * Quotas (`quota.<clientId>` in the accounts bucket) and the charged totals (`t.<clientId>.
 * <period>.<kind>` in the totals bucket, written by the charge fold, charges.ts), both read
 * synchronously from this node's replicas. A quota set on any node (or by the CLI) is applied
 * to every replica through the watch; a node's own change is in its replica when it resolves.
 * Reservations of queued and running jobs come from reserved.ts.
 */
import type { KV } from '@nats-io/kv';
import { dayKey, emptyQuota, monthKey, QUOTA_LIMITS, type Quota, type QuotaReserved, type QuotaStore, type QuotaUsage } from '../quotas.js';
import { casUpdate } from './accounts.js';
import { totalKey } from './charges.js';
import type { Replica } from './replica.js';
import type { NatsReservations } from './reserved.js';

export class NatsQuotas implements QuotaStore {
  constructor(
    private readonly accountsKv: KV,
    private readonly accounts: Replica<Record<string, unknown>>,
    private readonly totals: Replica<unknown>,
    private readonly reservations: NatsReservations,
  ) {}

  reservedOf(clientId: number): QuotaReserved {
    return this.reservations.reservedOf(clientId);
  }

  quotaOf(clientId: number): Quota | undefined {
    const stored = this.accounts.get(`quota.${clientId}`) as Partial<Quota> | undefined;
    return stored ? { ...emptyQuota(), ...stored } : undefined;
  }

  listQuotas(): Array<{ clientId: number; quota: Quota }> {
    return this.accounts
      .list('quota.')
      .map(([k, v]) => ({ clientId: Number(k.slice('quota.'.length)), quota: { ...emptyQuota(), ...(v as Partial<Quota>) } }))
      .sort((a, b) => a.clientId - b.clientId);
  }

  async setQuota(clientId: number, changes: Partial<Quota>): Promise<Quota | undefined> {
    const key = `quota.${clientId}`;
    let removed = false;
    const written = await casUpdate<Record<string, unknown>>(this.accountsKv, key, (current) => {
      const next: Quota = { ...emptyQuota(), ...((current as Partial<Quota> | undefined) ?? {}), ...changes };
      if (QUOTA_LIMITS.every((k) => next[k] === null)) {
        removed = true;
        return undefined;
      }
      return next as unknown as Record<string, unknown>;
    });
    if (removed) {
      const entry = await this.accountsKv.get(key);
      if (entry?.operation === 'PUT') {
        await this.accountsKv.delete(key);
        const after = await this.accountsKv.get(key);
        this.accounts.applied(key, after?.revision ?? entry.revision + 1, undefined);
      }
      return undefined;
    }
    this.accounts.applied(key, written!.revision, written!.value);
    return written!.value as unknown as Quota;
  }

  usageOf(clientId: number, now = Date.now()): QuotaUsage {
    const get = (period: string, kind: 'pages' | 'rendered') => (this.totals.get(totalKey(clientId, period, kind)) as { n: number } | undefined)?.n ?? 0;
    const day = dayKey(now);
    const month = monthKey(now);
    return { pages_day: get(day, 'pages'), pages_month: get(month, 'pages'), rendered_day: get(day, 'rendered'), rendered_month: get(month, 'rendered') };
  }
}
