/**
 * Bounded attempts of one page fetch: a network failure, a 5xx or a 429 is retried on the next
 * proxy of the pool after a jittered, doubling backoff; when every attempt failed the page
 * fails with REQUEST_FAILED_AFTER_MANY_RETRIES (spec 7: not charged). Other errors (refused
 * target, size cap, deadline, browser crash) are not this loop's to retry and pass through.
 */
import { GleanerError } from '../../core/errors.js';
import type { ProxyEntry, ProxyRotation } from '../net/proxies.js';
import type { Abortable } from './abort.js';

export interface AttemptOptions {
  maxAttempts: number;
  baseMs: number;
  abort: Abortable;
  rotation: ProxyRotation;
}

export async function withAttempts<T extends { status: number }>(
  opts: AttemptOptions,
  attempt: (proxy: ProxyEntry | null, n: number) => Promise<T>,
): Promise<T> {
  const max = Math.max(1, opts.maxAttempts);
  let last = '';
  for (let n = 0; n < max; n++) {
    if (opts.abort.aborted) throw opts.abort.reason;
    try {
      const result = await attempt(opts.rotation.pick(n), n);
      if (result.status < 500 && result.status !== 429) return result;
      last = `HTTP ${result.status}`;
    } catch (err) {
      if (!(err instanceof GleanerError) || err.code !== 'UPSTREAM_FAILED') throw err;
      last = err.message;
      if (err.data?.final === true) break;
    }
    if (n < max - 1) await sleep(opts.baseMs * 2 ** n * (0.5 + Math.random()), opts.abort);
  }
  throw new GleanerError('REQUEST_FAILED_AFTER_MANY_RETRIES', `Every attempt to fetch the target failed (last: ${last}).`, {
    attempts: max,
    last,
  });
}

function sleep(ms: number, abort: Abortable): Promise<void> {
  return new Promise((resolve, reject) => {
    let unhook: (() => void) | undefined;
    const t = setTimeout(() => {
      unhook?.();
      resolve();
    }, ms);
    unhook = abort.onAbort(() => {
      clearTimeout(t);
      reject(abort.reason);
    });
  });
}
