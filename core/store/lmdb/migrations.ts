/**
 * The store's format stamp and its migrations: a newer executable opens an older store.
 *
 * - `meta['store:format']` holds the format number. Stores written before the stamp existed
 *   (Gleaner 0.1, format 1) have none; a store with no stamp and no data is new and gets the
 *   current number at once.
 * - Each migration moves a store one format up in ONE write transaction that also writes the
 *   new stamp, so a crash leaves either the old format or the new one, never half of each, and
 *   a second process opening the store at the same time (the CLI beside the service) finds the
 *   stamp already moved and does nothing.
 * - A store stamped with a format newer than this build knows is refused: running an older
 *   executable on it (a rollback) would misread what it cannot know about.
 */
import { open } from 'lmdb';
import type { MigrationInfo } from '../index.js';
import type { UsageCounters } from '../usage.js';
import type { StoreDatabases } from './index.js';
import { addToTotals } from './quotas.js';
import type { UsageKey } from './usage.js';

export const FORMAT_KEY = 'store:format';
export const CURRENT_FORMAT = 2;

export interface Migration extends MigrationInfo {
  /** Runs inside the write transaction that also moves the stamp. */
  run(dbs: StoreDatabases): void;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    from: 1,
    to: 2,
    what: 'per-account page totals for quotas, rebuilt from the usage ledger',
    run(dbs) {
      // Quotas count charged pages per UTC day and month; pages charged before the upgrade are
      // in the ledger only. Rebuilding the totals from it makes today's and this month's quota
      // see them. (Older days are rebuilt too: cheap, and /v2/stats-consistent.)
      for (const key of [...dbs.totals.getKeys()]) dbs.totals.remove(key);
      for (const { key, value } of dbs.usage.getRange()) {
        const [clientId, day] = key as UsageKey;
        const c = value as UsageCounters;
        const at = Date.parse(`${day}T12:00:00Z`);
        if (c.all_count > 0) addToTotals(dbs, clientId, at, c.all_count, false);
        if (c.render_count > 0) addRendered(dbs, clientId, at, c.render_count);
      }
    },
  },
];

function addRendered(dbs: StoreDatabases, clientId: number, at: number, n: number): void {
  // addToTotals adds to pages and rendered together; here pages were already added above.
  const day = new Date(at).toISOString().slice(0, 10);
  for (const period of [day, day.slice(0, 7)]) {
    const key = [clientId, period, 'rendered'];
    dbs.totals.put(key, ((dbs.totals.get(key) as number | undefined) ?? 0) + n);
  }
}

/** The stamp of an opened store: a number, or undefined (no stamp yet). */
export function formatOf(dbs: StoreDatabases): number | undefined {
  return dbs.meta.get(FORMAT_KEY) as number | undefined;
}

function isEmpty(dbs: StoreDatabases): boolean {
  return dbs.accounts.getCount() === 0 && dbs.jobs.getCount() === 0 && dbs.usage.getCount() === 0 && dbs.keys.getCount() === 0;
}

export class StoreFormatError extends Error {}

/** The format of the store in `dataDir`, read without changing anything (`gleaner doctor`). */
export function readStoreFormat(dataDir: string): number {
  const root = open({ path: dataDir, readOnly: true, maxDbs: 32 });
  try {
    return (root.openDB({ name: 'meta' }).get(FORMAT_KEY) as number | undefined) ?? 1;
  } finally {
    void root.close();
  }
}

/**
 * Brings the store to CURRENT_FORMAT; returns the migrations applied (for the start log).
 * Throws StoreFormatError for a store newer than this build.
 */
export function migrate(dbs: StoreDatabases, migrations: readonly Migration[] = MIGRATIONS, target = CURRENT_FORMAT): Migration[] {
  const applied: Migration[] = [];
  const found = formatOf(dbs);
  if (found !== undefined && found > target) {
    throw new StoreFormatError(
      `the store was written by a newer Gleaner (store format ${found}; this executable reads up to ${target}): run the newer executable, or restore a backup`,
    );
  }
  if (found === undefined && isEmpty(dbs)) {
    dbs.root.transactionSync(() => {
      if (formatOf(dbs) === undefined) dbs.meta.put(FORMAT_KEY, target);
    });
    return applied;
  }
  for (;;) {
    const step = dbs.root.transactionSync(() => {
      const current = formatOf(dbs) ?? 1;
      if (current >= target) return undefined;
      const migration = migrations.find((m) => m.from === current);
      if (!migration) throw new StoreFormatError(`no migration from store format ${current}`);
      migration.run(dbs);
      dbs.meta.put(FORMAT_KEY, migration.to);
      return migration;
    });
    if (!step) return applied;
    applied.push(step);
  }
}
