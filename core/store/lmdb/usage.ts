/**
 * The usage ledger in LMDB: `usage` ([clientId, 'YYYY-MM-DD', product, source, parsed 0|1] →
 * UsageCounters). Rows are read-modify-written inside an LMDB transaction: lmdb-js runs
 * transaction callbacks one at a time in its write batch, so concurrent increments cannot lose
 * updates. The quota totals move in the same transaction (quotas.ts).
 */
import type { Product } from '../../registry/types.js';
import { addEntry, dayOf, type UsageCounters, type UsageEntry, type UsageLedger, type UsageRow } from '../usage.js';
import type { StoreDatabases } from './index.js';
import { addToTotals } from './quotas.js';

/** [clientId, 'YYYY-MM-DD', product, source, parsed 0|1] */
export type UsageKey = [number, string, Product, string, number];

/** Adds one charged entry to its row and to the quota totals. Call inside a write transaction. */
export function addUsage(dbs: StoreDatabases, entry: UsageEntry): void {
  if (entry.results <= 0) return;
  const key: UsageKey = [entry.clientId, dayOf(entry.at), entry.product, entry.source, entry.parsed ? 1 : 0];
  dbs.usage.put(key, addEntry((dbs.usage.get(key) as UsageCounters | undefined) ?? ({} as UsageCounters), entry));
  addToTotals(dbs, entry.clientId, entry.at, entry.results, entry.render);
}

export class LmdbUsage implements UsageLedger {
  constructor(private readonly dbs: StoreDatabases) {}

  async record(entry: UsageEntry): Promise<void> {
    if (entry.results <= 0) return;
    await this.dbs.root.transaction(() => addUsage(this.dbs, entry));
  }

  async rows(clientId: number, from = '0000-00-00', to = '9999-99-99'): Promise<UsageRow[]> {
    const out: UsageRow[] = [];
    for (const { key, value } of this.dbs.usage.getRange({ start: [clientId, from], end: [clientId, `${to}\uffff`] })) {
      const [, day, product, source, parsed] = key as UsageKey;
      out.push({ day, product, source, parsed: parsed === 1, counters: value as UsageCounters });
    }
    return out;
  }
}
