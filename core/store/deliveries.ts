/**
 * The delivery seam: the outbox (webhook calls and bucket uploads owed by finished jobs) and the
 * dead-letter list (implemented by lmdb/deliveries.ts; the cluster store uses a stream with a
 * backoff consumer). Entries enter the outbox in `JobStore.finish`; the outbox runner
 * (farm/jobs/outbox.ts) takes due ones, attempts them and records the outcome here.
 *
 * Guarantees of every implementation:
 * - An entry is handed out until its attempt is recorded (at least once; receivers dedupe on
 *   `Gleaner-Delivery`). Recording the same entry twice records it once (a redelivered entry
 *   already recorded: `recordDelivery` returns undefined).
 * - A delivery given up enters the dead-letter list with the job's delivery state, and leaves
 *   it only by `redeliver` or with its job.
 * - A job owed a delivery is kept at least `retentionMs` past its next attempt (or the
 *   failure), so a delivery retried for 24 hours never finds its job swept.
 */
import type { DeliveryKind, DeliveryState, JobRecord, OutboxEntry } from './jobs.js';

export type { OutboxEntry };

/** A delivery that failed for good, kept until an operator retries it or its job expires. */
export interface DeadLetter {
  jobId: string;
  kind: DeliveryKind;
  clientId: number;
  routeId: string;
  /** When it was given up. */
  failedAt: number;
  /** When its series of attempts began. */
  since: number;
  attempts: number;
  error: string;
}

export interface DeliveryOutcome {
  state: DeliveryState;
  error?: string;
  /** With `pending`: when to try again. */
  retryAt?: number;
}

export interface DeliveryStore {
  /** Entries due by `now`, oldest first, at most `limit` (cluster: a pull from the outbox consumer). */
  dueDeliveries(now: number, limit: number): Promise<OutboxEntry[]>;
  /** When the next entry is due, when the store knows (cluster: undefined; the runner polls). */
  nextDeliveryDue(): Promise<number | undefined>;
  /**
   * Records an attempt: `delivered`/`failed` remove the entry (`failed`: into the dead-letter
   * list), `pending` reschedules it for `retryAt`. Returns the job as stored; undefined when
   * the job is gone or the entry was recorded already.
   */
  recordDelivery(entry: OutboxEntry, result: DeliveryOutcome, retentionMs: number): Promise<JobRecord | undefined>;
  /** The dead-letter list, by job id (oldest first). */
  deadLetters(): Promise<DeadLetter[]>;
  /**
   * An operator's retry: dead letters of `jobId` (one `kind`, or all) back into the outbox, due
   * now, as a new series of attempts. Returns the kinds requeued.
   */
  redeliver(jobId: string, kind: DeliveryKind | undefined, retentionMs: number): Promise<DeliveryKind[]>;
  /** Entries in the outbox: a gauge (cluster: refreshed every few seconds). */
  pendingCount(): number;
}
