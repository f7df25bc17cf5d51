/**
 * The usage ledger in LMDB: `usage` ([clientId, 'YYYY-MM-DD', product, source, parsed 0|1] →
 * UsageCounters). Rows are read-modify-written inside an LMDB transaction: lmdb-js runs
 * transaction callbacks one at a time in its write batch, so concurrent increments cannot lose
 * updates. The quota totals move in the same transaction (quotas.ts).
 *
 * Sync answers' charges (`record`) that arrive while one is waiting for its transaction share
 * it: one callback sums them and writes each row and total once, instead of three reads and
 * three writes per charge (a fifth of the gateway thread's work per static page at 16 in
 * flight, bench/README.md). Each caller still resolves only once that transaction is durable.
 */
import type { Product } from '../../registry/types.js';
import { addEntry, dayOf, type UsageCounters, type UsageEntry, type UsageLedger, type UsageRow } from '../usage.js';
import type { StoreDatabases } from './index.js';
import { addToTotals, addTotalsOf } from './quotas.js';

/** [clientId, 'YYYY-MM-DD', product, source, parsed 0|1] */
export type UsageKey = [number, string, Product, string, number];

/** Adds one charged entry to its row and to the quota totals. Call inside a write transaction. */
export function addUsage(dbs: StoreDatabases, entry: UsageEntry): void {
  if (entry.results <= 0) return;
  const key: UsageKey = [entry.clientId, dayOf(entry.at), entry.product, entry.source, entry.parsed ? 1 : 0];
  dbs.usage.put(key, addEntry((dbs.usage.get(key) as UsageCounters | undefined) ?? ({} as UsageCounters), entry));
  addToTotals(dbs, entry.clientId, entry.at, entry.results, entry.render);
}

/**
 * Adds several charged entries at once: each row and total is read and written once with the
 * entries' sum (the same counters as `addUsage` per entry, in order). Call inside a write
 * transaction.
 */
export function addUsages(dbs: StoreDatabases, entries: readonly UsageEntry[]): void {
  const rows = new Map<string, { key: UsageKey; counters: UsageCounters }>();
  for (const entry of entries) {
    if (entry.results <= 0) continue;
    const key: UsageKey = [entry.clientId, dayOf(entry.at), entry.product, entry.source, entry.parsed ? 1 : 0];
    const id = JSON.stringify(key);
    const row = rows.get(id);
    const before = row ? row.counters : ((dbs.usage.get(key) as UsageCounters | undefined) ?? ({} as UsageCounters));
    rows.set(id, { key, counters: addEntry(before, entry) });
  }
  for (const { key, counters } of rows.values()) dbs.usage.put(key, counters);
  addTotalsOf(dbs, entries);
}

export class LmdbUsage implements UsageLedger {
  /** Charges waiting for the transaction that `batch` will commit (undefined once it has begun). */
  private pending: UsageEntry[] | undefined;
  private batch: Promise<void> = Promise.resolve();

  constructor(private readonly dbs: StoreDatabases) {}

  record(entry: UsageEntry): Promise<void> {
    if (entry.results <= 0) return Promise.resolve();
    // Concurrency: the callback runs on this thread when lmdb-js starts the write batch; until
    // then later charges join `pending`, after it they start the next transaction.
    if (this.pending) {
      this.pending.push(entry);
      return this.batch;
    }
    const entries = [entry];
    this.pending = entries;
    let done: Promise<void>;
    try {
      done = this.dbs.root
        .transaction(() => {
          if (this.pending === entries) this.pending = undefined;
          addUsages(this.dbs, entries);
        })
        .then(() => undefined);
    } catch (err) {
      this.pending = undefined; // a store that refuses at once (closed) leaves no batch to join
      return Promise.reject(err);
    }
    // One promise for the whole batch: every caller that joined awaits (and handles) it.
    // lmdb-js may run the callback before `transaction` returns: then nothing joins this batch.
    if (this.pending === entries) this.batch = done;
    return done;
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
