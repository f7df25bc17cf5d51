/**
 * Flow sessions of one worker: the cookies and variables a flow's setup steps gathered (a
 * marketplace session with a delivery address set), reused by later flows with the same key
 * and the same proxy until they expire. A session is bound to its proxy because the upstream
 * ties it to the address it saw.
 *
 * Concurrency: used on this worker's event loop only. Two flows may build the same session at
 * once; the later `save` wins, which is harmless (both are valid sessions).
 */
import { CookieJar, type SerializedCookieJar } from 'tough-cookie';
import type { Vars } from '../../core/targets/flow.js';

interface Saved {
  cookies: SerializedCookieJar;
  vars: Vars;
  /** The identity the session was made with (`ProfileRequest.fresh`): its cookies belong to that device. */
  fresh: number;
  expires: number;
}

/** Sessions kept per worker; the oldest is dropped beyond this. */
const MAX_SESSIONS = 256;

export class Sessions {
  private readonly saved = new Map<string, Saved>();

  private static id(key: string, proxy: string | undefined): string {
    return `${proxy ?? 'direct'}\u0000${key}`;
  }

  /** A copy of a live session (its own jar: flows must not write into each other's). */
  take(key: string, proxy: string | undefined, now = Date.now()): { jar: CookieJar; vars: Vars; fresh: number } | undefined {
    const id = Sessions.id(key, proxy);
    const s = this.saved.get(id);
    if (!s) return undefined;
    if (s.expires <= now) {
      this.saved.delete(id);
      return undefined;
    }
    return { jar: CookieJar.deserializeSync(s.cookies), vars: { ...s.vars }, fresh: s.fresh };
  }

  save(key: string, proxy: string | undefined, jar: CookieJar, vars: Readonly<Vars>, ttlMs: number, fresh = 0, now = Date.now()): void {
    const cookies = jar.serializeSync();
    if (!cookies) return; // only an asynchronous store answers undefined; ours is in memory
    const id = Sessions.id(key, proxy);
    this.saved.delete(id);
    this.saved.set(id, { cookies, vars: { ...vars }, fresh, expires: now + ttlMs });
    if (this.saved.size > MAX_SESSIONS) this.saved.delete(this.saved.keys().next().value as string);
  }

  /** The session did not hold (a location that was not applied): the next attempt starts afresh. */
  drop(key: string, proxy: string | undefined): void {
    this.saved.delete(Sessions.id(key, proxy));
  }
}
