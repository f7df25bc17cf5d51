/**
 * `gleaner cluster import [--from DIR]`: copies an embedded store's accounts, keys, Job API
 * users and quotas into the cluster named by `GLEANER_CLUSTER`, as they are: client ids,
 * key hashes, password hashes and webhook secrets are kept, so every existing key, user and
 * webhook signature keeps working. Records already in the cluster are left alone (running it
 * twice imports nothing twice). Jobs, results and usage are not moved (README "Cluster mode").
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Config } from '../core/config.js';
import type { Account } from '../core/store/accounts.js';
import { openStore } from '../core/store/index.js';
import { LmdbStore } from '../core/store/lmdb/index.js';

export const CLUSTER_HELP = `  gleaner cluster import [--from DIR]  (GLEANER_CLUSTER set) copy an embedded store's accounts, keys,
                                        users and quotas into the cluster (DIR: GLEANER_DATA_DIR)
`;

export async function clusterCommand(config: Config, args: string[], out: (line: string) => void): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { from: { type: 'string' } } });
  if (positionals[0] !== 'import') throw new Error(`usage:\n${CLUSTER_HELP}`);
  if (!config.cluster) throw new Error('cluster import writes into the cluster: set GLEANER_CLUSTER');
  const from = resolve(values.from ?? config.dataDir);
  if (!existsSync(join(from, 'data.mdb'))) throw new Error(`no embedded store in ${from} (use --from DIR)`);
  const source = LmdbStore.open(from);
  const target = await openStore(config);
  try {
    const link = target.cluster!;
    const counts: Record<string, [number, number]> = { account: [0, 0], key: [0, 0], user: [0, 0], quota: [0, 0] };
    const copy = async (kind: 'account' | 'key' | 'user' | 'quota', id: string, record: object) => {
      const added = await link.importRecord(kind, id, record);
      counts[kind]![added ? 0 : 1]++;
    };
    const { dbs } = source;
    // A client id the cluster gave to another account (its own bootstrap, say) is a conflict:
    // importing that account's keys would let them act as the cluster's account.
    const conflicts = new Set<number>();
    for (const { key, value } of dbs.accounts.getRange()) {
      const account = value as Account;
      if (await link.importRecord('account', String(key), account)) counts.account![0]++;
      else if (target.accounts.getAccount(account.clientId)?.webhookSecret === account.webhookSecret) counts.account![1]++;
      else conflicts.add(account.clientId);
    }
    const owned = (record: unknown) => !conflicts.has((record as { clientId: number }).clientId);
    for (const { key, value } of dbs.keys.getRange()) if (owned(value)) await copy('key', String(key), value as object);
    for (const { key, value } of dbs.users.getRange()) if (owned(value)) await copy('user', String(key), value as object);
    for (const { key, value } of dbs.quotas.getRange()) if (!conflicts.has(Number(key))) await copy('quota', String(key), value as object);
    for (const [kind, [added, kept]] of Object.entries(counts)) out(`${kind}s: ${added} imported, ${kept} already in the cluster`);
    if (conflicts.size === 0) return 0;
    out(
      `not imported: account(s) ${[...conflicts].join(', ')} with their keys, users and quotas: the cluster has other accounts with these client ids. ` +
        'Import into a new cluster (before any node creates its bootstrap account), or use another GLEANER_CLUSTER_NAMESPACE.',
    );
    return 1;
  } finally {
    await target.close();
    await source.close();
  }
}
