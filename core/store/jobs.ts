/**
 * Async jobs, their results, the durable queue and the delivery outbox.
 *
 * Invariants (each kept by doing the writes of one step in one LMDB transaction):
 * - A job is in `jobs` AND `queue` before its 202 leaves (`enqueue` resolves after commit).
 * - `finish` writes the result, sets the final status, removes the queue entry and adds the
 *   outbox entries together: a crash before it leaves the job queued (it runs again after
 *   restart); a crash after it leaves it done (it never runs twice, its result is written once).
 * - Outbox entries are removed only when delivered or given up, in the same transaction that
 *   records the delivery state on the job.
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
  attempts: number;
  lastError?: string;
  deliveredAt?: number;
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
  /** Upstream status of the first page (spec 2.3 `status`) once done. */
  upstreamStatus?: number;
  error?: WireError;
  /** Runs started; a job whose worker died is retried once. */
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
type OutboxKey = [number, string, DeliveryKind];
type ExpiryKey = [number, string];

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

  async markRunning(id: string): Promise<JobRecord | undefined> {
    return this.dbs.root.transaction(() => {
      const job = this.get(id);
      if (!job || job.status === 'done' || job.status === 'faulted') return undefined;
      const next: JobRecord = { ...job, status: 'running', attempts: job.attempts + 1, updatedAt: Date.now() };
      this.dbs.jobs.put(id, next);
      return next;
    });
  }

  /**
   * Final state, result, queue removal, expiry index and outbox entries in one transaction.
   * Returns the job as stored, or undefined when it was already final (a duplicate run).
   */
  async finish(
    id: string,
    outcome: { ok: true; upstreamStatus: number; results: PageResult[]; stored?: StoredMedia } | { ok: false; error: WireError },
    retentionMs: number,
  ): Promise<JobRecord | undefined> {
    return this.dbs.root.transaction(() => {
      const job = this.get(id);
      if (!job || job.status === 'done' || job.status === 'faulted') return undefined;
      const now = Date.now();
      const next: JobRecord = { ...job, status: outcome.ok ? 'done' : 'faulted', updatedAt: now, finishedAt: now, deliveries: { ...job.deliveries } };
      if (outcome.ok) {
        next.upstreamStatus = outcome.upstreamStatus;
        this.dbs.results.put(id, { results: outcome.results } satisfies JobResult);
      } else {
        next.error = outcome.error;
      }
      for (const kind of deliveriesOf(next)) {
        // A media download's file is in the bucket already: recorded, not queued.
        const stored = outcome.ok && kind === 'storage' ? outcome.stored : undefined;
        if (stored) {
          next.deliveries.storage = { state: 'delivered', attempts: stored.attempts, deliveredAt: now, key: stored.key, size: stored.size, duration: stored.duration };
          continue;
        }
        next.deliveries[kind] = { state: 'pending', attempts: 0 };
        this.dbs.outbox.put([now, id, kind] satisfies OutboxKey, 0);
      }
      this.dbs.jobs.put(id, next);
      this.dbs.queue.remove([job.priority, id] satisfies QueueKey);
      this.dbs.expiry.put([now + retentionMs, id] satisfies ExpiryKey, null);
      return next;
    });
  }

  /** Outbox entries due by `now`, oldest first. */
  dueDeliveries(now: number, limit: number): OutboxEntry[] {
    const out: OutboxEntry[] = [];
    for (const { key, value } of this.dbs.outbox.getRange({ end: [now + 1], limit })) {
      const [dueAt, jobId, kind] = key as OutboxKey;
      out.push({ jobId, kind, dueAt, attempt: value as number });
    }
    return out;
  }

  nextDeliveryDue(): number | undefined {
    for (const key of this.dbs.outbox.getKeys({ limit: 1 })) return (key as OutboxKey)[0];
    return undefined;
  }

  /** Records an attempt: delivered/failed removes the entry; otherwise reschedules it. */
  async recordDelivery(entry: OutboxEntry, result: { state: DeliveryState; error?: string; retryAt?: number }): Promise<JobRecord | undefined> {
    return this.dbs.root.transaction(() => {
      this.dbs.outbox.remove([entry.dueAt, entry.jobId, entry.kind] satisfies OutboxKey);
      const job = this.get(entry.jobId);
      if (!job) return undefined;
      const attempts = entry.attempt + 1;
      const record: DeliveryRecord = { state: result.state, attempts, ...(result.error ? { lastError: result.error } : {}) };
      if (result.state === 'delivered') record.deliveredAt = Date.now();
      if (result.state === 'pending' && result.retryAt !== undefined) {
        this.dbs.outbox.put([result.retryAt, entry.jobId, entry.kind] satisfies OutboxKey, attempts);
      }
      const next: JobRecord = { ...job, deliveries: { ...job.deliveries, [entry.kind]: record }, updatedAt: Date.now() };
      this.dbs.jobs.put(job.id, next);
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
