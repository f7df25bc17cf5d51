/**
 * The outbox and dead letters in LMDB: `outbox` ([dueAt, jobId, kind] → attempt) and
 * `deadletters` ([jobId, kind] → DeadLetter). Outbox entries are written by `LmdbJobs.finish`
 * with the job's final state; here they are taken, rescheduled, or given up.
 *
 * Invariants (each step in one LMDB transaction):
 * - An entry leaves the outbox only when delivered or given up, in the transaction that records
 *   the delivery state on the job; a delivery given up enters the dead-letter list in that same
 *   transaction, and leaves it only by an operator's retry (`redeliver`) or with its job.
 * - A job owed a delivery is kept: each attempt moves the job's expiry to at least
 *   `retentionMs` after the next attempt (or after the failure, for a dead letter), so a
 *   delivery retried for 24 hours never finds its job swept.
 */
import type { DeadLetter, DeliveryOutcome, DeliveryStore } from '../deliveries.js';
import { isFinal, type DeliveryKind, type DeliveryRecord, type JobRecord, type OutboxEntry } from '../jobs.js';
import type { StoreDatabases } from './index.js';
import type { DeadLetterKey, ExpiryKey, OutboxKey } from './jobs.js';

export class LmdbDeliveries implements DeliveryStore {
  constructor(private readonly dbs: StoreDatabases) {}

  private job(id: string): JobRecord | undefined {
    return this.dbs.jobs.get(id) as JobRecord | undefined;
  }

  async dueDeliveries(now: number, limit: number): Promise<OutboxEntry[]> {
    const out: OutboxEntry[] = [];
    for (const { key, value } of this.dbs.outbox.getRange({ end: [now + 1], limit })) {
      const [dueAt, jobId, kind] = key as OutboxKey;
      out.push({ jobId, kind, dueAt, attempt: value as number });
    }
    return out;
  }

  async nextDeliveryDue(): Promise<number | undefined> {
    for (const key of this.dbs.outbox.getKeys({ limit: 1 })) return (key as OutboxKey)[0];
    return undefined;
  }

  pendingCount(): number {
    return this.dbs.outbox.getCount();
  }

  /** The job is kept at least `retentionMs` past the next attempt or the failure. */
  async recordDelivery(entry: OutboxEntry, result: DeliveryOutcome, retentionMs: number): Promise<JobRecord | undefined> {
    return this.dbs.root.transaction(() => {
      const key: OutboxKey = [entry.dueAt, entry.jobId, entry.kind];
      // Recorded already (a repeat): the entry has left the outbox.
      if (this.dbs.outbox.get(key) === undefined) return undefined;
      this.dbs.outbox.remove(key);
      const job = this.job(entry.jobId);
      if (!job) return undefined;
      const now = Date.now();
      const attempts = entry.attempt + 1;
      const since = job.deliveries[entry.kind]?.since ?? job.finishedAt ?? entry.dueAt;
      const record: DeliveryRecord = { state: result.state, attempts, since, ...(result.error ? { lastError: result.error } : {}) };
      if (result.state === 'delivered') record.deliveredAt = now;
      const next: JobRecord = { ...job, deliveries: { ...job.deliveries, [entry.kind]: record }, updatedAt: now };
      if (result.state === 'pending' && result.retryAt !== undefined) {
        this.dbs.outbox.put([result.retryAt, entry.jobId, entry.kind] satisfies OutboxKey, attempts);
        this.keep(next, result.retryAt + retentionMs, retentionMs);
      }
      if (result.state === 'failed') {
        const letter: DeadLetter = { jobId: job.id, kind: entry.kind, clientId: job.clientId, routeId: job.routeId, failedAt: now, since, attempts, error: result.error ?? 'failed' };
        this.dbs.deadletters.put([job.id, entry.kind] satisfies DeadLetterKey, letter);
        this.keep(next, now + retentionMs, retentionMs);
      }
      this.dbs.jobs.put(job.id, next);
      return next;
    });
  }

  /** Moves `job`'s expiry to `until` if that is later (inside a write transaction; the caller stores `job`). */
  private keep(job: JobRecord, until: number, retentionMs: number): void {
    // A running crawl owes page deliveries before it ends: its expiry is set by finish, not here.
    if (!isFinal(job.status)) return;
    const current = job.expiresAt ?? (job.finishedAt ?? job.updatedAt) + retentionMs;
    if (until <= current) return;
    this.dbs.expiry.remove([current, job.id] satisfies ExpiryKey);
    this.dbs.expiry.put([until, job.id] satisfies ExpiryKey, null);
    job.expiresAt = until;
  }

  async deadLetters(): Promise<DeadLetter[]> {
    return [...this.dbs.deadletters.getRange()].map((e) => e.value as DeadLetter);
  }

  /** The retry horizon counts from now; none requeued when the job has no dead letter or is gone. */
  async redeliver(jobId: string, kind: DeliveryKind | undefined, retentionMs: number): Promise<DeliveryKind[]> {
    return this.dbs.root.transaction(() => {
      const job = this.job(jobId);
      const kinds = (kind ? [kind] : (['webhook', 'storage'] as const)).filter((k) => this.dbs.deadletters.get([jobId, k] satisfies DeadLetterKey) !== undefined);
      if (!job || kinds.length === 0) return [];
      const now = Date.now();
      const next: JobRecord = { ...job, deliveries: { ...job.deliveries }, updatedAt: now };
      for (const k of kinds) {
        this.dbs.deadletters.remove([jobId, k] satisfies DeadLetterKey);
        this.dbs.outbox.put([now, jobId, k] satisfies OutboxKey, 0);
        next.deliveries[k] = { state: 'pending', attempts: 0, since: now };
      }
      this.keep(next, now + retentionMs, retentionMs);
      this.dbs.jobs.put(jobId, next);
      return kinds;
    });
  }
}
