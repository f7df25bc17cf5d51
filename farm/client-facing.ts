/**
 * The farm's failures as a client may see them: the pool's internal retry signals and the
 * address guard's private detail turned into documented codes once the pool stops retrying.
 *
 * Separate from pool.ts because it is a pure mapping over error data, with no thread, task or
 * browser state: the pool calls it on the last attempt's error, and it can be read (and
 * changed) against the spec's error table without the pool's concurrency around it.
 */
import { GleanerError } from '../core/errors.js';

/**
 * The farm's failures as a client may see them. BROWSER_CRASHED and UPSTREAM_FAILED are the
 * farm's own retry signals, documented nowhere a client reads: once the farm has stopped
 * retrying, the request failed after its retries (spec 7: REQUEST_FAILED_AFTER_MANY_RETRIES,
 * not charged) and `detail` names the cause. The lost browser's endpoint is dropped on the way
 * (its path is the browser server's only secret).
 */
export function clientFacing(err: GleanerError, attempts: number): GleanerError {
  if (err.code === 'BROWSER_CRASHED') {
    return new GleanerError(
      'REQUEST_FAILED_AFTER_MANY_RETRIES',
      `Rendering the target failed: the browser crashed on each of ${attempts} attempt${attempts === 1 ? '' : 's'} (last: ${sentence(err.message)}).`,
      { cause: 'BROWSER_CRASHED', attempts },
    );
  }
  if (err.code === 'UPSTREAM_FAILED') {
    return new GleanerError('REQUEST_FAILED_AFTER_MANY_RETRIES', `Every attempt to fetch the target failed (last: ${sentence(err.message)}).`, { cause: 'UPSTREAM_FAILED', attempts });
  }
  if (err.code === 'TARGET_FORBIDDEN' && err.data?.refused !== undefined) {
    // The address a name resolved to is logged (above), never told: a caller could map internal DNS.
    const { refused: _refused, ...data } = err.data;
    return new GleanerError('TARGET_FORBIDDEN', err.message, data);
  }
  return err;
}

function sentence(message: string): string {
  return message.replace(/\.$/, '');
}
