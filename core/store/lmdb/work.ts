/**
 * The work queue of the embedded store: the LMDB `queue` database ([priority, jobId] →
 * clientId) is the durable queue; this hands its jobs to the one consumer of this process.
 * At `consume`, every queued job (running ones included: they ran when the process died) is
 * handed over; afterwards each job is handed over as its `enqueue` commits. Settling and
 * releasing need nothing: the queue entry leaves in `finish`'s transaction. The quota
 * reservations are rebuilt from the queue at `consume` too: it is the service's start.
 */
import type { JobRecord } from '../jobs.js';
import type { WorkConsumer, WorkItem, WorkQueue, WorkSink } from '../work.js';
import type { StoreDatabases } from './index.js';
import type { QueueKey } from './jobs.js';
import { rebuildReservations } from './quotas.js';

export class LmdbWorkQueue implements WorkQueue {
  private sink: WorkSink | undefined;

  constructor(private readonly dbs: StoreDatabases) {}

  consume(sink: WorkSink): WorkConsumer {
    // Set before the queue is read: a job committed meanwhile is handed over twice at worst,
    // and the runner ignores a job it already holds.
    this.sink = sink;
    rebuildReservations(this.dbs);
    const items: WorkItem[] = [...this.dbs.queue.getRange()].map((e) => {
      const id = (e.key as QueueKey)[1];
      return { id, clientId: e.value as number, routeId: (this.dbs.jobs.get(id) as JobRecord | undefined)?.routeId ?? '' };
    });
    sink.deliver(items);
    const stop = (): void => {
      if (this.sink === sink) this.sink = undefined;
    };
    return { recovered: items.length, settle() {}, release() {}, stop };
  }

  /** Called by LmdbJobs.enqueue after its commit. */
  enqueued(jobs: readonly JobRecord[]): void {
    this.sink?.deliver(jobs.map((job) => ({ id: job.id, clientId: job.clientId, routeId: job.routeId })));
  }
}
