/**
 * The dispatcher: feeds queued async jobs from the durable LMDB queue to the farm.
 *
 * - Bounded: at most `concurrency` jobs run at once.
 * - Fair between accounts: one in-memory FIFO per account, served round-robin, so one
 *   account's 10,000-job burst does not starve another's single job.
 * - Sync first: while the farm has queued work (sync requests waiting for a worker), no new
 *   async job is started.
 * - Crash-safe: the queue entry leaves LMDB only in the transaction that stores the result
 *   (JobStore.finish), so after kill -9 every pending or running job is loaded and run again,
 *   and a finished job is never finished twice.
 */
import type { EventBus } from '../../core/events.js';
import { toWireError } from '../../core/errors.js';
import type { Logger } from '../../core/log.js';
import type { JobRecord, JobStore } from '../../core/store/jobs.js';
import type { ScrapeOutcome, ScrapeTask, Usage } from '../../core/wire.js';

/** What the dispatcher needs of the farm (the Farm satisfies it). */
export interface TaskRunner {
  run(task: ScrapeTask, signal?: AbortSignal): Promise<ScrapeOutcome>;
  stats(): { queued: number };
}

export interface DispatcherOptions {
  jobs: JobStore;
  runner: TaskRunner;
  events: EventBus;
  log: Logger;
  concurrency: number;
  /** Deadline of one job run (ms). */
  jobTimeoutMs: number;
  retentionMs: number;
  /** Called after a job is finished, with its usage when it succeeded (ledger, outbox wake-up). */
  onFinished?: (job: JobRecord, usage: Usage | undefined) => void;
}

export class Dispatcher {
  /** Wakes everyone waiting in close(): only once nothing is in flight. */
  private settleIdle(): void {
    for (const resolve of this.idle) resolve();
    this.idle.clear();
  }

  private readonly perAccount = new Map<number, string[]>();
  private readonly rotation: number[] = [];
  private readonly running = new Map<string, AbortController>();
  private readonly idle = new Set<() => void>();
  private stopped = false;
  private waitingForSync: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly opts: DispatcherOptions) {}

  /** Loads every queued job (including those running when the process died) and starts. */
  start(): number {
    const queued = this.opts.jobs.queued();
    for (const { id, clientId } of queued) this.push(clientId, id);
    this.pump();
    return queued.length;
  }

  /** Jobs must already be committed (JobStore.enqueue) before they are handed over. */
  accept(jobs: readonly JobRecord[]): void {
    for (const job of jobs) this.push(job.clientId, job.id);
    this.pump();
  }

  stats(): { running: number; waiting: number } {
    let waiting = 0;
    for (const q of this.perAccount.values()) waiting += q.length;
    return { running: this.running.size, waiting };
  }

  /** Stops starting jobs and waits for the running ones (they finish and are stored). */
  async close(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.waitingForSync);
    while (this.running.size > 0) await new Promise<void>((r) => this.idle.add(r));
  }

  /** Aborts running jobs; they stay queued in LMDB and run again after a restart. */
  destroy(): void {
    this.stopped = true;
    clearTimeout(this.waitingForSync);
    for (const controller of this.running.values()) controller.abort();
  }

  private push(clientId: number, id: string): void {
    let q = this.perAccount.get(clientId);
    if (!q) {
      this.perAccount.set(clientId, (q = []));
      this.rotation.push(clientId);
    }
    q.push(id);
  }

  private next(): string | undefined {
    for (let i = 0; i < this.rotation.length; i++) {
      const clientId = this.rotation.shift()!;
      const q = this.perAccount.get(clientId)!;
      const id = q.shift();
      if (q.length > 0) this.rotation.push(clientId);
      else this.perAccount.delete(clientId);
      if (id !== undefined) return id;
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
      const id = this.next();
      if (id === undefined) return;
      const controller = new AbortController();
      this.running.set(id, controller);
      this.runOne(id, controller.signal)
        .catch((err: unknown) => this.opts.log.error({ err, job_id: id }, 'dispatcher failed to record a job'))
        .finally(() => {
          this.running.delete(id);
          if (this.running.size === 0) this.settleIdle();
          this.pump();
        });
    }
  }

  private async runOne(id: string, signal: AbortSignal): Promise<void> {
    const job = await this.opts.jobs.markRunning(id);
    if (!job) return; // already final (a duplicate queue entry) or swept
    const { events } = this.opts;
    events.publish({ type: 'started', jobId: id, clientId: job.clientId, routeId: job.routeId, at: Date.now(), ...(job.batchId ? { batchId: job.batchId } : {}) });
    const task: ScrapeTask = { id, routeId: job.routeId, params: job.params, accountId: job.clientId, deadline: Date.now() + this.opts.jobTimeoutMs };
    let finished: JobRecord | undefined;
    let usage: Usage | undefined;
    try {
      const outcome = await this.opts.runner.run(task, signal);
      usage = outcome.usage;
      const stored = outcome.stored ? { stored: outcome.stored } : {};
      finished = await this.opts.jobs.finish(id, { ok: true, upstreamStatus: outcome.status, results: outcome.results, ...stored }, this.opts.retentionMs);
    } catch (err) {
      if (signal.aborted && this.stopped) return; // destroyed: stays queued for the next start
      finished = await this.opts.jobs.finish(id, { ok: false, error: toWireError(err) }, this.opts.retentionMs);
    }
    if (!finished) return;
    events.publish({
      type: finished.status === 'done' ? 'done' : 'failed',
      jobId: id,
      clientId: finished.clientId,
      routeId: finished.routeId,
      at: Date.now(),
      ...(finished.batchId ? { batchId: finished.batchId } : {}),
      ...(finished.error ? { error: finished.error } : {}),
    });
    this.opts.onFinished?.(finished, usage);
  }
}
