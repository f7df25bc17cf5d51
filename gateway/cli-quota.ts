/**
 * `gleaner accounts set-quota <client-id> [--pages-per-day N] [--pages-per-month N]
 * [--rendered-per-day N] [--rendered-per-month N] [--requests-per-minute N] [--clear]`:
 * writes the account's quota straight into the store (the running service reads it on the next
 * request). `none` removes one limit; `--clear` removes them all.
 */
import { parseArgs } from 'node:util';
import type { Store } from '../core/store/index.js';
import { QUOTA_LIMITS, type Quota, type QuotaLimit } from '../core/store/quotas.js';

const FLAG = (limit: QuotaLimit): string => limit.replace(/_/g, '-');

export const SET_QUOTA_USAGE = `gleaner accounts set-quota <client-id> [--pages-per-day N] [--pages-per-month N]
           [--rendered-per-day N] [--rendered-per-month N] [--requests-per-minute N] [--clear]
                                        set an account's quota (N, or none to remove one limit)`;

export function formatQuota(quota: Quota | undefined): string {
  if (!quota) return 'quota=none';
  const set = QUOTA_LIMITS.filter((k) => quota[k] !== null).map((k) => `${k}=${quota[k]}`);
  return set.length > 0 ? set.join(' ') : 'quota=none';
}

/** Returns the process exit code. */
export async function setQuota(store: Store, args: string[], out: (line: string) => void): Promise<number> {
  const options = Object.fromEntries(QUOTA_LIMITS.map((k) => [FLAG(k), { type: 'string' as const }]));
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { ...options, clear: { type: 'boolean' } } });
  const clientId = Number(positionals[0]);
  if (!Number.isInteger(clientId) || clientId <= 0) throw new Error(`set-quota needs an account's client id\n${SET_QUOTA_USAGE}`);
  if (!store.accounts.getAccount(clientId)) throw new Error(`no account ${clientId}`);
  const changes: Partial<Quota> = {};
  if (values.clear) for (const k of QUOTA_LIMITS) changes[k] = null;
  for (const k of QUOTA_LIMITS) {
    const raw = (values as Record<string, string | undefined>)[FLAG(k)];
    if (raw === undefined) continue;
    if (raw === 'none') changes[k] = null;
    else if (/^\d+$/.test(raw)) changes[k] = Number(raw);
    else throw new Error(`--${FLAG(k)} takes a whole number or none, got ${JSON.stringify(raw)}`);
  }
  if (Object.keys(changes).length === 0) throw new Error(`set-quota needs at least one limit\n${SET_QUOTA_USAGE}`);
  const quota = await store.quotas.setQuota(clientId, changes);
  out(`account ${clientId}: ${formatQuota(quota)}`);
  return 0;
}
