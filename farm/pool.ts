/**
 * Pool side of the farm (main thread): the Piscina pool of actor workers, the node's browser
 * host, task dispatch with per-task cancel ports, the one retry of a task whose browser died,
 * and the drain/destroy lifecycle.
 *
 * Cancellation: Piscina's own `signal` TERMINATES a worker whose task is running, which would
 * kill the other tasks that worker runs concurrently; so each task gets a MessagePort instead,
 * and a `'cancel'` on it aborts just that task inside the worker (which also enforces the
 * deadline itself). A backstop timer here answers the caller if a worker never replies.
 */
import { availableParallelism } from 'node:os';
import { MessageChannel, type Worker } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { Logger } from 'pino';
import type { Config } from '../core/config.js';
import { GleanerError } from '../core/errors.js';
import type { ScrapeOutcome, ScrapeTask, TaskReply } from '../core/wire.js';
import { BrowserHost } from './browser-host.js';
import type { BrowserRef, FarmLimits, TaskMessage, WorkerSetup } from './messages.js';
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

interface Running {
  cancel(reason: GleanerError): void;
  settled: Promise<unknown>;
}

export class FarmPool {
  private readonly piscina: Piscina<TaskMessage, TaskReply>;
  private readonly host: BrowserHost;
  private readonly statsBuffer = createStatsBuffer();
  private readonly running = new Set<Running>();
  private accepting = true;

  constructor(
    private readonly config: Config,
    limits: FarmLimits,
    hosts: Record<string, string>,
    private readonly logger: Logger | undefined,
  ) {
    const fromSource = import.meta.url.endsWith('.ts');
    const workers = Math.max(1, config.workers || availableParallelism());
    const setup: WorkerSetup = { config, limits, hosts, stats: this.statsBuffer };
    this.piscina = new Piscina<TaskMessage, TaskReply>({
      filename: new URL(fromSource ? './worker.ts' : './worker.js', import.meta.url).href,
      execArgv: fromSource ? ['--import', 'tsx'] : [],
      minThreads: workers,
      maxThreads: workers,
      concurrentTasksPerWorker: Math.max(1, limits.tasksPerWorker),
      // Workers keep timers and sockets alive between tasks (context idle close, guard proxy),
      // so they must not park in Atomics.wait while idle.
      atomics: 'disabled',
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
      browserPid: this.host.current()?.pid,
      contexts: w.contexts,
      pages: w.pages,
      browserLaunches: this.host.launches,
    };
  }

  async run(task: ScrapeTask, signal?: AbortSignal): Promise<ScrapeOutcome> {
    if (!this.accepting) throw new GleanerError('SERVICE_UNAVAILABLE', 'The farm is shutting down.');
    if (signal?.aborted) throw cancelled(signal);
    const renders = task.params.run_js === true;
    for (let attempt = 1; ; attempt++) {
      const browser = renders ? await this.host.ensure() : null;
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
      // The endpoint is internal (its path is the browser server's only secret): never pass it on.
      throw err.code === 'BROWSER_CRASHED' ? new GleanerError('BROWSER_CRASHED', err.message) : err;
    }
  }

  private dispatch(task: ScrapeTask, browser: BrowserRef | null, signal: AbortSignal | undefined): Promise<TaskReply> {
    const { port1, port2 } = new MessageChannel();
    let settle!: (reply: TaskReply) => void;
    const answered = new Promise<TaskReply>((resolve) => (settle = resolve));
    let done = false;
    const finish = (reply: TaskReply) => {
      if (done) return;
      done = true;
      clearTimeout(backstop);
      signal?.removeEventListener('abort', onAbort);
      settle(reply);
    };
    const entry: Running = {
      cancel: (reason) => {
        port1.postMessage('cancel');
        finish({ ok: false, error: reason.toWire() });
      },
      settled: answered,
    };
    const onAbort = () => entry.cancel(cancelled(signal as AbortSignal));
    signal?.addEventListener('abort', onAbort, { once: true });
    const backstop = setTimeout(
      () => entry.cancel(new GleanerError('REQUEST_FAILED_SCRAPE_TIMEOUT')),
      Math.max(0, task.deadline - Date.now()) + BACKSTOP_MS,
    );
    this.running.add(entry);
    const message: TaskMessage = { task, browser, cancel: port2 };
    this.piscina
      .run(message, { transferList: [port2] })
      .then(
        (reply) => finish(reply),
        (err: unknown) => {
          // The worker thread died (or the pool was destroyed) with the task on it.
          this.logger?.error({ task: task.id, err: String(err) }, 'farm worker failed a task');
          finish({ ok: false, error: { code: 'INTERNAL_ERROR', message: 'The worker running the task stopped.' } });
        },
      )
      .finally(() => {
        this.running.delete(entry);
        port1.close();
      });
    return answered;
  }

  /** Stop taking work, let in-flight tasks finish, then stop workers and the browser. */
  async close(): Promise<void> {
    this.accepting = false;
    await Promise.allSettled([...this.running].map((r) => r.settled));
    await this.piscina.close();
    await this.host.close();
  }

  /** Abort in-flight work now, stop workers and kill the browser. */
  async destroy(): Promise<void> {
    this.accepting = false;
    const reason = new GleanerError('SERVICE_UNAVAILABLE', 'The farm was stopped while the task ran.');
    for (const r of [...this.running]) r.cancel(reason);
    await this.host.kill();
    await this.piscina.destroy();
  }
}

function cancelled(signal: AbortSignal): GleanerError {
  const reason: unknown = signal.reason;
  return reason instanceof GleanerError ? reason : new GleanerError('SERVICE_UNAVAILABLE', 'The task was cancelled.');
}
