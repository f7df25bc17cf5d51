/**
 * A local replica of a KV bucket, kept by a watch, for the reads that must be synchronous
 * (auth, admission): accounts, keys, users, quotas and the quota totals.
 *
 * - Primed before the store opens: the watch delivers the last value of every key; the replica
 *   is ready once it has seen the stream's last sequence as read after the watch began (any
 *   later write arrives as an update anyway).
 * - Read-your-writes: a write made through this node is applied at once with its revision; the
 *   watch's copy of it (same or older revision) is then ignored, so an older value can never
 *   overwrite a newer one.
 * - A change on any node reaches every replica as fast as NATS delivers it (milliseconds;
 *   "within a second or two" is the promise). If the watch ends (connection lost for longer
 *   than the client's buffers), it is started again from the last revision seen.
 * - Buckets of short-lived keys (`forget`: one key per queued job) drop a deleted key's entry
 *   instead of keeping its tombstone, and remember only the most recent GONE_KEPT deletions
 *   (so a delayed older write of such a key cannot bring it back): memory follows live keys.
 */
import type { KV, KvEntry } from '@nats-io/kv';
import type { Logger } from '../../log.js';

export interface Replica<T> {
  get(key: string): T | undefined;
  /** Entries whose key starts with `prefix`, in key order. */
  list(prefix: string): Array<[string, T]>;
  /** Applies a write this node made (revision from the KV's answer); undefined value: deleted. */
  applied(key: string, revision: number, value: T | undefined): void;
  /** Calls `listener` after every change that came through the watch. */
  onChange(listener: (key: string) => void): void;
  stop(): void;
}

const PRIME_TIMEOUT_MS = 20_000;
/** Deleted keys a `forget` replica remembers (most recent first out last). */
const GONE_KEPT = 100_000;

export interface ReplicaOptions<T> {
  /** Drop deleted keys (see above). */
  forget?: boolean;
  /** Called on every change applied, from the watch or from this node's writes, with the value before and after. */
  onValue?: (key: string, before: T | undefined, after: T | undefined) => void;
}

/** The revision to apply a node's own delete with when its revision is unknown: newer than any write of the key. */
export const DELETED_HERE = Number.MAX_SAFE_INTEGER;

export async function openReplica<T>(kv: KV, decode: (e: KvEntry) => T, log?: Logger, prime = true, opts: ReplicaOptions<T> = {}): Promise<Replica<T>> {
  const values = new Map<string, { revision: number; value: T | undefined }>();
  const gone = new Map<string, number>();
  const listeners: Array<(key: string) => void> = [];
  let stopped = false;
  let lastRevision = 0;
  let stopWatch: (() => void) | undefined;

  const apply = (key: string, revision: number, value: T | undefined): boolean => {
    const current = values.get(key);
    if (current && current.revision >= revision) return false;
    const goneAt = gone.get(key);
    if (goneAt !== undefined && goneAt >= revision) return false;
    if (value === undefined && opts.forget) {
      values.delete(key);
      gone.delete(key);
      gone.set(key, revision);
      if (gone.size > GONE_KEPT) gone.delete(gone.keys().next().value as string);
    } else {
      values.set(key, { revision, value });
    }
    opts.onValue?.(key, current?.value, value);
    return true;
  };

  const watchFrom = async (from: number, primedAt?: (rev: number) => void): Promise<void> => {
    const iter = await kv.watch(from > 0 ? { resumeFromRevision: from + 1 } : {});
    stopWatch = () => iter.stop();
    void (async () => {
      try {
        for await (const e of iter) {
          lastRevision = Math.max(lastRevision, e.revision);
          const value = e.operation === 'PUT' ? decode(e) : undefined;
          if (apply(e.key, e.revision, value)) for (const l of listeners) l(e.key);
          primedAt?.(e.revision);
        }
      } catch (err) {
        log?.warn({ err, bucket: kv.constructor.name }, 'cluster: replica watch ended');
      }
      if (!stopped) {
        // Re-watch from where it ended (the client gave up on the consumer, e.g. a long outage).
        setTimeout(() => void watchFrom(lastRevision).catch((err: unknown) => log?.error({ err }, 'cluster: replica re-watch failed')), 1000).unref();
      }
    })();
  };

  // Primed once the watch has delivered the stream's last sequence at the time it began.
  let primedResolve: () => void = () => {};
  const primed = new Promise<void>((r) => (primedResolve = r));
  let target = Number.POSITIVE_INFINITY;
  let seen = 0;
  await watchFrom(0, (rev) => {
    seen = Math.max(seen, rev);
    if (seen >= target) primedResolve();
  });
  if (!prime) primedResolve();
  const status = await kv.status();
  target = status.streamInfo.state.last_seq;
  if (target === 0 || seen >= target || status.values === 0) primedResolve();
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([primed, new Promise<void>((r) => (timer = setTimeout(r, PRIME_TIMEOUT_MS)))]);
  clearTimeout(timer);

  return {
    get: (key) => values.get(key)?.value,
    list: (prefix) =>
      [...values]
        .filter(([k, v]) => k.startsWith(prefix) && v.value !== undefined)
        .map(([k, v]) => [k, v.value as T] as [string, T])
        .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)),
    applied: (key, revision, value) => void apply(key, revision, value),
    onChange: (l) => void listeners.push(l),
    stop: () => {
      stopped = true;
      stopWatch?.();
    },
  };
}
