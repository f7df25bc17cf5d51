/**
 * Quota reservations on NATS (core/store/quotas.ts `reservedOf`; README "Quota reservations
 * and ids"): the `<ns>_reserved` KV bucket holds one key per queued or running job,
 * `r.<clientId>.<jobId>` → `{pages, rendered}` (`reservationOf(job)`).
 *
 * - `enqueue` puts the keys after the job records and before the work messages: a job that can
 *   run holds its pages. `finish` deletes its job's key after the final CAS (after the charge,
 *   so a page is at worst briefly counted twice, never dropped); `start`'s repair of a final job
 *   deletes it again when still present, so a node dying between the CAS and the delete cannot
 *   leak it; the sweep purges the key (and its delete marker) with the job.
 * - Keyed per job: a repeated put or delete changes nothing, and what is held is always exactly
 *   the set of unfinished jobs' keys (no counter to drift, nothing to rebuild at start).
 * - `reservedOf` is synchronous: sums per account kept by a local replica of the bucket, moved
 *   on every change it applies (this node's writes at once, other nodes' through the watch,
 *   within a second or two). Deleted keys are dropped from memory (`forget`).
 */
import type { KV, KvEntry } from '@nats-io/kv';
import type { Logger } from '../../log.js';
import { reservationOf, type JobRecord } from '../jobs.js';
import { noReservation, type QuotaReserved } from '../quotas.js';
import { fromJson, toJson, type Handles } from './connection.js';
import { retrying } from './publish.js';
import { DELETED_HERE, openReplica, type Replica } from './replica.js';

const keyOf = (job: Pick<JobRecord, 'clientId' | 'id'>) => `r.${job.clientId}.${job.id}`;
const clientOf = (key: string) => Number(key.split('.')[1]);

export class NatsReservations {
  private readonly sums = new Map<number, QuotaReserved>();
  private replica!: Replica<QuotaReserved>;

  private constructor(private readonly h: Pick<Handles, 'jsm' | 'reserved' | 'names'>) {}

  static async open(h: Pick<Handles, 'jsm' | 'reserved' | 'names'>, log?: Logger): Promise<NatsReservations> {
    const r = new NatsReservations(h);
    r.replica = await openReplica<QuotaReserved>(h.reserved, (e: KvEntry) => fromJson<QuotaReserved>(e.value), log, true, {
      forget: true,
      onValue: (key, before, after) => r.move(clientOf(key), before, after),
    });
    return r;
  }

  private move(clientId: number, before: QuotaReserved | undefined, after: QuotaReserved | undefined): void {
    const sum = this.sums.get(clientId) ?? noReservation();
    const next = {
      pages: sum.pages - (before?.pages ?? 0) + (after?.pages ?? 0),
      rendered: sum.rendered - (before?.rendered ?? 0) + (after?.rendered ?? 0),
    };
    if (next.pages <= 0 && next.rendered <= 0) this.sums.delete(clientId);
    else this.sums.set(clientId, next);
  }

  reservedOf(clientId: number): QuotaReserved {
    const sum = this.sums.get(clientId);
    return sum ? { ...sum } : noReservation();
  }

  /** Holds the job's pages (a keyed put: a repeat changes nothing). */
  async hold(job: JobRecord): Promise<void> {
    const value = reservationOf(job);
    const revision = await retrying(() => this.h.reserved.put(keyOf(job), toJson(value)));
    this.replica.applied(keyOf(job), revision, value);
  }

  /** Gives the job's pages back; `always`: even when this node's replica does not show them (finish). */
  async release(job: Pick<JobRecord, 'clientId' | 'id'>, always: boolean): Promise<void> {
    const key = keyOf(job);
    if (!always && this.replica.get(key) === undefined) return;
    await retrying(() => this.h.reserved.delete(key));
    this.replica.applied(key, DELETED_HERE, undefined);
  }

  /** The sweep: removes the job's key and its delete marker from the bucket for good. */
  async forget(job: Pick<JobRecord, 'clientId' | 'id'>): Promise<void> {
    const key = keyOf(job);
    await retrying(() => this.h.jsm.streams.purge(`KV_${this.h.names.reserved}`, { filter: `$KV.${this.h.names.reserved}.${key}`, keep: 0 }));
    this.replica.applied(key, DELETED_HERE, undefined);
  }

  stop(): void {
    this.replica.stop();
  }
}
