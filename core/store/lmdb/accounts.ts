/**
 * Accounts, keys and users in LMDB: `accounts` (client id → Account), `keys` (key id →
 * KeyRecord), `users` (name → UserRecord), `meta['seq:client']` (the last client id) and
 * `meta['keys:version']` (bumped by every revocation, from any process).
 */
import { randomBytes } from 'node:crypto';
import type { Account, AccountStore, KeyInfo, KeyRecord, UserRecord } from '../accounts.js';
import { AuthCache, infoOf, keyId, keyIdOf, newKey, newUser, passwordMatches } from '../credentials.js';
import type { StoreDatabases } from './index.js';

/** Bumped by every revocation, from any process; auth caches compare it on each lookup. */
const KEYS_VERSION = 'keys:version';
/** How often `watchRevocations` reads `keys:version`: a revoked key's sessions end within ~this. */
export const REVOCATION_POLL_MS = 250;

export class LmdbAccounts implements AccountStore {
  /**
   * Presented key → account, valid while `keys:version` is unchanged. A hit costs one small LMDB
   * read instead of a SHA-256 and two record decodes; a revoke in any process (the CLI) bumps
   * the version, so the next request re-checks and a revoked key gets 401 at once.
   */
  private readonly authCache = new AuthCache();
  /** The cache's reads, made once (authentication runs on the gateway's main thread per request). */
  private readonly recordOf = (id: string): KeyRecord | undefined => this.dbs.keys.get(id) as KeyRecord | undefined;
  private readonly accountOf = (clientId: number): Account | undefined => this.getAccount(clientId);
  private authCacheVersion = -1;
  private readonly revocationListeners = new Set<() => void>();
  private revocationTimer: NodeJS.Timeout | undefined;

  constructor(private readonly dbs: StoreDatabases) {}

  /**
   * LMDB has no change notification across processes: one timer shared by all listeners reads
   * `keys:version` (one small read a tick) while anyone listens, and calls them when it moved.
   */
  watchRevocations(listener: () => void): () => void {
    this.revocationListeners.add(listener);
    if (!this.revocationTimer) {
      let seen = this.keysVersion();
      this.revocationTimer = setInterval(() => {
        let now: number;
        try {
          now = this.keysVersion();
        } catch {
          return; // the store is closing
        }
        if (now === seen) return;
        seen = now;
        for (const l of this.revocationListeners) l();
      }, REVOCATION_POLL_MS);
      this.revocationTimer.unref();
    }
    return () => {
      this.revocationListeners.delete(listener);
      if (this.revocationListeners.size === 0 && this.revocationTimer) {
        clearInterval(this.revocationTimer);
        this.revocationTimer = undefined;
      }
    };
  }

  private keysVersion(): number {
    return (this.dbs.meta.get(KEYS_VERSION) as number | undefined) ?? 0;
  }

  async createAccount(opts: { name: string; entitlements?: string[]; admin?: boolean; once?: string }): Promise<Account> {
    return this.dbs.root.transaction(() => {
      const earlier = opts.once === undefined ? undefined : (this.dbs.meta.get(`once:${opts.once}`) as number | undefined);
      if (earlier !== undefined && this.getAccount(earlier)) return this.getAccount(earlier)!;
      const clientId = ((this.dbs.meta.get('seq:client') as number | undefined) ?? 0) + 1;
      this.dbs.meta.put('seq:client', clientId);
      const account: Account = {
        clientId,
        name: opts.name,
        entitlements: opts.entitlements ?? ['*'],
        admin: opts.admin ?? false,
        webhookSecret: randomBytes(32).toString('base64url'),
        createdAt: Date.now(),
      };
      this.dbs.accounts.put(clientId, account);
      if (opts.once !== undefined) this.dbs.meta.put(`once:${opts.once}`, clientId);
      return account;
    });
  }

  getAccount(clientId: number): Account | undefined {
    return this.dbs.accounts.get(clientId) as Account | undefined;
  }

  listAccounts(): Account[] {
    return [...this.dbs.accounts.getRange()].map((e) => e.value as Account);
  }

  async createKey(clientId: number, label = '', plaintext?: string): Promise<{ key: string; info: KeyInfo }> {
    const { key, record } = newKey(clientId, label, plaintext);
    await this.dbs.keys.put(record.id, record);
    return { key, info: infoOf(record) };
  }

  authenticate(presented: string): Account | undefined {
    const version = (this.dbs.meta.get(KEYS_VERSION) as number | undefined) ?? 0;
    if (version !== this.authCacheVersion) {
      this.authCache.clear();
      this.authCacheVersion = version;
    }
    return this.authCache.authenticate(presented, this.recordOf, this.accountOf);
  }

  hasKey(key: string): boolean {
    const id = keyId(key);
    return id !== undefined && this.dbs.keys.get(id) !== undefined;
  }

  listKeys(): KeyInfo[] {
    return [...this.dbs.keys.getRange()].map((e) => infoOf(e.value as KeyRecord));
  }

  async revokeKey(idOrKey: string): Promise<boolean> {
    const id = keyIdOf(idOrKey);
    return this.dbs.root.transaction(() => {
      const record = this.dbs.keys.get(id) as KeyRecord | undefined;
      if (!record || record.revokedAt !== null) return false;
      this.dbs.keys.put(id, { ...record, revokedAt: Date.now() });
      this.dbs.meta.put(KEYS_VERSION, ((this.dbs.meta.get(KEYS_VERSION) as number | undefined) ?? 0) + 1);
      return true;
    });
  }

  async createUser(clientId: number, username: string, password: string): Promise<void> {
    await this.dbs.users.put(username, newUser(clientId, username, password));
  }

  hasUser(username: string): boolean {
    return this.dbs.users.get(username) !== undefined;
  }

  async verifyUser(username: string, password: string): Promise<Account | undefined> {
    const record = this.dbs.users.get(username) as UserRecord | undefined;
    if (!(await passwordMatches(record, password))) return undefined;
    return this.getAccount(record!.clientId);
  }
}
