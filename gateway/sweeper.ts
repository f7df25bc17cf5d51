/**
 * Retention: finished async jobs older than `GLEANER_RETENTION_MS` are removed from LMDB on a
 * timer (then their ids answer 404). The timer never holds the process open.
 */
import type { Logger } from '../core/log.js';
import type { Store } from '../core/store/index.js';

export interface Sweeper {
  stop(): void;
}

export function startSweeper(store: Store, intervalMs: number, log: Logger): Sweeper {
  // A sweep that outlasts the interval is not started twice.
  let sweeping = false;
  const timer = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    store.jobs
      .sweep(Date.now())
      .then(
        (n) => n > 0 && log.info({ swept: n }, 'expired jobs removed'),
        (err: unknown) => log.error({ err }, 'sweep failed'),
      )
      .finally(() => (sweeping = false));
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
