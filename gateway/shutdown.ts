/**
 * Graceful shutdown, in the order that loses nothing: stop accepting (listeners closed, state
 * `draining` so requests already parsed get 503), let in-flight requests finish (they hold
 * admission slots; bounded by the sync deadline), let running jobs finish and be stored
 * (queued ones stay in LMDB for the next start), stop deliveries, then the farm, then the store.
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
      await parts.jobs.close();
      await parts.outbox.close();
      await parts.farm.close();
      await parts.store.close();
      parts.lock.release();
      parts.log.info('gleaner stopped');
    })());
}
