/**
 * Accounts, Web API keys and Job API users.
 *
 * - A generated key is `glk_<id>_<secret>`: the id (16 hex chars) locates the record, the
 *   SHA-256 of the whole key is stored and compared with `timingSafeEqual`, so neither the
 *   lookup nor the comparison leaks the secret through timing, and the store never holds a
 *   usable key. Operator-chosen keys (`GLEANER_BOOTSTRAP_API_KEY`, 16–256 printable ASCII
 *   characters) are located by the first 16 hex digits of their SHA-256 instead.
 * - Job API passwords are hashed with scrypt (per-user salt); verification is constant-time.
 * - Entitlements are route patterns: `*` (everything), `se1/*` (a target), `se1/search`
 *   (one route), `search` (`POST /v1/search`). Admin accounts may open the job feed.
 */
import { createHash, randomBytes, scrypt, scryptSync, timingSafeEqual } from 'node:crypto';
import type { StoreDatabases } from './index.js';

export interface Account {
  clientId: number;
  name: string;
  entitlements: string[];
  admin: boolean;
  /** Secret for signing this account's webhook calls (HMAC-SHA256). */
  webhookSecret: string;
  createdAt: number;
}

export interface KeyRecord {
  id: string;
  clientId: number;
  hash: Buffer;
  label: string;
  createdAt: number;
  revokedAt: number | null;
}

export interface UserRecord {
  username: string;
  clientId: number;
  salt: Buffer;
  hash: Buffer;
  createdAt: number;
}

export type KeyInfo = Omit<KeyRecord, 'hash'>;

const GENERATED_KEY = /^glk_([0-9a-f]{16})_[A-Za-z0-9_-]{43}$/;
const ACCEPTABLE_KEY = /^[\x21-\x7e]{16,256}$/;
const SCRYPT_KEYLEN = 32;

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** The record id of a key, or undefined when the text cannot be a key at all. */
function keyId(key: string): string | undefined {
  if (!ACCEPTABLE_KEY.test(key)) return undefined;
  return GENERATED_KEY.exec(key)?.[1] ?? sha256(key).toString('hex').slice(0, 16);
}

/** Bumped by every revocation, from any process; auth caches compare it on each lookup. */
const KEYS_VERSION = 'keys:version';
const AUTH_CACHE_MAX = 10_000;
/** How often `watchRevocations` reads `keys:version`: a revoked key's sessions end within ~this. */
export const REVOCATION_POLL_MS = 250;

export class AccountStore {
  /**
   * Presented key → account, valid while `keys:version` is unchanged. A hit costs one small LMDB
   * read instead of a SHA-256 and two record decodes; a revoke in any process (the CLI) bumps
   * the version, so the next request re-checks and a revoked key gets 401 at once.
   */
  private readonly authCache = new Map<string, Account>();
  private authCacheVersion = -1;
  private readonly revocationListeners = new Set<() => void>();
  private revocationTimer: NodeJS.Timeout | undefined;

  constructor(private readonly dbs: StoreDatabases) {}

  /** Creates an account with the next numeric client id. */
  async createAccount(opts: { name: string; entitlements?: string[]; admin?: boolean }): Promise<Account> {
    return this.dbs.root.transaction(() => {
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
      return account;
    });
  }

  getAccount(clientId: number): Account | undefined {
    return this.dbs.accounts.get(clientId) as Account | undefined;
  }

  listAccounts(): Account[] {
    return [...this.dbs.accounts.getRange()].map((e) => e.value as Account);
  }

  /** Creates a key and returns its plaintext: the only time it is ever visible. */
  async createKey(clientId: number, label = '', plaintext?: string): Promise<{ key: string; info: KeyInfo }> {
    const key = plaintext ?? `glk_${randomBytes(8).toString('hex')}_${randomBytes(32).toString('base64url')}`;
    const id = keyId(key);
    if (!id) throw new Error('a key must be 16 to 256 printable ASCII characters without spaces');
    const record: KeyRecord = { id, clientId, hash: sha256(key), label, createdAt: Date.now(), revokedAt: null };
    await this.dbs.keys.put(record.id, record);
    return { key, info: infoOf(record) };
  }

  /** The account a presented key belongs to, or undefined for a malformed, unknown or revoked key. */
  authenticate(presented: string): Account | undefined {
    const version = this.keysVersion();
    if (version !== this.authCacheVersion) {
      this.authCache.clear();
      this.authCacheVersion = version;
    }
    const cached = this.authCache.get(presented);
    if (cached) return cached;
    const id = keyId(presented);
    if (!id) return undefined;
    const record = this.dbs.keys.get(id) as KeyRecord | undefined;
    if (!record || record.revokedAt !== null) return undefined;
    if (!timingSafeEqual(Buffer.from(record.hash), sha256(presented))) return undefined;
    const account = this.getAccount(record.clientId);
    if (account) {
      if (this.authCache.size >= AUTH_CACHE_MAX) this.authCache.clear();
      this.authCache.set(presented, account);
    }
    return account;
  }

  /**
   * Calls `listener` after keys were revoked, by any process (the offline CLI included), within
   * about `REVOCATION_POLL_MS`: long-lived sessions (the job feed's sockets) re-check their key
   * then. LMDB has no change notification across processes, so this polls `keys:version`, one
   * small read per tick on one timer shared by all listeners; a cluster store delivers the same
   * through a watch. Returns the unsubscribe function.
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

  hasKey(key: string): boolean {
    const id = keyId(key);
    return id !== undefined && this.dbs.keys.get(id) !== undefined;
  }

  listKeys(): KeyInfo[] {
    return [...this.dbs.keys.getRange()].map((e) => infoOf(e.value as KeyRecord));
  }

  /** Revokes by key id (or the full key); true when a live key was revoked. */
  async revokeKey(idOrKey: string): Promise<boolean> {
    const id = /^[0-9a-f]{16}$/.test(idOrKey) ? idOrKey : keyId(idOrKey) ?? idOrKey;
    return this.dbs.root.transaction(() => {
      const record = this.dbs.keys.get(id) as KeyRecord | undefined;
      if (!record || record.revokedAt !== null) return false;
      this.dbs.keys.put(id, { ...record, revokedAt: Date.now() });
      this.dbs.meta.put(KEYS_VERSION, ((this.dbs.meta.get(KEYS_VERSION) as number | undefined) ?? 0) + 1);
      return true;
    });
  }

  async createUser(clientId: number, username: string, password: string): Promise<void> {
    const salt = randomBytes(16);
    const record: UserRecord = { username, clientId, salt, hash: scryptSync(password, salt, SCRYPT_KEYLEN), createdAt: Date.now() };
    await this.dbs.users.put(username, record);
  }

  hasUser(username: string): boolean {
    return this.dbs.users.get(username) !== undefined;
  }

  /**
   * The account of a Job API user, or undefined. scrypt is deliberately slow; it runs on
   * libuv's thread pool so the gateway's main thread is not blocked.
   */
  async verifyUser(username: string, password: string): Promise<Account | undefined> {
    const record = this.dbs.users.get(username) as UserRecord | undefined;
    // Hash even for unknown users so that timing does not reveal which user names exist.
    const salt = record ? Buffer.from(record.salt) : randomBytes(16);
    const derived = await scryptAsync(password, salt);
    if (!record || !timingSafeEqual(Buffer.from(record.hash), derived)) return undefined;
    return this.getAccount(record.clientId);
  }
}

function infoOf(record: KeyRecord): KeyInfo {
  return { id: record.id, clientId: record.clientId, label: record.label, createdAt: record.createdAt, revokedAt: record.revokedAt };
}

function scryptAsync(password: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, SCRYPT_KEYLEN, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** Whether an entitlement list admits a route id (`search` for POST /v1/search). */
export function entitled(entitlements: readonly string[], routeId: string): boolean {
  for (const pattern of entitlements) {
    if (pattern === '*' || pattern === routeId) return true;
    if (pattern.endsWith('/*') && (routeId === pattern.slice(0, -2) || routeId.startsWith(pattern.slice(0, -1)))) return true;
  }
  return false;
}
