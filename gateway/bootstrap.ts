/**
 * First credentials (DESIGN.md part 2): `GLEANER_BOOTSTRAP_API_KEY` and
 * `GLEANER_BOOTSTRAP_USER` create that key / Job API user on start when absent. Without them,
 * a fresh store (no accounts) gets one generated key and user, printed once.
 */
import { randomBytes } from 'node:crypto';
import type { Config } from '../core/config.js';
import type { Store } from '../core/store/index.js';
import type { Account } from '../core/store/accounts.js';

export interface BootstrapResult {
  /** Credentials generated now; shown to the operator once and never again. */
  generated?: { key: string; user: string; password: string; webhookSecret: string; clientId: number; account: string };
  /** A cluster with no account and no bootstrap settings: nothing was generated (README "Cluster mode"). */
  missing?: boolean;
}

export async function bootstrapCredentials(store: Store, config: Config): Promise<BootstrapResult> {
  const accounts = store.accounts;
  const fresh = accounts.listAccounts().length === 0;
  let owner: Account | undefined = accounts.listAccounts().find((a) => a.admin);
  const ensureOwner = async (): Promise<Account> =>
    // `once`: nodes of a cluster starting together with the same settings share one owner account.
    (owner ??= await accounts.createAccount({ name: 'bootstrap', entitlements: ['*'], admin: true, once: 'bootstrap' }));

  if (config.bootstrapApiKey && !accounts.hasKey(config.bootstrapApiKey)) {
    await accounts.createKey((await ensureOwner()).clientId, 'bootstrap', config.bootstrapApiKey);
  }
  if (config.bootstrapUser) {
    const colon = config.bootstrapUser.indexOf(':');
    if (colon <= 0) throw new Error('GLEANER_BOOTSTRAP_USER must be <user>:<password>');
    const user = config.bootstrapUser.slice(0, colon);
    if (!accounts.hasUser(user)) await accounts.createUser((await ensureOwner()).clientId, user, config.bootstrapUser.slice(colon + 1));
  }
  if (!fresh || config.bootstrapApiKey || config.bootstrapUser) return {};
  // A cluster's nodes would each generate (and print) their own: the operator names the first key instead.
  if (config.cluster) return { missing: true };

  const account = await ensureOwner();
  const { key } = await accounts.createKey(account.clientId, 'generated');
  const password = randomBytes(12).toString('base64url');
  await accounts.createUser(account.clientId, 'gleaner', password);
  return { generated: { key, user: 'gleaner', password, webhookSecret: account.webhookSecret, clientId: account.clientId, account: account.name } };
}
