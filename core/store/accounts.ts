/**
 * The accounts seam: accounts, Web API keys and Job API users (implemented by lmdb/accounts.ts).
 *
 * - Writes return promises (remote in cluster mode). Reads that every request makes (auth,
 *   the account of a key) are synchronous: LMDB reads are memory-mapped and see other
 *   processes' commits at once; the cluster store serves them from a local replica of its
 *   accounts/keys/users buckets kept by a KV watch and primed before the store opens, so a
 *   revocation reaches every node within a second or two.
 * - Keys and passwords are hashed the same way by every implementation (credentials.ts).
 * - Entitlements are route patterns: `*` (everything), `se1/*` (a target), `se1/search`
 *   (one route), `search` (`POST /v1/search`). Admin accounts may open the job feed.
 */

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

export interface AccountStore {
  /**
   * Creates an account with the next numeric client id (unique store-wide). With `once`, the
   * account is created once per store under that name: a second call (another node starting
   * with the same bootstrap settings, at the same moment) returns the first one's account.
   */
  createAccount(opts: { name: string; entitlements?: string[]; admin?: boolean; once?: string }): Promise<Account>;
  /** Creates a key and returns its plaintext: the only time it is ever visible. */
  createKey(clientId: number, label?: string, plaintext?: string): Promise<{ key: string; info: KeyInfo }>;
  /** Revokes by key id (or the full key); true when a live key was revoked. */
  revokeKey(idOrKey: string): Promise<boolean>;
  createUser(clientId: number, username: string, password: string): Promise<void>;
  /** The account of a Job API user, or undefined (scrypt off the main thread; constant-time). */
  verifyUser(username: string, password: string): Promise<Account | undefined>;

  /** Hot path, synchronous: the account a presented key belongs to; undefined for a malformed, unknown or revoked key. */
  authenticate(presented: string): Account | undefined;
  getAccount(clientId: number): Account | undefined;
  listAccounts(): Account[];
  hasKey(key: string): boolean;
  listKeys(): KeyInfo[];
  hasUser(username: string): boolean;
  /**
   * Calls `listener` after keys were revoked, by any process (the offline CLI included), within
   * about a quarter second: long-lived sessions (the job feed's sockets) re-check their key
   * then. Returns the unsubscribe function. LMDB polls its revocation counter; a cluster store
   * delivers the same from a watch.
   */
  watchRevocations(listener: () => void): () => void;
}

/** Whether an entitlement list admits a route id (`search` for POST /v1/search). */
export function entitled(entitlements: readonly string[], routeId: string): boolean {
  for (const pattern of entitlements) {
    if (pattern === '*' || pattern === routeId) return true;
    if (pattern.endsWith('/*') && (routeId === pattern.slice(0, -2) || routeId.startsWith(pattern.slice(0, -1)))) return true;
  }
  return false;
}
