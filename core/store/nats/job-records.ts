/**
 * A job's record in the `<ns>_jobs` KV bucket (jobs.ts): what a stored job holds, its reads,
 * the outbox messages published for it, and the end of its life: the expiry index in
 * `<ns>_expiry` and the sweep that deletes the record with its result and dead letters.
 * Separate from jobs.ts, which holds the job's state machine (enqueue, start, finish and the
 * steps after the final CAS); deliveries.ts moves the expiry of a job it keeps longer.
 */
import type { DeliveryKind, JobRecord, JobResult } from '../jobs.js';
import type { UsageEntry } from '../usage.js';
import { fromJson, isCasConflict, toJson, type Handles } from './connection.js';
import { publishRetrying, retrying } from './publish.js';
import type { NatsReservations } from './reserved.js';
import { deleteResult, readResult } from './results.js';
import { listKeys } from './key-list.js';

const MINUTE = 60_000;

export interface StoredJob {
  j: JobRecord;
  /** The token of the `enqueue` call that created it. */
  e?: string;
  /** The finishing run's token. */
  f?: string;
  /** The result's key when a finish carried it (else the job id: a worker wrote it). */
  r?: string;
  /** A done job's charge, published after the CAS (and again by a repair). */
  c?: UsageEntry;
  /** Claims on delivery attempts (deliveries.ts): attempt, series, until, owner. */
  l?: Partial<Record<DeliveryKind, { a: number; s: number | undefined; u: number; o: string }>>;
}

export function outboxMsgId(jobId: string, kind: DeliveryKind, since: number | undefined): string {
  return `${jobId}.${kind}.${since ?? 0}`;
}

export async function publishOutbox(h: Handles, jobId: string, kind: DeliveryKind, attempt: number, dueAt: number, since: number | undefined): Promise<void> {
  await publishRetrying(h.js, `${h.names.outboxSubject}.${jobId}.${kind}`, toJson({ jobId, kind, attempt, dueAt, since }), `${outboxMsgId(jobId, kind, since)}.${attempt}`);
}

/** What NatsJobs (jobs.ts) reads and sweeps with; its state changes are written there. */
export abstract class JobRecords {
  constructor(
    protected readonly h: Handles,
    protected readonly reservations: NatsReservations,
    /** Removes a swept job's other records (a crawl's). */
    private readonly onSwept: (job: JobRecord) => Promise<void> = async () => {},
  ) {}

  protected async read(id: string): Promise<{ stored: StoredJob; revision: number } | undefined> {
    const e = await retrying(() => this.h.jobs.get(id));
    return e && e.operation === 'PUT' ? { stored: fromJson<StoredJob>(e.value), revision: e.revision } : undefined;
  }

  async get(id: string): Promise<JobRecord | undefined> {
    return (await this.read(id))?.stored.j;
  }

  async result(id: string): Promise<JobResult | undefined> {
    const job = await this.read(id);
    if (!job || job.stored.j.status !== 'done') return undefined;
    return readResult(this.h, job.stored.r ?? id);
  }

  /** Moves the job's expiry entry (minute buckets: the sweep lists one minute at a time). */
  async setExpiry(id: string, from: number | undefined, to: number): Promise<void> {
    if (from !== undefined && Math.floor(from / MINUTE) !== Math.floor(to / MINUTE)) {
      await retrying(() => this.h.expiry.delete(`${Math.floor(from / MINUTE)}.${id}`)).catch(() => {});
    }
    await retrying(() => this.h.expiry.put(`${Math.floor(to / MINUTE)}.${id}`, toJson(to)));
  }

  /** Sweeps whole minutes from the cursor up to now; the cursor moves past a minute once it is entirely in the past. */
  async sweep(now: number): Promise<number> {
    const cursorEntry = await this.h.expiry.get('cursor');
    const cursor = cursorEntry?.operation === 'PUT' ? fromJson<number>(cursorEntry.value) : Math.floor(now / MINUTE) - 60 * 24;
    let swept = 0;
    const last = Math.floor(now / MINUTE);
    for (let minute = cursor; minute <= last; minute++) {
      const keys = await listKeys(this.h.jsm, this.h.names.expiry, `${minute}.*`);
      for (const key of keys) {
        const e = await this.h.expiry.get(key);
        if (!e || e.operation !== 'PUT' || fromJson<number>(e.value) > now) continue;
        if (await this.remove(key.slice(key.indexOf('.') + 1), now)) swept++;
        await this.h.expiry.delete(key);
      }
    }
    // Minutes before this one are done (a minute of margin for clocks that differ between nodes).
    if (last - 1 > cursor) await this.h.expiry.put('cursor', toJson(last - 1));
    return swept;
  }

  /** Deletes an expired job with its result and dead letters; false when it is not expired (kept longer meanwhile). */
  private async remove(id: string, now: number): Promise<boolean> {
    const current = await this.read(id);
    if (!current) return false;
    const { j: job, r } = current.stored;
    if (job.expiresAt === undefined || job.expiresAt > now) return false;
    try {
      await this.h.jobs.delete(id, { previousSeq: current.revision });
    } catch (err) {
      if (isCasConflict(err)) return false;
      throw err;
    }
    await Promise.all([
      deleteResult(this.h, r ?? id),
      ...(r ? [deleteResult(this.h, id)] : []),
      this.h.deadletters.delete(`${id}.webhook`),
      this.h.deadletters.delete(`${id}.storage`),
      this.reservations.forget(job),
      this.onSwept(job),
    ]);
    return true;
  }
}
