/**
 * Graceful shutdown, in the order that loses nothing: stop accepting (listeners closed, state
 * `draining` so requests already parsed get 503), let in-flight requests finish (they hold
 * admission slots; bounded by the sync deadline), let running jobs finish and be stored
 * (queued ones stay in LMDB for the next start), stop deliveries, then the farm, then the store.
 *
 * All of it within one drain deadline (`drainMs`, the sync deadline): jobs still running then
 * are aborted (they stay queued in LMDB and run after the next start) and the farm is destroyed
 * (its threads terminated, even one stuck in synchronous work), so SIGTERM always ends the
 * process, at most `drainMs` plus the farm's teardown after it.
 */
import type { Logger } from '../core/log.js';
import type { Store } from '../core/store/index.js';
import type { Farm, JobRunner, Outbox } from '../farm/index.js';
import type { Admission } from './admission.js';
import type { InstanceLock } from './instance-lock.js';
import type { Listener } from './listener.js';
import type { Sweeper } from './sweeper.js';

export interface ShutdownParts {
  setDraining(): void;
  listeners: Array<Pick<Listener, 'close'>>;
  admission: Admission;
  drainMs: number;
  sweeper: Sweeper;
  jobs: JobRunner;
  outbox: Outbox;
  farm: Farm;
  store: Store;
  /** The data directory's lock (instance-lock.ts), released once the store is closed. */
  lock: Pick<InstanceLock, 'release'>;
  log: Logger;
}

/** How long aborted jobs and deliveries get to record that they stopped (they end at once when aborted). */
const ABORTED_JOBS_MS = 5000;

/** The service's `close()`: idempotent, every call returns the same promise. */
export function shutdownSequence(parts: ShutdownParts): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () =>
    (closing ??= (async () => {
      parts.setDraining();
      for (const listener of parts.listeners) listener.close();
      const until = Date.now() + parts.drainMs;
      while (parts.admission.total() > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      parts.sweeper.stop();
      const jobsClosed = parts.jobs.close();
      if (!(await within(jobsClosed, until - Date.now()))) {
        parts.log.warn({ running: parts.jobs.stats().running }, 'drain deadline reached: running jobs aborted, they stay queued for the next start');
        parts.jobs.destroy();
        await within(jobsClosed, ABORTED_JOBS_MS);
      }
      const outboxClosed = parts.outbox.close();
      if (!(await within(outboxClosed, until - Date.now()))) {
        parts.log.warn('drain deadline reached: deliveries in flight aborted, they are retried from the outbox');
        parts.outbox.destroy();
        await within(outboxClosed, ABORTED_JOBS_MS);
      }
      if (!(await within(parts.farm.close(), until - Date.now()))) {
        parts.log.warn('drain deadline reached: the farm is stopped with its tasks');
        await parts.farm.destroy();
      }
      await parts.store.close();
      parts.lock.release();
      parts.log.info('gleaner stopped');
    })());
}

/** Whether `p` settles within `ms` (it keeps running either way). */
async function within(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(resolve, Math.max(0, ms), false)));
  try {
    return await Promise.race([p.then(() => true, () => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
