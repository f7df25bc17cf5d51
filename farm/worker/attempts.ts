/**
 * Bounded attempts of one page fetch, on the shared retry helper (core/retry.ts): a network
 * failure, a 5xx or a 429 is retried on the next proxy of the pool after a jittered, doubling
 * backoff — or after the upstream's `Retry-After` on a 429 or 503, when the attempt's result
 * carries it (`retryAfterMs`) and it is no longer than `maxRetryAfterMs`; no wait crosses the
 * task's deadline. When the attempts are spent (or a wait is refused) the page fails with
 * REQUEST_FAILED_AFTER_MANY_RETRIES (spec 7: not charged). Other errors (refused target, size
 * cap, deadline, browser crash) are not this loop's to retry and pass through.
 */
import { GleanerError } from '../../core/errors.js';
import { RetriesExhausted, honoursRetryAfter, withRetries, type AttemptOutcome } from '../../core/retry.js';
import type { ProxyEntry, ProxyRotation } from '../net/proxies.js';
import type { Abortable } from '../../core/retry.js';

/** Longest `Retry-After` a page fetch waits for; a longer one ends the attempts at once. */
export const MAX_RETRY_AFTER_MS = 30_000;

export interface AttemptOptions {
  maxAttempts: number;
  baseMs: number;
  /** The task's cancellation; a wait that would reach its deadline ends the attempts instead. */
  abort: Abortable;
  rotation: ProxyRotation;
  /** Default MAX_RETRY_AFTER_MS. */
  maxRetryAfterMs?: number;
}

/** What an attempt's result may say beyond its status: the upstream's `Retry-After`, in ms. */
export interface AttemptResult {
  status: number;
  retryAfterMs?: number;
}

export async function withAttempts<T extends AttemptResult>(opts: AttemptOptions, attempt: (proxy: ProxyEntry | null, n: number) => Promise<T>): Promise<T> {
  const once = async (n: number): Promise<AttemptOutcome<T>> => {
    let result: T;
    try {
      result = await attempt(opts.rotation.pick(n), n);
    } catch (err) {
      if (!(err instanceof GleanerError) || err.code !== 'UPSTREAM_FAILED') throw err;
      return { ok: false, retry: err.data?.final !== true, reason: err.message };
    }
    if (result.status < 500 && result.status !== 429) return { ok: true, value: result };
    const asked = honoursRetryAfter(result.status) ? result.retryAfterMs : undefined;
    return { ok: false, retry: true, reason: `HTTP ${result.status}`, status: result.status, ...(asked !== undefined ? { retryAfterMs: asked } : {}) };
  };
  try {
    return await withRetries(
      {
        attempts: opts.maxAttempts,
        baseMs: opts.baseMs,
        jitter: 0.5,
        abort: opts.abort,
        maxRetryAfterMs: opts.maxRetryAfterMs ?? MAX_RETRY_AFTER_MS,
      },
      once,
    );
  } catch (err) {
    if (!(err instanceof RetriesExhausted)) throw err;
    const { last } = err;
    const asked = err.why === 'retry-after' || (err.why === 'deadline' && last.retryAfterMs !== undefined) ? `; the target asked to retry in ${Math.ceil((err.wantedMs ?? 0) / 1000)} s` : '';
    throw new GleanerError('REQUEST_FAILED_AFTER_MANY_RETRIES', `Every attempt to fetch the target failed (last: ${last.reason}${asked}).`, {
      attempts: err.attempts,
      last: last.reason,
    });
  }
}
