/**
 * The one helper for in-process retries (upstream fetch attempts, language-model calls): a
 * bounded loop of attempts with a doubling, jittered backoff, a `Retry-After` that wins over
 * the backoff (on 429 and 503), an optional absolute deadline that no wait may cross, and
 * waits that end at once when the work is aborted. No I/O beyond timers.
 *
 * The durable outbox (webhooks, buckets) is not this: it schedules its attempts in LMDB with
 * its own pure delay function (farm/delivery/backoff.ts), across restarts.
 *
 * The caller decides what an attempt's outcome means: `attempt(n)` resolves with the value, or
 * with a failure it classed as retryable or final; what it throws passes through untouched
 * (refusals, size caps, aborts). When the loop stops without a value it throws
 * `RetriesExhausted`, which each caller turns into its own error code and message.
 */

/**
 * The work's one cancellation object, passed through every long await (as Playwright's
 * `Progress`): its state, a hook that runs once on abort, and the deadline by which it is
 * aborted, so a wait that would reach it is refused up front instead of slept into.
 * The farm's task (farm/worker/abort.ts) and the language-model calls implement it.
 */
export interface Abortable {
  readonly aborted: boolean;
  readonly reason: unknown;
  /** Absolute time (epoch ms) the work is aborted at, when it has one. */
  readonly deadline?: number;
  /** Runs `fn` once when aborted (at once if already); returns its removal. */
  onAbort(fn: () => void): () => void;
}

export interface RetryOptions {
  /** Attempts in all, the first included (at least 1). */
  attempts: number;
  /** Backoff before the second attempt (ms); doubles per attempt. */
  baseMs: number;
  /** Largest backoff (ms). */
  maxMs?: number;
  /** Spread of the backoff: a fraction j in [0, 1], the delay is uniform in [d(1-j), d(1+j)]. */
  jitter?: number;
  /** A `Retry-After` longer than this (ms) is not waited for: the loop stops (`why: 'retry-after'`). */
  maxRetryAfterMs?: number;
  /** Absolute time (epoch ms) no wait may reach: the loop stops (`why: 'deadline'`) instead. Default: `abort.deadline`. */
  deadline?: number;
  /** Aborts the loop: a wait in progress rejects with `abort.reason`; its deadline bounds the waits. */
  abort?: Abortable;
  /** Injectable for tests. */
  random?: () => number;
}

/** A failed attempt, as its caller classes it. */
export interface AttemptFailure {
  ok: false;
  /** Whether another attempt may succeed. */
  retry: boolean;
  /** One line naming the failure (`HTTP 503`, `ECONNRESET`), for the final message. */
  reason: string;
  /** The upstream's `Retry-After`, in ms from now (see `retryAfterMs`). */
  retryAfterMs?: number;
  /** The upstream's HTTP status, when it answered. */
  status?: number;
}

export type AttemptOutcome<T> = { ok: true; value: T } | AttemptFailure;

/** Why the loop stopped without a value. */
export type StopReason = 'attempts' | 'final' | 'deadline' | 'retry-after';

export class RetriesExhausted extends Error {
  constructor(
    readonly why: StopReason,
    /** Attempts made. */
    readonly attempts: number,
    /** The last attempt's failure. */
    readonly last: AttemptFailure,
    /** The wait the loop refused (deadline, retry-after), in ms. */
    readonly wantedMs?: number,
  ) {
    super(`retries stopped (${why}) after ${attempts} attempts: ${last.reason}`);
    this.name = 'RetriesExhausted';
  }
}

/** Statuses whose `Retry-After` is honoured (RFC 9110 §10.2.3: 503 and, by RFC 6585, 429). */
export function honoursRetryAfter(status: number): boolean {
  return status === 429 || status === 503;
}

/** A `Retry-After` header (delta-seconds or an HTTP date) in ms from `now`; undefined when absent or unreadable. */
export function retryAfterMs(header: string | string[] | null | undefined, now: number = Date.now()): number | undefined {
  const h = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!h) return undefined;
  if (/^\d+$/.test(h)) return Number(h) * 1000;
  // An HTTP date names its day and month; V8's Date.parse also takes `-1` as the year -1.
  if (!/[a-z]{3}/i.test(h)) return undefined;
  const at = Date.parse(h);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The backoff before attempt `n + 1` after `n + 1` failures (n from 0): base · 2^n, capped, jittered. */
export function backoffMs(n: number, o: Pick<RetryOptions, 'baseMs' | 'maxMs' | 'jitter' | 'random'>): number {
  const ceiling = Math.min(o.maxMs ?? Number.POSITIVE_INFINITY, o.baseMs * 2 ** Math.min(n, 30));
  const j = Math.min(1, Math.max(0, o.jitter ?? 0.5));
  return ceiling * (1 - j + 2 * j * (o.random ?? Math.random)());
}

/**
 * Runs `attempt(0)`, `attempt(1)`, ... until one succeeds, a failure is final, the attempts
 * are spent, or the next wait would cross the deadline; throws `RetriesExhausted` then.
 */
export async function withRetries<T>(opts: RetryOptions, attempt: (n: number) => Promise<AttemptOutcome<T>>): Promise<T> {
  const max = Math.max(1, opts.attempts);
  const deadline = opts.deadline ?? opts.abort?.deadline;
  for (let n = 0; ; n++) {
    if (opts.abort?.aborted) throw opts.abort.reason;
    const outcome = await attempt(n);
    if (outcome.ok) return outcome.value;
    if (!outcome.retry) throw new RetriesExhausted('final', n + 1, outcome);
    if (n + 1 >= max) throw new RetriesExhausted('attempts', n + 1, outcome);
    const asked = outcome.retryAfterMs;
    if (asked !== undefined && opts.maxRetryAfterMs !== undefined && asked > opts.maxRetryAfterMs) {
      throw new RetriesExhausted('retry-after', n + 1, outcome, asked);
    }
    const wait = asked ?? backoffMs(n, opts);
    if (deadline !== undefined && Date.now() + wait >= deadline) throw new RetriesExhausted('deadline', n + 1, outcome, wait);
    await sleep(wait, opts.abort);
  }
}

/** Waits `ms`; rejects with the abort's reason as soon as it is aborted. */
export function sleep(ms: number, abort?: Abortable): Promise<void> {
  return new Promise((resolve, reject) => {
    if (abort?.aborted) return reject(abort.reason);
    let unhook: (() => void) | undefined;
    const t = setTimeout(() => {
      unhook?.();
      resolve();
    }, ms);
    unhook = abort?.onAbort(() => {
      clearTimeout(t);
      reject(abort.reason);
    });
  });
}

/** An AbortSignal as an `Abortable` (the LLM path has a real signal; the fetch path has TaskAbort). */
export function abortableOf(signal: AbortSignal): Abortable {
  return {
    get aborted() {
      return signal.aborted;
    },
    get reason() {
      return signal.reason as unknown;
    },
    onAbort(fn) {
      if (signal.aborted) {
        fn();
        return () => undefined;
      }
      signal.addEventListener('abort', fn, { once: true });
      return () => signal.removeEventListener('abort', fn);
    },
  };
}
