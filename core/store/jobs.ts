/**
 * The jobs seam: async job records and their state machine, and their results (implemented by
 * lmdb/jobs.ts).
 *
 * State machine: `pending` → `running` (start; again on a redelivery after a node died) →
 * `done` | `faulted` (finish). Every transition is compare-and-set against the stored state:
 * of two writers, one wins and the other gets `undefined`, so every step is safe to repeat
 * after a redelivery (a finished job is never run, finished or charged again).
 *
 * `finish` is the one operation that stores the final state, the result (unless the worker
 * stored it already), the charge in the usage ledger and the outbox entries: LMDB does it in
 * one transaction; the cluster store makes it idempotent keyed by the job id (the CAS on the
 * job's state decides, the result and charge are keyed writes that a repeat overwrites with the
 * same value).
 *
 * Job and result reads return promises (any node answers any job in cluster mode).
 */
import type { WireError } from '../errors.js';
import type { Mode } from '../registry/types.js';
import { needOf } from '../quota.js';
import type { PageResult, StoredMedia } from '../wire.js';
import type { PageNeed, QuotaReserved } from './quotas.js';
import type { UsageEntry } from './usage.js';

/** `cancelled`: a crawl stopped by DELETE (final, like `done` and `faulted`). */
export type JobStatus = 'pending' | 'running' | 'done' | 'faulted' | 'cancelled';

/** Whether a status is final (no start, no finish after it). */
export function isFinal(status: JobStatus): boolean {
  return status === 'done' || status === 'faulted' || status === 'cancelled';
}
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
  /** When the sweep removes the job; later than `finishedAt + retention` while deliveries are owed. */
  expiresAt?: number;
  /** Upstream status of the first page (spec 2.3 `status`) once done. */
  upstreamStatus?: number;
  error?: WireError;
  /** Runs started (`start`); a job started `GLEANER_JOB_MAX_STARTS` times without finishing is given up. */
  attempts: number;
  /** Queue priority (lower runs first). */
  priority: number;
  batchId?: string;
  deliveries: Partial<Record<DeliveryKind, DeliveryRecord>>;
  /** Free-form fields a front door keeps with the job (Job API echo fields). */
  extra?: Record<string, unknown>;
  /**
   * Pages held against the account's page quotas from `enqueue` until `finish` (quotas.ts);
   * absent: what its parameters ask for (`needOf(params)`). A crawl sets what it admits.
   */
  reserve?: PageNeed;
}

export interface JobResult {
  results: PageResult[];
}

/** A delivery owed, as the outbox hands it out (deliveries.ts). */
export interface OutboxEntry {
  jobId: string;
  kind: DeliveryKind;
  attempt: number;
  dueAt: number;
}

/** How a run ended. `results` undefined: the worker stored them already (ResultWriter). */
export type JobOutcome =
  | { ok: true; upstreamStatus: number; results: PageResult[] | undefined; media?: StoredMedia }
  /** `cancelled`: the final status is `cancelled` (a crawl stopped by DELETE), else `faulted`. */
  | { ok: false; error: WireError; cancelled?: boolean };

export interface JobStore {
  /**
   * Stores the jobs (`pending`), queues them for the work queue (work.ts) and adds their
   * reservations (`reservationOf`) to their accounts' (`QuotaStore.reservedOf`); resolves once
   * durable (LMDB: committed; cluster: the stream acknowledged the publish, message id = job
   * id, so a retried publish cannot duplicate). The 202 leaves after this.
   *
   * All or nothing, and never over an existing job: when any id is already stored, it rejects
   * (INTERNAL_ERROR naming the id), stores and queues none of them, and leaves the stored job
   * as it was.
   */
  enqueue(jobs: JobRecord[]): Promise<void>;
  get(id: string): Promise<JobRecord | undefined>;
  result(id: string): Promise<JobResult | undefined>;
  /**
   * CAS to `running`, counting a start. Undefined when the job is unknown or already final (a
   * redelivery: acknowledge it without running). `started: false` when it was started
   * `maxStarts` times without finishing (a poison job: finish it faulted, do not run it).
   */
  start(id: string, maxStarts: number): Promise<{ job: JobRecord; started: boolean } | undefined>;
  /**
   * CAS to `done` | `faulted` with result, charge (done jobs only), outbox entries and expiry,
   * and the job's reservation released, as one operation: its pages move from held to charged
   * (done) or are given back (faulted) in the same step. Returns the job as stored, or
   * undefined when it was already final (a duplicate run: nothing is written, nothing charged,
   * nothing released twice).
   */
  finish(id: string, outcome: JobOutcome, retentionMs: number, charge?: UsageEntry): Promise<JobRecord | undefined>;
  /** Deletes finished jobs (and results, dead letters) whose retention ended; returns how many. */
  sweep(now: number): Promise<number>;
  /** Jobs queued and not finished: a gauge (cluster: the work stream's count, refreshed every few seconds). */
  queueDepth(): number;
}

/**
 * The result side of `finish`, for workers that write results from their own threads
 * (ScrapeTask.persist): a keyed write, repeated safely by a rerun. Opened with
 * `openResultWriter` (index.ts) in the worker thread.
 */
export interface ResultWriter {
  put(jobId: string, result: JobResult): Promise<void>;
}

/** The pages a job holds against its account's page quotas while it is unfinished. */
export function reservationOf(job: JobRecord): QuotaReserved {
  const need = job.reserve ?? needOf(job.params);
  return { pages: need.pages, rendered: need.rendered ? need.pages : 0 };
}

/**
 * The deliveries a finished job owes: a webhook when it has a callback, a bucket upload when done
 * with storage. A crawl keeps what it fetched whatever its end, so it owes its upload (the pages
 * and the index) when faulted or cancelled too.
 */
export function deliveriesOf(job: JobRecord): DeliveryKind[] {
  const kinds: DeliveryKind[] = [];
  if (typeof job.params.callback_url === 'string') kinds.push('webhook');
  const uploads = job.status === 'done' || (job.routeId === 'crawl' && isFinal(job.status));
  if (uploads && job.params.storage && typeof job.params.storage === 'object') kinds.push('storage');
  return kinds;
}
