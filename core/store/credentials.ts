/**
 * How keys and passwords are stored, shared by every store implementation (a key created on one
 * node verifies on another, and `gleaner cluster import` can copy records as they are).
 *
 * - A generated key is `glk_<id>_<secret>`: the id (16 hex chars) locates the record, the
 *   SHA-256 of the whole key is stored and compared with `timingSafeEqual`, so neither the
 *   lookup nor the comparison leaks the secret through timing, and the store never holds a
 *   usable key. Operator-chosen keys (`GLEANER_BOOTSTRAP_API_KEY`, 16–256 printable ASCII
 *   characters) are located by the first 16 hex digits of their SHA-256 instead.
 * - Job API passwords are hashed with scrypt (per-user salt); verification is constant-time.
 */
import { createHash, randomBytes, scrypt, scryptSync, timingSafeEqual } from 'node:crypto';
import type { Account, KeyInfo, KeyRecord, UserRecord } from './accounts.js';

const GENERATED_KEY = /^glk_([0-9a-f]{16})_[A-Za-z0-9_-]{43}$/;
const ACCEPTABLE_KEY = /^[\x21-\x7e]{16,256}$/;
const SCRYPT_KEYLEN = 32;

export function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** The record id of a key, or undefined when the text cannot be a key at all. */
export function keyId(key: string): string | undefined {
  if (!ACCEPTABLE_KEY.test(key)) return undefined;
  return GENERATED_KEY.exec(key)?.[1] ?? sha256(key).toString('hex').slice(0, 16);
}

/** The record id named by an operator: a key id as listed, or the full key. */
export function keyIdOf(idOrKey: string): string {
  return /^[0-9a-f]{16}$/.test(idOrKey) ? idOrKey : keyId(idOrKey) ?? idOrKey;
}

/** A new key's plaintext and record (a generated key unless the operator chose one). */
export function newKey(clientId: number, label: string, plaintext?: string): { key: string; record: KeyRecord } {
  const key = plaintext ?? `glk_${randomBytes(8).toString('hex')}_${randomBytes(32).toString('base64url')}`;
  const id = keyId(key);
  if (!id) throw new Error('a key must be 16 to 256 printable ASCII characters without spaces');
  return { key, record: { id, clientId, hash: sha256(key), label, createdAt: Date.now(), revokedAt: null } };
}

/** Whether a live record matches the presented key (constant-time). */
export function keyMatches(record: KeyRecord | undefined, presented: string): boolean {
  return record !== undefined && record.revokedAt === null && timingSafeEqual(Buffer.from(record.hash), sha256(presented));
}

/** Most presented keys remembered; past it the cache starts over (a flood of wrong keys is never cached). */
const AUTH_CACHE_MAX = 10_000;

/**
 * Presented key → account, in front of a store's key records: the gateway authenticates every
 * request on its main thread, and the SHA-256 and record read are then done once per key. The
 * store clears it whenever keys or accounts may have changed (revocation, another node's write).
 */
export class AuthCache {
  private readonly byKey = new Map<string, Account>();

  clear(): void {
    this.byKey.clear();
  }

  /** The live account of `presented`, from the cache or from `record` and `account` (a store's reads). */
  authenticate(presented: string, record: (id: string) => KeyRecord | undefined, account: (clientId: number) => Account | undefined): Account | undefined {
    const cached = this.byKey.get(presented);
    if (cached) return cached;
    const id = keyId(presented);
    if (!id) return undefined;
    const found = record(id);
    if (!keyMatches(found, presented)) return undefined;
    const live = account(found!.clientId);
    if (live) {
      if (this.byKey.size >= AUTH_CACHE_MAX) this.byKey.clear();
      this.byKey.set(presented, live);
    }
    return live;
  }
}

export function infoOf(record: KeyRecord): KeyInfo {
  return { id: record.id, clientId: record.clientId, label: record.label, createdAt: record.createdAt, revokedAt: record.revokedAt };
}

export function newUser(clientId: number, username: string, password: string): UserRecord {
  const salt = randomBytes(16);
  return { username, clientId, salt, hash: scryptSync(password, salt, SCRYPT_KEYLEN), createdAt: Date.now() };
}

/**
 * Whether the password is the user's. scrypt is deliberately slow; it runs on libuv's thread
 * pool so the gateway's main thread is not blocked. Unknown users are hashed too, so timing
 * does not reveal which user names exist.
 */
export async function passwordMatches(record: UserRecord | undefined, password: string): Promise<boolean> {
  const salt = record ? Buffer.from(record.salt) : randomBytes(16);
  const derived = await new Promise<Buffer>((resolve, reject) =>
    scrypt(password, salt, SCRYPT_KEYLEN, (err, key) => (err ? reject(err) : resolve(key))),
  );
  return record !== undefined && timingSafeEqual(Buffer.from(record.hash), derived);
}
