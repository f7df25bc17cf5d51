/**
 * Accounts, keys, users and quotas in the `<ns>_accounts` KV bucket, served to the hot path
 * from a local replica (replica.ts):
 *
 *   `seq.client` → last client id (CAS: unique ids cluster-wide)
 *   `account.<clientId>` → Account        `key.<keyId>` → KeyRecord (hash in base64)
 *   `user.<name>` → UserRecord            `quota.<clientId>` → Quota (quotas.ts)
 *   `once.<name>` → client id of an account created once cluster-wide (bootstrap)
 *
 * Writes are CAS where two nodes could race (ids, revocations, `once`), plain puts where the
 * key is the identity (a key's id derives from the key itself). A revocation is applied to this
 * node's replica before `revokeKey` resolves, and reaches every other node through the watch.
 */
import { randomBytes } from 'node:crypto';
import type { KV, KvEntry } from '@nats-io/kv';
import type { Account, AccountStore, KeyInfo, KeyRecord, UserRecord } from '../accounts.js';
import { AuthCache, infoOf, keyId, keyIdOf, newKey, newUser, passwordMatches } from '../credentials.js';
import { fromJson, isCasConflict, keyPart, toJson } from './connection.js';
import type { Replica } from './replica.js';
import { retrying } from './publish.js';
import { casCreate, casPut } from './cas.js';

/** A record as stored (JSON): Buffers as base64. */
type Stored = Record<string, unknown>;

export function decodeRecord(e: KvEntry): Stored {
  const value = fromJson<Stored>(e.value);
  for (const field of ['hash', 'salt']) if (typeof value[field] === 'string') value[field] = Buffer.from(value[field] as string, 'base64');
  return value;
}

export function encodeRecord(record: object): Uint8Array {
  return toJson(record);
}


/** Read-modify-write with compare-and-set; `change` returns undefined to write nothing. */
export async function casUpdate<T>(kv: KV, key: string, change: (current: T | undefined) => T | undefined, decode: (e: KvEntry) => T = (e) => fromJson<T>(e.value)): Promise<{ value: T; revision: number } | undefined> {
  for (let i = 0; ; i++) {
    const entry = await retrying(() => kv.get(key));
    const live = entry && entry.operation === 'PUT' ? entry : undefined;
    const next = change(live ? decode(live) : undefined);
    if (next === undefined) return undefined;
    try {
      // A write retried after a timeout that did land comes back as a conflict: the re-read sees it.
      const revision = await retrying(() => (entry ? casPut(kv, key, toJson(next), entry.revision) : casCreate(kv, key, toJson(next))));
      return { value: next, revision };
    } catch (err) {
      if (!isCasConflict(err) || i > 50) throw err;
    }
  }
}

export class NatsAccounts implements AccountStore {
  /** Presented key → account; cleared by every change to the replica (a revocation anywhere). */
  private readonly authCache = new AuthCache();
  /** The cache's reads, made once (authentication runs on the gateway's main thread per request). */
  private readonly recordOf = (id: string): KeyRecord | undefined => this.keyRecord(id);
  private readonly accountOf = (clientId: number): Account | undefined => this.getAccount(clientId);
  private readonly revocationListeners = new Set<() => void>();

  constructor(
    private readonly kv: KV,
    private readonly replica: Replica<Stored>,
  ) {
    replica.onChange((key) => {
      this.authCache.clear();
      // A key record changed on another node (or the CLI): a revocation, as far as listeners care.
      if (key.startsWith('key.')) this.revoked();
    });
  }

  /**
   * Listeners hear of every change to a key record: another node's through the replica's watch
   * (milliseconds after its write), this node's own `revokeKey` directly (its write reaches the
   * replica before the watch's copy, which is then ignored as not newer).
   */
  watchRevocations(listener: () => void): () => void {
    this.revocationListeners.add(listener);
    return () => void this.revocationListeners.delete(listener);
  }

  private revoked(): void {
    for (const l of this.revocationListeners) l();
  }

  private async put(key: string, record: object): Promise<void> {
    const revision = await retrying(() => this.kv.put(key, encodeRecord(record)));
    this.replica.applied(key, revision, decodeRecord({ value: encodeRecord(record) } as KvEntry));
    this.authCache.clear();
  }

  async createAccount(opts: { name: string; entitlements?: string[]; admin?: boolean; once?: string }): Promise<Account> {
    if (opts.once) {
      const existing = await retrying(() => this.kv.get(`once.${keyPart(opts.once!)}`));
      if (existing?.operation === 'PUT') return this.awaitAccount(fromJson<number>(existing.value));
    }
    const seq = await casUpdate<number>(this.kv, 'seq.client', (n) => (n ?? 0) + 1);
    const account: Account = {
      clientId: seq!.value,
      name: opts.name,
      entitlements: opts.entitlements ?? ['*'],
      admin: opts.admin ?? false,
      webhookSecret: randomBytes(32).toString('base64url'),
      createdAt: Date.now(),
    };
    if (opts.once) {
      // Of nodes racing to create the same account, the first `create` wins; the others use its account.
      try {
        await retrying(() => casCreate(this.kv, `once.${keyPart(opts.once!)}`, toJson(account.clientId)));
      } catch (err) {
        if (!isCasConflict(err)) throw err;
        const winner = fromJson<number>((await retrying(() => this.kv.get(`once.${keyPart(opts.once!)}`)))!.value);
        // Our own create, whose answer was lost, comes back as "exists": carry on.
        if (winner !== account.clientId) return this.awaitAccount(winner);
      }
    }
    await this.put(`account.${account.clientId}`, account);
    return account;
  }

  /** The account another node is creating (its `once` marker is written before the account). */
  private async awaitAccount(clientId: number): Promise<Account> {
    for (let i = 0; i < 200; i++) {
      const entry = await retrying(() => this.kv.get(`account.${clientId}`));
      if (entry?.operation === 'PUT') {
        this.replica.applied(entry.key, entry.revision, decodeRecord(entry));
        return decodeRecord(entry) as unknown as Account;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`account ${clientId} was claimed but never written`);
  }

  getAccount(clientId: number): Account | undefined {
    return this.replica.get(`account.${clientId}`) as Account | undefined;
  }

  listAccounts(): Account[] {
    return this.replica
      .list('account.')
      .map(([, v]) => v as unknown as Account)
      .sort((a, b) => a.clientId - b.clientId);
  }

  async createKey(clientId: number, label = '', plaintext?: string): Promise<{ key: string; info: KeyInfo }> {
    const { key, record } = newKey(clientId, label, plaintext);
    await this.put(`key.${record.id}`, { ...record, hash: record.hash.toString('base64') });
    return { key, info: infoOf(record) };
  }

  private keyRecord(id: string): KeyRecord | undefined {
    return this.replica.get(`key.${id}`) as KeyRecord | undefined;
  }

  authenticate(presented: string): Account | undefined {
    return this.authCache.authenticate(presented, this.recordOf, this.accountOf);
  }

  hasKey(key: string): boolean {
    const id = keyId(key);
    return id !== undefined && this.keyRecord(id) !== undefined;
  }

  listKeys(): KeyInfo[] {
    return this.replica.list('key.').map(([, v]) => infoOf(v as unknown as KeyRecord));
  }

  async revokeKey(idOrKey: string): Promise<boolean> {
    const id = keyIdOf(idOrKey);
    const done = await casUpdate<Stored>(
      this.kv,
      `key.${id}`,
      (record) => (record && record.revokedAt === null ? { ...record, revokedAt: Date.now() } : undefined),
      (e) => fromJson<Stored>(e.value),
    );
    if (!done) return false;
    this.replica.applied(`key.${id}`, done.revision, decodeRecord({ value: toJson(done.value) } as KvEntry));
    this.authCache.clear();
    this.revoked();
    return true;
  }

  async createUser(clientId: number, username: string, password: string): Promise<void> {
    const user = newUser(clientId, username, password);
    await this.put(`user.${keyPart(username)}`, { ...user, salt: user.salt.toString('base64'), hash: user.hash.toString('base64') });
  }

  hasUser(username: string): boolean {
    return this.replica.get(`user.${keyPart(username)}`) !== undefined;
  }

  async verifyUser(username: string, password: string): Promise<Account | undefined> {
    const record = this.replica.get(`user.${keyPart(username)}`) as UserRecord | undefined;
    if (!(await passwordMatches(record, password))) return undefined;
    return this.getAccount(record!.clientId);
  }

  /** `gleaner cluster import`: a record as the embedded store holds it, kept as it is (ids, hashes, secrets); false when the key exists. */
  async importRecord(kind: 'account' | 'key' | 'user' | 'quota', id: string, record: object): Promise<boolean> {
    const stored: Record<string, unknown> = { ...record };
    for (const field of ['hash', 'salt']) if (Buffer.isBuffer(stored[field]) || stored[field] instanceof Uint8Array) stored[field] = Buffer.from(stored[field] as Uint8Array).toString('base64');
    const key = `${kind}.${kind === 'user' ? keyPart(id) : id}`;
    try {
      const revision = await casCreate(this.kv, key, toJson(stored));
      this.replica.applied(key, revision, decodeRecord({ value: toJson(stored) } as KvEntry));
    } catch (err) {
      if (isCasConflict(err)) return false;
      throw err;
    }
    if (kind === 'account') {
      const clientId = (record as Account).clientId;
      await casUpdate<number>(this.kv, 'seq.client', (n) => ((n ?? 0) >= clientId ? undefined : clientId));
    }
    return true;
  }
}
