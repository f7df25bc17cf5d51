/**
 * Pool side of the farm (main thread): the Piscina pool of actor workers, the node's browser
 * host, task dispatch, cancellation, the one retry of a task whose browser died, and the
 * drain/destroy lifecycle.
 *
 * Cancellation: Piscina's own `signal` TERMINATES a worker whose task is running, which would
 * kill the other tasks that worker runs concurrently; so each dispatch gets a number (`seq`) and
 * a cancel is that number posted on the farm's BroadcastChannel, which aborts just that task
 * inside its worker (which also enforces the deadline itself). A backstop timer here answers
 * the caller if a worker never replies.
 */
import { availableParallelism } from 'node:os';
import { randomUUID } from 'node:crypto';
import { BroadcastChannel, type Worker } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { Logger } from 'pino';
import type { Config } from '../core/config.js';
import { GleanerError } from '../core/errors.js';
import type { ScrapeOutcome, ScrapeTask, TaskReply } from '../core/wire.js';
import { BrowserHost } from './browser-host.js';
import { chromeVersion, chromiumArgs, resolveExecutable } from './chromium-args.js';
import { useChromeVersion } from './devices.js';
import { Dispatch, WORKER_STOPPED, cancelled } from './dispatch.js';
import type { BrowserRef, ControlMessage, FarmLimits, TaskMessage, WorkerSetup } from './messages.js';
import { createStatsBuffer, readStats, releaseThread } from './stats.js';

/** How long after the deadline the pool answers by itself if the worker stays silent. */
const BACKSTOP_MS = 3000;

export interface FarmStats {
  /** Tasks handed to workers and not yet answered. */
  inFlight: number;
  /** Tasks waiting in Piscina's queue for a worker slot. */
  queued: number;
  workers: number;
  /** The browser's pid, when one is running. */
  browserPid: number | undefined;
  /** Browser contexts open across workers. */
  contexts: number;
  /** Browser pages in flight across workers. */
  pages: number;
  /** Browser launches so far (a relaunch after a crash counts). */
  browserLaunches: number;
}

export class FarmPool {
  private readonly piscina: Piscina<TaskMessage, TaskReply>;
  private readonly host: BrowserHost;
  private readonly statsBuffer = createStatsBuffer();
  private readonly running = new Set<Dispatch>();
  /** Cancels go to every worker as a dispatch's `seq` (see worker/cancels.ts). */
  private readonly cancels: BroadcastChannel;
  private seq = 0;
  private accepting = true;
  private readonly mode: FarmLimits['browserMode'];

  constructor(
    private readonly config: Config,
    limits: FarmLimits,
    hosts: Record<string, string>,
    private readonly logger: Logger | undefined,
  ) {
    const fromSource = import.meta.url.endsWith('.ts');
    const workers = Math.max(1, config.workers || availableParallelism());
    const cancelChannel = `gleaner-farm-cancel-${randomUUID()}`;
    this.cancels = new BroadcastChannel(cancelChannel);
    this.cancels.unref();
    this.mode = limits.browserMode;
    const executablePath = resolveExecutable(config.chromium);
    const version = chromeVersion(executablePath);
    // This thread's profiles too (the HTTP answers name what the workers send).
    useChromeVersion(version);
    const browserLaunch = { executablePath, args: chromiumArgs({ executablePath, hosts, guarded: !config.allowPrivate }), version };
    const setup: WorkerSetup = { config, limits, hosts, stats: this.statsBuffer, cancelChannel, browserLaunch };
    this.piscina = new Piscina<TaskMessage, TaskReply>({
      filename: new URL(fromSource ? './worker.ts' : './worker.js', import.meta.url).href,
      execArgv: fromSource ? ['--import', 'tsx'] : [],
      minThreads: workers,
      maxThreads: workers,
      concurrentTasksPerWorker: Math.max(1, limits.tasksPerWorker),
      // Workers keep timers and sockets alive between tasks (context idle close, guard proxy),
      // so they must not park in Atomics.wait while idle.
      atomics: 'disabled',
      // Piscina's run/wait-time histograms are not read by the farm; recording costs per task.
      recordTiming: false,
      idleTimeout: Number.MAX_SAFE_INTEGER,
      workerData: setup,
    });
    this.piscina.on('workerDestroy', (worker: Worker) => releaseThread(this.statsBuffer, worker.threadId));
    this.piscina.on('error', (err: unknown) => this.logger?.error({ err: String(err) }, 'farm worker error'));
    this.host = new BrowserHost({
      executablePath: config.chromium,
      hosts,
      guarded: !config.allowPrivate,
      logger,
    });
  }

  ready(): boolean {
    return this.accepting && this.piscina.threads.length > 0;
  }

  stats(): FarmStats {
    const w = readStats(this.statsBuffer);
    return {
      inFlight: this.running.size,
      queued: this.piscina.queueSize,
      workers: this.piscina.threads.length,
      browserPid: this.host.current()?.pid ?? w.browserPids[0],
      contexts: w.contexts,
      pages: w.pages,
      browserLaunches: this.host.launches + w.launches,
    };
  }

  async run(task: ScrapeTask, signal?: AbortSignal): Promise<ScrapeOutcome> {
    if (!this.accepting) throw new GleanerError('SERVICE_UNAVAILABLE', 'The farm is shutting down.');
    if (signal?.aborted) throw cancelled(signal);
    const renders = task.params.run_js === true;
    for (let attempt = 1; ; attempt++) {
      // Per-worker mode: the worker launches (and relaunches) its own browser.
      const browser = renders && this.mode === 'shared' ? await this.host.ensure() : null;
      const reply = await this.dispatch(task, browser, signal);
      if (reply.ok) return reply.outcome;
      const err = GleanerError.fromWire(reply.error);
      // `wsEndpoint` is set only when the worker saw the browser itself go away. Without it
      // (a page closed before the worker saw the browser's disconnect: a race, or a lone tab
      // crash) give the browser this task used a moment to be seen exiting, without killing
      // it, so the retry does not land on a browser that is already dead.
      const lost = err.data?.wsEndpoint;
      if (err.code === 'BROWSER_CRASHED' && typeof lost === 'string') await this.host.reportLost(lost);
      else if (err.code === 'BROWSER_CRASHED' && browser) await this.host.awaitExit(browser.wsEndpoint, 1000);
      // A job held by a browser (or tab) that died is retried once, on a new browser if need be.
      if (err.code === 'BROWSER_CRASHED' && attempt === 1 && this.accepting && Date.now() < task.deadline) {
        this.logger?.warn({ task: task.id }, 'browser lost during task; retrying once');
        continue;
      }
      throw clientFacing(err, attempt);
    }
  }

  private dispatch(task: ScrapeTask, browser: BrowserRef | null, signal: AbortSignal | undefined): Promise<TaskReply> {
    const seq = ++this.seq;
    const d = new Dispatch(seq, this.cancels, signal, task.deadline + BACKSTOP_MS);
    this.running.add(d);
    const message: TaskMessage = { task, browser, seq };
    this.piscina.run(message).then(
      (reply) => {
        this.running.delete(d);
        d.finish(reply);
      },
      (err: unknown) => {
        // The worker thread died (or the pool was destroyed) with the task on it.
        this.running.delete(d);
        this.logger?.error({ task: task.id, err: String(err) }, 'farm worker failed a task');
        d.finish(WORKER_STOPPED);
      },
    );
    return d.answered;
  }

  /** Stop taking work, let in-flight tasks finish, then stop workers and the browser. */
  async close(): Promise<void> {
    this.accepting = false;
    await Promise.allSettled([...this.running].map((r) => r.answered));
    await this.stopWorkerBrowsers('close');
    await this.piscina.close();
    await this.host.close();
    this.cancels.close();
  }

  /** Abort in-flight work now, stop workers and kill the browser. */
  async destroy(): Promise<void> {
    this.accepting = false;
    const reason = new GleanerError('SERVICE_UNAVAILABLE', 'The farm was stopped while the task ran.');
    for (const r of [...this.running]) r.cancel(reason);
    await Promise.all([this.host.kill(), this.stopWorkerBrowsers('kill')]);
    await this.piscina.destroy();
    this.cancels.close();
  }

  /**
   * Per-worker mode: asks the workers to close (or kill) their own browsers, waits for the
   * answers of those that listed one (a terminated thread would leave Playwright's temporary
   * profile behind), then kills by pid any browser still listed.
   */
  private async stopWorkerBrowsers(how: 'close' | 'kill'): Promise<void> {
    const expected = this.mode === 'per-worker' ? readStats(this.statsBuffer).browserPids.length : 0;
    if (expected === 0) return;
    const answered = new Set<number>();
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, how === 'close' ? 7000 : 3000);
      this.cancels.onmessage = (event) => {
        const msg = (event as { data: ControlMessage }).data;
        if (typeof msg !== 'object' || !('stopped' in msg)) return;
        answered.add(msg.stopped);
        if (answered.size >= expected) {
          clearTimeout(timer);
          resolve();
        }
      };
      this.cancels.postMessage({ stop: how } satisfies ControlMessage);
    });
    this.cancels.onmessage = () => undefined;
    for (const pid of readStats(this.statsBuffer).browserPids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}

/**
 * The farm's failures as a client may see them. BROWSER_CRASHED and UPSTREAM_FAILED are the
 * farm's own retry signals, documented nowhere a client reads: once the farm has stopped
 * retrying, the request failed after its retries (spec 7: REQUEST_FAILED_AFTER_MANY_RETRIES,
 * not charged) and `detail` names the cause. The lost browser's endpoint is dropped on the way
 * (its path is the browser server's only secret).
 */
export function clientFacing(err: GleanerError, attempts: number): GleanerError {
  if (err.code === 'BROWSER_CRASHED') {
    return new GleanerError(
      'REQUEST_FAILED_AFTER_MANY_RETRIES',
      `Rendering the target failed: the browser crashed on each of ${attempts} attempt${attempts === 1 ? '' : 's'} (last: ${sentence(err.message)}).`,
      { cause: 'BROWSER_CRASHED', attempts },
    );
  }
  if (err.code === 'UPSTREAM_FAILED') {
    return new GleanerError('REQUEST_FAILED_AFTER_MANY_RETRIES', `Every attempt to fetch the target failed (last: ${sentence(err.message)}).`, { cause: 'UPSTREAM_FAILED', attempts });
  }
  return err;
}

function sentence(message: string): string {
  return message.replace(/\.$/, '');
}
