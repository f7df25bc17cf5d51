/**
 * Bounded attempts of one page fetch: a network failure, a 5xx or a 429 is retried on the next
 * proxy of the pool after a jittered, doubling backoff; when every attempt failed the page
 * fails with REQUEST_FAILED_AFTER_MANY_RETRIES (spec 7: not charged). Other errors (refused
 * target, size cap, deadline, browser crash) are not this loop's to retry and pass through.
 */
import { GleanerError } from '../../core/errors.js';
import type { ProxyEntry, ProxyRotation } from '../net/proxies.js';

export interface AttemptOptions {
  maxAttempts: number;
  baseMs: number;
  signal: AbortSignal;
  rotation: ProxyRotation;
}

export async function withAttempts<T extends { status: number }>(
  opts: AttemptOptions,
  attempt: (proxy: ProxyEntry | null, n: number) => Promise<T>,
): Promise<T> {
  const max = Math.max(1, opts.maxAttempts);
  let last = '';
  for (let n = 0; n < max; n++) {
    if (opts.signal.aborted) throw opts.signal.reason;
    try {
      const result = await attempt(opts.rotation.pick(n), n);
      if (result.status < 500 && result.status !== 429) return result;
      last = `HTTP ${result.status}`;
    } catch (err) {
      if (!(err instanceof GleanerError) || err.code !== 'UPSTREAM_FAILED') throw err;
      last = err.message;
      if (err.data?.final === true) break;
    }
    if (n < max - 1) await sleep(opts.baseMs * 2 ** n * (0.5 + Math.random()), opts.signal);
  }
  throw new GleanerError('REQUEST_FAILED_AFTER_MANY_RETRIES', `Every attempt to fetch the target failed (last: ${last}).`, {
    attempts: max,
    last,
  });
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(t);
      reject(signal.reason);
    };
    const t = setTimeout(() => {
      signal.removeEventListener('abort', done);
      resolve();
    }, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
