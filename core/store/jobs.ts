/**
 * Async jobs, their results, the durable queue and the delivery outbox.
 *
 * Invariants (each kept by doing the writes of one step in one LMDB transaction):
 * - A job is in `jobs` AND `queue` before its 202 leaves (`enqueue` resolves after commit).
 * - `finish` writes the result, sets the final status, removes the queue entry and adds the
 *   outbox entries together: a crash before it leaves the job queued (it runs again after
 *   restart); a crash after it leaves it done (it never runs twice, its result is written once).
 * - Outbox entries are taken, rescheduled and given up by `DeliveryStore` (deliveries.ts).
 */
import type { WireError } from '../errors.js';
import type { Mode } from '../registry/types.js';
import type { PageResult, StoredMedia } from '../wire.js';
import type { StoreDatabases } from './index.js';

export type JobStatus = 'pending' | 'running' | 'done' | 'faulted';
export type DeliveryKind = 'webhook' | 'storage';
export type DeliveryState = 'pending' | 'delivered' | 'failed';

/** Which front door created the job: the Web API or the Job API (their objects differ). */
export type JobApi = 'web' | 'job';

export interface DeliveryRecord {
  state: DeliveryState;
  /** Attempts since `since`. */
  attempts: number;
  lastError?: string;
  deliveredAt?: number;
  /** When the current series of attempts began (the job's finish, or an operator's retry): the retry horizon counts from here. */
  since?: number;
  /** A media download's object, uploaded by the worker: key, bytes and seconds. */
  key?: string;
  size?: number;
  duration?: number;
}

export interface JobRecord {
  id: string;
  clientId: number;
  routeId: string;
  mode: Exclude<Mode, 'sync'>;
  api: JobApi;
  /** Validated parameters of this one job (batch values already split). */
  params: Record<string, unknown>;
  status: JobStatus;
  createdAt: number;
  updatedAt: number;
  finishedAt?: number;
  /** When the sweep removes the job (its key in the expiry index); later than `finishedAt + retention` while deliveries are owed. */
  expiresAt?: number;
  /** Upstream status of the first page (spec 2.3 `status`) once done. */
  upstreamStatus?: number;
  error?: WireError;
  /** Runs started (`start`); a job started `GLEANER_JOB_MAX_STARTS` times without finishing is given up. */
  attempts: number;
  /** Queue priority (lower runs first); part of the queue key. */
  priority: number;
  batchId?: string;
  deliveries: Partial<Record<DeliveryKind, DeliveryRecord>>;
  /** Free-form fields a front door keeps with the job (Job API echo fields). */
  extra?: Record<string, unknown>;
}

export interface JobResult {
  results: PageResult[];
}

export interface OutboxEntry {
  jobId: string;
  kind: DeliveryKind;
  attempt: number;
  dueAt: number;
}

/** Queue keys order jobs by priority then id (ids sort by time). */
type QueueKey = [number, string];
export type OutboxKey = [number, string, DeliveryKind];
export type ExpiryKey = [number, string];
export type DeadLetterKey = [string, DeliveryKind];

export class JobStore {
  constructor(private readonly dbs: StoreDatabases) {}

  /** Commits the jobs and their queue entries; resolves once durable. */
  async enqueue(jobs: JobRecord[]): Promise<void> {
    await this.dbs.root.transaction(() => {
      for (const job of jobs) {
        this.dbs.jobs.put(job.id, job);
        this.dbs.queue.put([job.priority, job.id] satisfies QueueKey, job.clientId);
      }
    });
  }

  get(id: string): JobRecord | undefined {
    return this.dbs.jobs.get(id) as JobRecord | undefined;
  }

  result(id: string): JobResult | undefined {
    return this.dbs.results.get(id) as JobResult | undefined;
  }

  /** Every queued job id with its account, in queue order (startup recovery). */
  queued(): Array<{ id: string; clientId: number }> {
    return [...this.dbs.queue.getRange()].map((e) => ({ id: (e.key as QueueKey)[1], clientId: e.value as number }));
  }

  queueDepth(): number {
    return this.dbs.queue.getCount();
  }

  /**
   * Counts a start and marks the job running, in one transaction. A job already started
   * `maxStarts` times that never finished is not started again (`started: false`): each of
   * those runs ended with the process (kill, crash), so the next may too. Undefined when the
   * job is unknown or already final.
   */
  async start(id: string, maxStarts: number): Promise<{ job: JobRecord; started: boolean } | undefined> {
    return this.dbs.root.transaction(() => {
      const job = this.get(id);
      if (!job || job.status === 'done' || job.status === 'faulted') return undefined;
      if (job.attempts >= maxStarts) return { job, started: false };
      const next: JobRecord = { ...job, status: 'running', attempts: job.attempts + 1, updatedAt: Date.now() };
      this.dbs.jobs.put(id, next);
      return { job: next, started: true };
    });
  }

  /**
   * Final state, result, queue removal, expiry index and outbox entries in one transaction.
   * Returns the job as stored, or undefined when it was already final (a duplicate run).
   */
  async finish(
    id: string,
    outcome: { ok: true; upstreamStatus: number; results: PageResult[] | undefined; media?: StoredMedia } | { ok: false; error: WireError },
    retentionMs: number,
  ): Promise<JobRecord | undefined> {
    return this.dbs.root.transaction(() => {
      const job = this.get(id);
      if (!job || job.status === 'done' || job.status === 'faulted') return undefined;
      const now = Date.now();
      const next: JobRecord = { ...job, status: outcome.ok ? 'done' : 'faulted', updatedAt: now, finishedAt: now, deliveries: { ...job.deliveries } };
      if (outcome.ok) {
        next.upstreamStatus = outcome.upstreamStatus;
        if (outcome.results) this.dbs.results.put(id, { results: outcome.results } satisfies JobResult);
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
      this.dbs.queue.remove([job.priority, id] satisfies QueueKey);
      this.dbs.expiry.put([next.expiresAt, id] satisfies ExpiryKey, null);
      return next;
    });
  }

  /** Deletes finished jobs whose retention ended; returns how many. */
  async sweep(now: number): Promise<number> {
    const expired = [...this.dbs.expiry.getKeys({ end: [now + 1] })] as ExpiryKey[];
    if (expired.length === 0) return 0;
    await this.dbs.root.transaction(() => {
      for (const key of expired) {
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

/** The deliveries a finished job owes: a webhook when it has a callback, a bucket upload when done with storage. */
export function deliveriesOf(job: JobRecord): DeliveryKind[] {
  const kinds: DeliveryKind[] = [];
  if (typeof job.params.callback_url === 'string') kinds.push('webhook');
  if (job.status === 'done' && job.params.storage && typeof job.params.storage === 'object') kinds.push('storage');
  return kinds;
}
