/**
 * One async job's run for the job runner (job-runner.ts): counts its start in the store (a
 * poison job is given up instead), runs it on the farm or, for a long job (a crawl), under its
 * engine, keeps its claim on the work queue renewed meanwhile, stores its final state, result
 * and charge in one operation (JobStore.finish), and publishes its feed events.
 *
 * Separate from job-runner.ts, which decides which job starts when (fairness, route caps, sync
 * first, close/destroy): this is what happens to one job once started. It reads two things of
 * the runner, each when it needs it: the work-queue consumer and whether the runner is stopping.
 *
 * Crash safety: the result says whether the job's final state is stored; only then does the
 * runner settle it with the queue. A run aborted because the runner is stopping releases the
 * job instead, so it stays queued and runs (or resumes) at the next start.
 */
import { ERROR_CODES, GleanerError, toWireError, type WireError } from '../../core/errors.js';
import type { JobOutcome, JobRecord } from '../../core/store/jobs.js';
import type { WorkConsumer } from '../../core/store/work.js';
import type { ScrapeTask, Usage } from '../../core/wire.js';
import type { JobRunnerOptions, LongJobs } from './job-runner.js';

/** Starts allowed to a long job (each restart of the node starts it again, and it resumes). */
const LONG_JOB_MAX_STARTS = 1000;

/** What a job's run reads of its runner, at the moment it needs it. */
export interface RunnerState {
  /** The work queue's consumer (undefined before start). */
  consumer(): WorkConsumer | undefined;
  /** close() or destroy() was called. */
  stopped(): boolean;
  /** Another node holds the job now (the runner aborted its run): nothing of this run is stored. */
  lost(id: string): boolean;
}

export class JobExecutor {
  constructor(
    private readonly opts: JobRunnerOptions,
    private readonly runner: RunnerState,
  ) {}

  private get consumer(): WorkConsumer | undefined {
    return this.runner.consumer();
  }

  private get stopped(): boolean {
    return this.runner.stopped();
  }

  /** Runs one job; true when its final state is stored (or was already) and the queue may forget it. */
  async run(id: string, routeId: string, signal: AbortSignal): Promise<boolean> {
    const long = this.opts.longJobs?.owns(routeId) ? this.opts.longJobs : undefined;
    const maxStarts = long ? LONG_JOB_MAX_STARTS : Math.max(1, this.opts.maxStarts ?? 3);
    const start = await this.opts.jobs.start(id, maxStarts);
    if (!start) return true; // already final (a duplicate queue entry, a redelivery) or swept
    if (!start.started) return this.giveUp(start.job, maxStarts).then(() => true);
    const { job } = start;
    const { events } = this.opts;
    events.publish({ type: 'started', jobId: id, clientId: job.clientId, routeId: job.routeId, at: Date.now(), ...(job.batchId ? { batchId: job.batchId } : {}), ...(this.opts.node ? { node: this.opts.node } : {}) });
    if (long) return this.runLong(long, job, signal);
    // The worker writes the results to the store itself (ScrapeTask.persist): they never cross to this thread.
    const task: ScrapeTask = { id, routeId: job.routeId, params: job.params, accountId: job.clientId, deadline: Date.now() + this.opts.jobTimeoutMs, persist: true };
    let finished: JobRecord | undefined;
    let usage: Usage | undefined;
    try {
      const outcome = await this.opts.runner.run(task, signal);
      usage = outcome.usage;
      const charge = this.opts.chargeOf?.(job, usage);
      finished = await this.opts.jobs.finish(id, { ok: true, upstreamStatus: outcome.status, results: outcome.stored ? undefined : outcome.results, ...(outcome.media ? { media: outcome.media } : {}) }, this.opts.retentionMs, charge);
    } catch (err) {
      if (signal.aborted && this.runner.lost(id)) return false; // its holder finishes it
      if (signal.aborted && this.stopped) {
        this.consumer?.release(id);
        return false; // destroyed: stays queued for the next start
      }
      finished = await this.opts.jobs.finish(id, { ok: false, error: jobError(err, this.opts.jobTimeoutMs) }, this.opts.retentionMs);
    }
    this.announce(finished, usage);
    return true;
  }

  /** A long job (a crawl): its engine charges as it goes; finish stores the outcome only. */
  private async runLong(long: LongJobs, job: JobRecord, signal: AbortSignal): Promise<boolean> {
    let outcome: JobOutcome;
    try {
      outcome = await long.run(job, signal);
    } catch (err) {
      if (signal.aborted && this.runner.lost(job.id)) return false; // its holder runs it on
      if (signal.aborted && this.stopped) {
        this.consumer?.release(job.id);
        return false; // interrupted: stays queued and resumes at the next start
      }
      outcome = { ok: false, error: toWireError(err) };
    }
    this.announce(await this.opts.jobs.finish(job.id, outcome, this.opts.retentionMs), undefined);
    return true;
  }

  /** A poison job: started `maxStarts` times, never finished. Faulted without another run. */
  private async giveUp(job: JobRecord, maxStarts: number): Promise<void> {
    this.opts.log.error(
      { job_id: job.id, client_id: job.clientId, route: job.routeId, starts: job.attempts },
      `job given up: started ${job.attempts} times without finishing (each run ended with the process); faulted, not charged`,
    );
    // The caller reads why on GET (not only the webhook and the log): the text names no internals.
    const error = new GleanerError(
      'INTERNAL_ERROR',
      `The job was started ${job.attempts} times and never finished: each run ended with the service process (GLEANER_JOB_MAX_STARTS is ${maxStarts}), so it is not run again and not charged.`,
      { starts: job.attempts, publicDetail: true },
    );
    this.announce(await this.opts.jobs.finish(job.id, { ok: false, error: error.toWire() }, this.opts.retentionMs), undefined);
  }

  private announce(finished: JobRecord | undefined, usage: Usage | undefined): void {
    if (!finished) return;
    const { events } = this.opts;
    const id = finished.id;
    events.publish({
      type: finished.status === 'done' ? 'done' : finished.status === 'cancelled' ? 'cancelled' : 'failed',
      jobId: id,
      clientId: finished.clientId,
      routeId: finished.routeId,
      at: Date.now(),
      ...(finished.batchId ? { batchId: finished.batchId } : {}),
      ...(finished.error && finished.status !== 'cancelled' ? { error: finished.error } : {}),
      ...(this.opts.node ? { node: this.opts.node } : {}),
    });
    this.opts.onFinished?.(finished, usage);
  }
}

/**
 * A failed run as the job's error. A timeout without words of its own gets the job's: the
 * table's default detail speaks of the synchronous deadline and the async route, which is not
 * what an async job ran into.
 */
function jobError(err: unknown, timeoutMs: number): WireError {
  const wire = toWireError(err);
  if (wire.code !== 'REQUEST_FAILED_SCRAPE_TIMEOUT' || wire.message !== ERROR_CODES.REQUEST_FAILED_SCRAPE_TIMEOUT.detail) return wire;
  const seconds = Math.round(timeoutMs / 100) / 10;
  return { ...wire, message: `The job did not finish within its deadline of ${seconds} s (GLEANER_JOB_TIMEOUT_MS); it was stopped and is not charged.` };
}
