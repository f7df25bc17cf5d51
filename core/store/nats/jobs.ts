/**
 * Jobs in JetStream: the record in the `<ns>_jobs` KV bucket (CAS on its revision), the
 * queue entry in the `<ns>_work` work-queue stream (work.ts), results in `<ns>_results` (results.ts: KV,
 * or the object store above resultKvMax), the expiry index in `<ns>_expiry`. This module is the
 * job's state machine (enqueue, start, finish, repair); the stored shape, reads, the expiry
 * index and the sweep are job-records.ts.
 *
 * A stored job is `{ j: JobRecord, f?: finish token, r?: result key, c?: charge owed }`:
 * - `finish` writes its result under a key of its own run, then CASes the record to final
 *   naming that key: of two runs finishing at once one wins, and the loser's result is never
 *   the job's (it is deleted). A finish whose CAS landed but whose answer was lost (an
 *   election) recognises its own token on the retry.
 * - After the CAS: expiry entry, outbox entries (msg id per job, kind and series), the
 *   charge (msg id = job id, charges.ts), then the reservation's release (reserved.ts). If the
 *   node dies in between, the work message is not acknowledged; its redelivery finds the job
 *   final and `start` repeats those steps (all keyed, so a repeat changes nothing), then the
 *   runner settles it without a run.
 * - `enqueue` never writes over a stored job: every record is written create-only (tagged with
 *   the call's token, so a create retried through an election recognises its own record)
 *   before any reservation or work message; when one id is taken, the records this call created
 *   are deleted again and it rejects, having queued nothing.
 */
import { randomBytes } from 'node:crypto';
import { GleanerError } from '../../errors.js';
import type { DeliveryKind, JobOutcome, JobRecord, JobStore } from '../jobs.js';
import { deliveriesOf, isFinal as isFinalStatus } from '../jobs.js';
import type { UsageEntry } from '../usage.js';
import type { Charges } from './charges.js';
import { DUPLICATE_WINDOW_MS, isCasConflict, toJson, type Handles } from './connection.js';
import { JobRecords, publishOutbox, type StoredJob } from './job-records.js';
import { publishRetrying, retrying } from './publish.js';
import type { NatsReservations } from './reserved.js';
import { casCreate, casPut } from './cas.js';
import { StreamGauge } from './gauge.js';
import { deleteResult, writeResult } from './results.js';

const isFinal = (job: JobRecord) => isFinalStatus(job.status);

export class NatsJobs extends JobRecords implements JobStore {
  private readonly depth = new StreamGauge(this.h, this.h.names.work);
  /** Jobs whose work message this node's consumer holds (settle acks it); others are purged by finish. */
  held: (id: string) => boolean = () => false;

  constructor(
    h: Handles,
    private readonly charges: Charges,
    reservations: NatsReservations,
    /** Removes a swept job's other records (a crawl's). */
    onSwept?: (job: JobRecord) => Promise<void>,
  ) {
    super(h, reservations, onSwept);
  }

  async enqueue(jobs: JobRecord[]): Promise<void> {
    const ids = new Set<string>();
    for (const job of jobs) {
      if (ids.has(job.id)) throw taken(job.id);
      ids.add(job.id);
    }
    const token = randomBytes(8).toString('hex');
    const created: JobRecord[] = [];
    try {
      // Records first (all of them), then reservations, then the queue entries: a runner never
      // finds a queued job without its record, and a job that can run holds its pages.
      let refused: string | undefined;
      await inChunks(jobs, async (job) => {
        if (await this.create(job, token)) created.push(job);
        else refused ??= job.id;
      });
      if (refused !== undefined) throw taken(refused);
      await inChunks(jobs, (job) => this.reservations.hold(job));
      await inChunks(jobs, (job) => publishRetrying(this.h.js, `${this.h.names.workSubject}.${job.id}`, toJson({ id: job.id, clientId: job.clientId, routeId: job.routeId }), job.id));
    } catch (err) {
      // Nothing stays of a refused or failed call (a work message that did land finds no record: settled without a run).
      await inChunks(created, async (job) => {
        await retrying(() => this.h.jobs.delete(job.id)).catch(() => {});
        await this.reservations.release(job, false).catch(() => {});
      });
      throw err;
    } finally {
      this.depth.stale();
    }
  }

  /** Stores a new job create-only; false when the id is taken by another job (left as it was). */
  private async create(job: JobRecord, token: string): Promise<boolean> {
    try {
      await retrying(() => casCreate(this.h.jobs, job.id, toJson({ j: job, e: token } satisfies StoredJob)));
      return true;
    } catch (err) {
      if (!isCasConflict(err)) throw err;
      // Our own create whose answer was lost (an election) carries this call's token.
      return (await this.read(job.id))?.stored.e === token;
    }
  }

  queueDepth(): number {
    return this.depth.read();
  }

  async start(id: string, maxStarts: number): Promise<{ job: JobRecord; started: boolean } | undefined> {
    for (;;) {
      const current = await this.read(id);
      if (!current) return undefined;
      const { j: job } = current.stored;
      if (isFinal(job)) {
        await this.afterFinish(current.stored, false);
        return undefined;
      }
      if (job.attempts >= maxStarts) return { job, started: false };
      const next: JobRecord = { ...job, status: 'running', attempts: job.attempts + 1, updatedAt: Date.now() };
      try {
        await retrying(() => casPut(this.h.jobs, id, toJson({ ...current.stored, j: next }), current.revision));
        return { job: next, started: true };
      } catch (err) {
        if (!isCasConflict(err)) throw err;
      }
    }
  }

  async finish(id: string, outcome: JobOutcome, retentionMs: number, charge?: UsageEntry): Promise<JobRecord | undefined> {
    const token = randomBytes(8).toString('hex');
    let resultKey: string | undefined;
    try {
      for (;;) {
        const current = await this.read(id);
        if (!current) return undefined;
        if (isFinal(current.stored.j)) {
          if (current.stored.f !== token) return undefined;
          // Our own CAS, whose answer was lost: carry on after it.
          await this.afterFinish(current.stored, true);
          resultKey = undefined;
          return current.stored.j;
        }
        if (outcome.ok && outcome.results && resultKey === undefined) {
          resultKey = `${id}.${token}`;
          await writeResult(this.h, resultKey, { results: outcome.results });
        }
        const stored = finalRecord(current.stored.j, outcome, retentionMs, token, resultKey, charge);
        try {
          await retrying(() => casPut(this.h.jobs, id, toJson(stored), current.revision));
        } catch (err) {
          if (!isCasConflict(err)) throw err;
          continue;
        }
        resultKey = undefined;
        await this.afterFinish(stored, true);
        if (!this.held(id)) await this.unqueue(id);
        return stored.j;
      }
    } finally {
      // A run that lost the CAS leaves no result behind.
      if (resultKey) await deleteResult(this.h, resultKey).catch(() => {});
    }
  }

  /**
   * Runs the steps after the final CAS again for a job that is final (its finisher may have died
   * between the CAS and its charge or outbox publish); nothing for any other job. Called where a
   * job's last delivery is spent (work.ts): no later `start` would find it to repair it.
   */
  async repair(id: string): Promise<void> {
    const current = await this.read(id);
    if (current && isFinal(current.stored.j)) await this.afterFinish(current.stored, false);
  }

  /** The steps after a final CAS, each keyed so that a repeat (a repair after a crash) changes nothing. */
  private async afterFinish(stored: StoredJob, own: boolean): Promise<void> {
    const job = stored.j;
    if (job.expiresAt !== undefined) await this.setExpiry(job.id, undefined, job.expiresAt);
    // Outbox entries and the charge are deduplicated by message id only within the window.
    if ((job.finishedAt ?? 0) >= Date.now() - DUPLICATE_WINDOW_MS / 2) {
      for (const [kind, record] of Object.entries(job.deliveries) as Array<[DeliveryKind, NonNullable<JobRecord['deliveries'][DeliveryKind]>]>) {
        if (record.state !== 'pending' || record.attempts !== 0) continue;
        await publishOutbox(this.h, job.id, kind, 0, record.since ?? job.finishedAt ?? Date.now(), record.since);
      }
      if (stored.c && job.status === 'done') await this.charges.charge(stored.c, `charge.${job.id}`);
    }
    // After the charge: a page may be counted twice for a moment, never not at all.
    await this.reservations.release(job, own);
  }

  /** Removes the job's work message (a job finished without being handed out here). */
  private async unqueue(id: string): Promise<void> {
    await retrying(() => this.h.jsm.streams.purge(this.h.names.work, { filter: `${this.h.names.workSubject}.${id}` })).catch(() => {});
    this.depth.stale();
  }
}

function taken(id: string): GleanerError {
  return new GleanerError('INTERNAL_ERROR', `A job with id ${id} is already stored; nothing was queued.`);
}

/** Runs `op` on every item, 256 at a time; every op of a chunk settles before the first error is thrown. */
async function inChunks<T>(items: readonly T[], op: (item: T) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += 256) {
    const settled = await Promise.allSettled(items.slice(i, i + 256).map(op));
    const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }
}

/** The final record of a job, as `finish` stores it (the same steps as the embedded store). */
function finalRecord(job: JobRecord, outcome: JobOutcome, retentionMs: number, token: string, resultKey: string | undefined, charge: UsageEntry | undefined): StoredJob {
  const now = Date.now();
  const next: JobRecord = { ...job, status: outcome.ok ? 'done' : outcome.cancelled ? 'cancelled' : 'faulted', updatedAt: now, finishedAt: now, deliveries: { ...job.deliveries } };
  if (outcome.ok) next.upstreamStatus = outcome.upstreamStatus;
  else next.error = outcome.error;
  for (const kind of deliveriesOf(next)) {
    const media = outcome.ok && kind === 'storage' ? outcome.media : undefined;
    next.deliveries[kind] = media
      ? { state: 'delivered', attempts: media.attempts, deliveredAt: now, key: media.key, size: media.size, duration: media.duration }
      : { state: 'pending', attempts: 0, since: now };
  }
  next.expiresAt = now + retentionMs;
  return { j: next, f: token, ...(resultKey ? { r: resultKey } : {}), ...(outcome.ok && charge ? { c: charge } : {}) };
}
