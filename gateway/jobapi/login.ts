/**
 * Job API logins (HTTP Basic, scrypt-hashed passwords) at a bounded cost to the node.
 *
 * scrypt is deliberately slow (~40 ms) and runs on libuv's thread pool, so a flood of bad
 * passwords is expensive for the node and free for the caller. Four defences, cheapest first:
 *
 * 1. verified credentials are cached for a minute, keyed by a hash of the header (never the
 *    password): polling clients send the same header many times a second;
 * 2. a failed header is cached for `FAILURE_CACHE_MS`: sending it again is 401 at no cost
 *    (the price: a user created with that very password waits that long);
 * 3. failures are limited per user name and per client address in a sliding minute
 *    (`PER_USER`, `PER_ADDRESS`), counting checks still running: past a limit the answer is
 *    429 TOO_MANY_REQUESTS with `Retry-After` (when the oldest failure leaves the window) and
 *    no scrypt runs. The address is the TCP peer: behind a reverse proxy, the proxy's;
 * 4. at most `MAX_CHECKS` scrypt checks run at once (the rest wait in line, at most
 *    `MAX_WAITING`, then 429), so the pool keeps threads for everything else.
 *
 * Main thread only (the maps are not shared). Every map is bounded: cleared past `MAX_KEYS`.
 */
import { createHash } from 'node:crypto';
import { GleanerError } from '../../core/errors.js';
import type { Account, AccountStore } from '../../core/store/accounts.js';

const BASIC = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i;
const SUCCESS_CACHE_MS = 60_000;
export const FAILURE_CACHE_MS = 30_000;
export const WINDOW_MS = 60_000;
/** Failed (or running) checks allowed per user name, and per client address, in a window. */
export const PER_USER = 10;
export const PER_ADDRESS = 20;
/** scrypt checks running at once, and waiting for a turn. */
export const MAX_CHECKS = 2;
const MAX_WAITING = 64;
const MAX_KEYS = 10_000;

/** Counters the node exports (`/metrics`): scrypt checks run, and logins refused by a limit. */
export interface LoginCounters {
  checked(): void;
  limited(by: 'user' | 'address' | 'busy'): void;
}

/** Failure times in the sliding window plus checks still running, for one user or address. */
class FailureWindow {
  private readonly failures = new Map<string, number[]>();
  private readonly running = new Map<string, number>();

  constructor(private readonly limit: number) {}

  /** Seconds until `key` may try again, or 0 when it may now. */
  retryAfter(key: string, now: number): number {
    const times = this.prune(key, now);
    if (times.length + (this.running.get(key) ?? 0) < this.limit) return 0;
    // Full with running checks only: they end within a second or so.
    return times.length === 0 ? 1 : Math.max(1, Math.ceil((times[0] + WINDOW_MS - now) / 1000));
  }

  begin(key: string): void {
    if (this.running.size >= MAX_KEYS) this.running.clear();
    this.running.set(key, (this.running.get(key) ?? 0) + 1);
  }

  end(key: string, failed: boolean, now: number): void {
    const left = (this.running.get(key) ?? 1) - 1;
    if (left > 0) this.running.set(key, left);
    else this.running.delete(key);
    if (!failed) return;
    if (this.failures.size >= MAX_KEYS) this.failures.clear();
    const times = this.prune(key, now);
    times.push(now);
    if (times.length > this.limit) times.shift();
    this.failures.set(key, times);
  }

  private prune(key: string, now: number): number[] {
    const times = this.failures.get(key);
    if (!times) return [];
    while (times.length > 0 && times[0] + WINDOW_MS <= now) times.shift();
    if (times.length === 0) this.failures.delete(key);
    return times;
  }
}

export class BasicLogin {
  private readonly verified = new Map<string, { account: Account; until: number }>();
  private readonly failed = new Map<string, number>();
  private readonly users = new FailureWindow(PER_USER);
  private readonly addresses = new FailureWindow(PER_ADDRESS);
  private checking = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly accounts: Pick<AccountStore, 'verifyUser'>,
    private readonly counters: LoginCounters,
  ) {}

  /**
   * The account of a Basic `Authorization` header, or undefined (401). Throws
   * TOO_MANY_REQUESTS (with `retryAfter` seconds) when a limit refuses the attempt.
   */
  async verify(header: string, address: string): Promise<Account | undefined> {
    const m = BASIC.exec(header);
    if (!m) return undefined;
    const key = createHash('sha256').update(m[1]).digest('base64');
    const now = Date.now();
    const hit = this.verified.get(key);
    if (hit && hit.until > now) return hit.account;
    const failedUntil = this.failed.get(key);
    if (failedUntil !== undefined && failedUntil > now) return undefined;
    const decoded = Buffer.from(m[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon <= 0) return undefined;
    const user = decoded.slice(0, colon);
    this.admit(user, address, now);
    this.users.begin(user);
    this.addresses.begin(address);
    let account: Account | undefined;
    try {
      account = await this.check(user, decoded.slice(colon + 1));
    } finally {
      const end = Date.now();
      this.users.end(user, account === undefined, end);
      this.addresses.end(address, account === undefined, end);
    }
    if (account) {
      if (this.verified.size >= MAX_KEYS) this.verified.clear();
      this.verified.set(key, { account, until: Date.now() + SUCCESS_CACHE_MS });
    } else {
      if (this.failed.size >= MAX_KEYS) this.failed.clear();
      this.failed.set(key, Date.now() + FAILURE_CACHE_MS);
    }
    return account;
  }

  private admit(user: string, address: string, now: number): void {
    const byUser = this.users.retryAfter(user, now);
    const byAddress = this.addresses.retryAfter(address, now);
    if (byUser === 0 && byAddress === 0) return;
    this.counters.limited(byUser > 0 ? 'user' : 'address');
    const retryAfter = Math.max(byUser, byAddress);
    throw new GleanerError('TOO_MANY_REQUESTS', `Too many failed logins ${byUser > 0 ? 'for this user' : 'from this address'}; retry after ${retryAfter} s.`, { retryAfter });
  }

  /** One scrypt check, at most MAX_CHECKS at a time. */
  private async check(user: string, password: string): Promise<Account | undefined> {
    if (this.checking < MAX_CHECKS) {
      this.checking++;
    } else {
      if (this.waiting.length >= MAX_WAITING) {
        this.counters.limited('busy');
        throw new GleanerError('TOO_MANY_REQUESTS', 'Too many logins are being checked; retry in a second.', { retryAfter: 1 });
      }
      // The slot is handed over by the check that ends (`checking` stays as it is).
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.counters.checked();
    try {
      return await this.accounts.verifyUser(user, password);
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.checking--;
    }
  }
}
