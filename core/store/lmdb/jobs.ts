/**
 * Jobs, results, the durable queue and the expiry index in LMDB.
 *
 * Invariants (each kept by doing the writes of one step in one LMDB transaction):
 * - A job is in `jobs` AND `queue`, and its pages in `reserved`, before its 202 leaves
 *   (`enqueue` resolves after commit). An id already stored is never written over.
 * - `finish` writes the result, sets the final status, charges the usage ledger, releases the
 *   reservation, removes the queue entry and adds the outbox entries together: a crash before
 *   it leaves the job queued (it runs again after restart); a crash after it leaves it done (it
 *   never runs twice, its result is written once, it is charged once).
 * - Outbox entries are taken, rescheduled and given up by LmdbDeliveries (deliveries.ts).
 */
import { GleanerError } from '../../errors.js';
import type { JobOutcome, JobRecord, JobResult, JobStore, DeliveryKind } from '../jobs.js';
import { deliveriesOf, isFinal } from '../jobs.js';
import type { UsageEntry } from '../usage.js';
import type { StoreDatabases } from './index.js';
import { moveReservations } from './quotas.js';
import { addUsage } from './usage.js';

/** Queue keys order jobs by priority then id (ids sort by time). */
export type QueueKey = [number, string];
export type OutboxKey = [number, string, DeliveryKind];
export type ExpiryKey = [number, string];
export type DeadLetterKey = [string, DeliveryKind];

export class LmdbJobs implements JobStore {
  /** `onEnqueued` hands committed jobs to this process's work queue (work.ts). */
  constructor(
    private readonly dbs: StoreDatabases,
    private readonly onEnqueued: (jobs: readonly JobRecord[]) => void = () => {},
    /** Removes a swept job's other records (a crawl's pages and frontier), inside the sweep's transaction. */
    private readonly onSwept: (job: JobRecord) => void = () => {},
  ) {}

  async enqueue(jobs: JobRecord[]): Promise<void> {
    await this.dbs.root.transaction(() => {
      // Checked before anything is written: a throw aborts the transaction, all or nothing.
      const ids = new Set<string>();
      for (const job of jobs) {
        if (ids.has(job.id) || this.dbs.jobs.doesExist(job.id)) {
          throw new GleanerError('INTERNAL_ERROR', `A job with id ${job.id} is already stored; nothing was queued.`);
        }
        ids.add(job.id);
      }
      for (const job of jobs) {
        this.dbs.jobs.put(job.id, job);
        this.dbs.queue.put([job.priority, job.id] satisfies QueueKey, job.clientId);
      }
      moveReservations(this.dbs, jobs, 1);
    });
    this.onEnqueued(jobs);
  }

  /** Synchronous read, for this implementation's own transactions and the work queue. */
  peek(id: string): JobRecord | undefined {
    return this.dbs.jobs.get(id) as JobRecord | undefined;
  }

  async get(id: string): Promise<JobRecord | undefined> {
    return this.peek(id);
  }

  async result(id: string): Promise<JobResult | undefined> {
    return this.dbs.results.get(id) as JobResult | undefined;
  }

  queueDepth(): number {
    return this.dbs.queue.getCount();
  }

  /**
   * A job already started `maxStarts` times that never finished is not started again: each of
   * those runs ended with the process (kill, crash), so the next may too.
   */
  async start(id: string, maxStarts: number): Promise<{ job: JobRecord; started: boolean } | undefined> {
    return this.dbs.root.transaction(() => {
      const job = this.peek(id);
      if (!job || isFinal(job.status)) return undefined;
      if (job.attempts >= maxStarts) return { job, started: false };
      const next: JobRecord = { ...job, status: 'running', attempts: job.attempts + 1, updatedAt: Date.now() };
      this.dbs.jobs.put(id, next);
      return { job: next, started: true };
    });
  }

  async finish(id: string, outcome: JobOutcome, retentionMs: number, charge?: UsageEntry): Promise<JobRecord | undefined> {
    return this.dbs.root.transaction(() => {
      const job = this.peek(id);
      if (!job || isFinal(job.status)) return undefined;
      const now = Date.now();
      const next: JobRecord = { ...job, status: outcome.ok ? 'done' : outcome.cancelled ? 'cancelled' : 'faulted', updatedAt: now, finishedAt: now, deliveries: { ...job.deliveries } };
      if (outcome.ok) {
        next.upstreamStatus = outcome.upstreamStatus;
        if (outcome.results) this.dbs.results.put(id, { results: outcome.results } satisfies JobResult);
        // Faulted work is never charged.
        if (charge) addUsage(this.dbs, charge);
      } else {
        next.error = outcome.error;
      }
      for (const kind of deliveriesOf(next)) {
        // A media download's file is in the bucket already: recorded, not queued.
        const media = outcome.ok && kind === 'storage' ? outcome.media : undefined;
        if (media) {
          next.deliveries.storage = { state: 'delivered', attempts: media.attempts, deliveredAt: now, key: media.key, size: media.size, duration: media.duration };
          continue;
        }
        next.deliveries[kind] = { state: 'pending', attempts: 0, since: now };
        this.dbs.outbox.put([now, id, kind] satisfies OutboxKey, 0);
      }
      next.expiresAt = now + retentionMs;
      this.dbs.jobs.put(id, next);
      // Held until now; charged above when done, given back when faulted.
      if (this.dbs.queue.doesExist([job.priority, id] satisfies QueueKey)) moveReservations(this.dbs, [job], -1);
      this.dbs.queue.remove([job.priority, id] satisfies QueueKey);
      this.dbs.expiry.put([next.expiresAt, id] satisfies ExpiryKey, null);
      return next;
    });
  }

  async sweep(now: number): Promise<number> {
    const expired = [...this.dbs.expiry.getKeys({ end: [now + 1] })] as ExpiryKey[];
    if (expired.length === 0) return 0;
    await this.dbs.root.transaction(() => {
      for (const key of expired) {
        const job = this.peek(key[1]);
        if (job) this.onSwept(job);
        this.dbs.expiry.remove(key);
        this.dbs.jobs.remove(key[1]);
        this.dbs.results.remove(key[1]);
        // A dead letter cannot be redelivered without its job.
        this.dbs.deadletters.remove([key[1], 'webhook'] satisfies DeadLetterKey);
        this.dbs.deadletters.remove([key[1], 'storage'] satisfies DeadLetterKey);
      }
    });
    return expired.length;
  }
}
