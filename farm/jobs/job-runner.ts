/**
 * The job runner: feeds queued async jobs from the store's work queue (core/store/work.ts) to
 * the farm.
 *
 * - Bounded: at most `concurrency` jobs run at once.
 * - Fair between accounts: one in-memory FIFO per account, served round-robin, so one
 *   account's 10,000-job burst does not starve another's single job.
 * - Capped per route where asked (`routeCap`: the assistants, so a burst of questions does not
 *   get the farm's addresses blocked): a job whose route is at its cap waits, still queued in
 *   the store, in a FIFO of its route and starts when a job of that route finishes.
 * - Sync first: while the farm has queued work (sync requests waiting for a worker), no new
 *   async job is started.
 * - Crash-safe: a job is settled with the work queue only after JobStore.finish stored its
 *   final state, result and charge (one operation), so after kill -9 every pending or running
 *   job is handed over and run again, and a finished job is never finished or charged twice
 *   (start and finish are compare-and-set: a redelivered final job is settled without a run).
 * - Poison jobs: every start is counted in the store before the run; a job started `maxStarts`
 *   times without finishing (each run ended with the process) is not run again but finished
 *   `faulted` with INTERNAL_ERROR (not charged) and logged with its id.
 *
 * This module decides which job starts when; one job's run, finish and feed events are in
 * job-execution.ts.
 */
import type { Logger } from '../../core/log.js';
import type { FeedEvents } from '../../core/store/feed.js';
import type { JobOutcome, JobRecord, JobStore } from '../../core/store/jobs.js';
import type { UsageEntry } from '../../core/store/usage.js';
import type { WorkConsumer, WorkItem, WorkQueue } from '../../core/store/work.js';
import type { ScrapeOutcome, ScrapeTask, Usage } from '../../core/wire.js';
import { JobExecutor } from './job-execution.js';

/**
 * Jobs that are not one farm task: a crawl runs many pages under its own engine
 * (farm/crawl/engine.ts), charges each page as it commits, and ends with an outcome that
 * `finish` stores without a charge. It may run for hours and across restarts, so its starts are
 * not counted against `maxStarts` (its pages are, one by one).
 */
export interface LongJobs {
  owns(routeId: string): boolean;
  /** Resolves with the final outcome; rejects when interrupted by `signal` (the job stays queued). */
  run(job: JobRecord, signal: AbortSignal): Promise<JobOutcome>;
}

/** What the job runner needs of the farm (the Farm satisfies it). */
export interface TaskRunner {
  run(task: ScrapeTask, signal?: AbortSignal): Promise<ScrapeOutcome>;
  stats(): { queued: number };
}

export interface JobRunnerOptions {
  jobs: JobStore;
  /** Where the jobs to run come from. */
  queue: WorkQueue;
  runner: TaskRunner;
  events: FeedEvents;
  log: Logger;
  concurrency: number;
  /** Deadline of one job run (ms). */
  jobTimeoutMs: number;
  retentionMs: number;
  /** Most jobs of a route running at once; 0 or absent: no cap beyond `concurrency`. */
  routeCap?: (routeId: string) => number;
  /** Starts after which a job that never finished is given up (default 3). */
  maxStarts?: number;
  /** The ledger entry of a done job's usage, charged by JobStore.finish with its final state; undefined: not charged. */
  chargeOf?: (job: JobRecord, usage: Usage) => UsageEntry | undefined;
  /** Cluster mode: this node's id, carried by the runner's feed events (which node ran the job). */
  node?: string;
  /** Called after a job is finished, with its usage when it succeeded (metrics, outbox wake-up). */
  onFinished?: (job: JobRecord, usage: Usage | undefined) => void;
  /** Crawls: run by their engine, not as one farm task. */
  longJobs?: LongJobs;
}

/** A queued job and its route (for the per-route cap). */
type Queued = Pick<WorkItem, 'id' | 'routeId'>;

export class JobRunner {
  /** Wakes everyone waiting in close(): only once nothing is in flight. */
  private settleIdle(): void {
    for (const resolve of this.idle) resolve();
    this.idle.clear();
  }

  private readonly perAccount = new Map<number, Queued[]>();
  /** Jobs of a route at its cap, by route, in the order they were reached. */
  private readonly held = new Map<string, Queued[]>();
  private readonly runningByRoute = new Map<string, number>();
  private readonly rotation: number[] = [];
  private readonly running = new Map<string, AbortController>();
  /** Running jobs that are long jobs (crawls). */
  private readonly longIds = new Set<string>();
  /** Ids handed over and not yet settled: a job handed over twice (a redelivery) is held once. */
  private readonly known = new Set<string>();
  /** Running jobs another node holds now (`lost`): their runs stop, and nothing of them is stored here. */
  private readonly lostIds = new Set<string>();
  private consumer: WorkConsumer | undefined;
  private readonly idle = new Set<() => void>();
  private stopped = false;
  private waitingForSync: ReturnType<typeof setTimeout> | undefined;
  private readonly executor: JobExecutor;

  constructor(private readonly opts: JobRunnerOptions) {
    this.executor = new JobExecutor(opts, { consumer: () => this.consumer, stopped: () => this.stopped, lost: (id) => this.lostIds.has(id) });
  }

  /** Consumes the work queue (first the jobs queued or running when the process died); returns how many those were. */
  start(): number {
    this.consumer = this.opts.queue.consume({
      deliver: (items) => {
        for (const item of items) if (!this.known.has(item.id)) this.push(item.clientId, item);
        this.pump();
      },
      room: () => Math.max(0, this.opts.concurrency - this.known.size),
      lost: (id) => this.lose(id),
    });
    return this.consumer.recovered;
  }

  stats(): { running: number; waiting: number } {
    let waiting = 0;
    for (const q of this.perAccount.values()) waiting += q.length;
    for (const q of this.held.values()) waiting += q.length;
    return { running: this.running.size, waiting };
  }

  /**
   * Stops starting jobs and waits for the running ones (they finish and are stored). Long jobs
   * (crawls) are interrupted instead: they stay queued and resume at the next start.
   */
  async close(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.waitingForSync);
    this.consumer?.stop();
    for (const [id, controller] of this.running) if (this.longIds.has(id)) controller.abort();
    while (this.running.size > 0) await new Promise<void>((r) => this.idle.add(r));
    this.releaseHeld();
  }

  /** Aborts running jobs; they stay queued in the store and run again after a restart. */
  destroy(): void {
    this.stopped = true;
    clearTimeout(this.waitingForSync);
    this.consumer?.stop();
    for (const controller of this.running.values()) controller.abort();
    this.releaseHeld();
  }

  /** Another node holds `id` now: its run here is aborted, or, waiting, it is dropped from the queues. */
  private lose(id: string): void {
    const controller = this.running.get(id);
    if (controller) {
      this.lostIds.add(id);
      controller.abort();
      return;
    }
    this.known.delete(id);
    // An emptied account queue stays (`next` drops it in rotation); an emptied route queue goes.
    for (const q of this.perAccount.values()) {
      const i = q.findIndex((j) => j.id === id);
      if (i >= 0) q.splice(i, 1);
    }
    for (const [routeId, q] of this.held) {
      const i = q.findIndex((j) => j.id === id);
      if (i >= 0) q.splice(i, 1);
      if (q.length === 0) this.held.delete(routeId);
    }
  }

  /** Jobs held but not started are given back to the queue. */
  private releaseHeld(): void {
    for (const id of this.known) if (!this.running.has(id)) this.consumer?.release(id);
  }

  private push(clientId: number, job: Queued): void {
    this.known.add(job.id);
    let q = this.perAccount.get(clientId);
    if (!q) {
      this.perAccount.set(clientId, (q = []));
      this.rotation.push(clientId);
    }
    q.push(job);
  }

  private atCap(routeId: string): boolean {
    const cap = this.opts.routeCap?.(routeId) ?? 0;
    return cap > 0 && (this.runningByRoute.get(routeId) ?? 0) >= cap;
  }

  /** The next job that may start: a held one whose route has room, else the next in rotation. */
  private nextReady(): Queued | undefined {
    for (const [routeId, q] of this.held) {
      if (this.atCap(routeId)) continue;
      const job = q.shift()!;
      if (q.length === 0) this.held.delete(routeId);
      return job;
    }
    for (;;) {
      const job = this.next();
      if (!job || !this.atCap(job.routeId)) return job;
      let q = this.held.get(job.routeId);
      if (!q) this.held.set(job.routeId, (q = []));
      q.push(job);
    }
  }

  private next(): Queued | undefined {
    for (let i = 0; i < this.rotation.length; i++) {
      const clientId = this.rotation.shift()!;
      const q = this.perAccount.get(clientId)!;
      const job = q.shift();
      if (q.length > 0) this.rotation.push(clientId);
      else this.perAccount.delete(clientId);
      if (job !== undefined) return job;
    }
    return undefined;
  }

  private pump(): void {
    if (this.stopped) return;
    while (this.running.size < this.opts.concurrency) {
      if (this.opts.runner.stats().queued > 0) {
        // Sync requests are waiting for a worker: let them go first, look again shortly.
        clearTimeout(this.waitingForSync);
        this.waitingForSync = setTimeout(() => this.pump(), 5);
        return;
      }
      const job = this.nextReady();
      if (job === undefined) return;
      const { id, routeId } = job;
      const controller = new AbortController();
      this.running.set(id, controller);
      if (this.opts.longJobs?.owns(routeId)) this.longIds.add(id);
      this.runningByRoute.set(routeId, (this.runningByRoute.get(routeId) ?? 0) + 1);
      this.executor.run(id, routeId, controller.signal)
        .then(
          (settled) => settled && this.consumer?.settle(id),
          (err: unknown) => this.opts.log.error({ err, job_id: id }, 'job runner failed to record a job'),
        )
        .finally(() => {
          this.running.delete(id);
          this.lostIds.delete(id);
          this.longIds.delete(id);
          this.known.delete(id);
          this.runningByRoute.set(routeId, (this.runningByRoute.get(routeId) ?? 1) - 1);
          if (this.running.size === 0) this.settleIdle();
          this.pump();
        });
    }
  }
}
