/**
 * Pool side of the farm (main thread): the Piscina pool of actor workers, the node's browser
 * host, task dispatch, cancellation, the one retry of a task whose browser died, and the
 * drain/destroy lifecycle.
 *
 * Cancellation: Piscina's own `signal` TERMINATES a worker whose task is running, which would
 * kill the other tasks that worker runs concurrently; so each dispatch gets a number (`seq`) and
 * a cancel is that number posted on the farm's BroadcastChannel, which aborts just that task
 * inside its worker (which also enforces the deadline itself). A backstop timer here answers
 * the caller if a worker never replies, and only then uses Piscina's signal: a worker that
 * still holds a task `backstopMs` after it should have stopped is stuck in synchronous work,
 * and its thread is terminated (in-flight.ts). The other tasks of that thread are retried once
 * on another thread while their deadline allows; the thread's browser, temp files and stats row
 * are cleaned up when it is gone (pool-threads.ts `threadGone`).
 */
import type { Piscina } from 'piscina';
import type { BroadcastChannel } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { Config } from '../core/config.js';
import { GleanerError } from '../core/errors.js';
import type { ScrapeOutcome, ScrapeTask, TaskReply } from '../core/wire.js';
import { BrowserHost } from './browser-host.js';
import { clientFacing } from './client-facing.js';
import { InFlightTask, WORKER_STOPPED, WORKER_STOPPED_CAUSE, cancelled } from './in-flight.js';
import type { BrowserRef, FarmLimits, TaskMessage } from './messages.js';
import { taskNavigatesInBrowser, type BrowserNetSetup } from './net/browser-net.js';
import { type OnDemand, startPoolThreads, stopWorkerBrowsers, threadGone } from './pool-threads.js';
import { createStatsBuffer, readStats, stalledThreads } from './stats.js';

export interface FarmStats {
  /** Tasks handed to workers and not yet answered. */
  inFlight: number;
  /** Tasks waiting in Piscina's queue for a worker slot. */
  queued: number;
  workers: number;
  /** Render threads up (0 until the first `run_js` task, and again after an idle period). */
  renderThreads: number;
  /** The browser's pid, when one is running. */
  browserPid: number | undefined;
  /** Every running browser's pid (one per render thread, or the shared one): memory readings. */
  browserPids: number[];
  /** Browser contexts open across workers. */
  contexts: number;
  /** Browser pages in flight across workers. */
  pages: number;
  /** Browser launches so far (a relaunch after a crash counts). */
  browserLaunches: number;
  /** Threads now stuck in synchronous work with tasks on them (they get no new tasks). */
  stalled: number;
  /** Threads terminated so far because they held a task past its deadline. */
  terminated: number;
}

export class FarmPool {
  /** Plain-HTTP tasks (threads.ts), started with the first one (pool-threads.ts `OnDemand`). */
  private readonly fetchers: OnDemand<Piscina<TaskMessage, TaskReply>>;
  /** `run_js` tasks: the threads that own the browsers (threads.ts). */
  private readonly renderers: Piscina<TaskMessage, TaskReply>;
  /** Plain tasks while every fetch thread is stuck in synchronous work (threads.ts); null without spares. */
  private readonly spares: Piscina<TaskMessage, TaskReply> | null;
  private readonly host: BrowserHost;
  private readonly statsBuffer = createStatsBuffer();
  private readonly running = new Set<InFlightTask>();
  /** Cancels go to every worker as a dispatch's `seq` (see worker/cancels.ts). */
  private readonly cancels: BroadcastChannel;
  private readonly browserNet: BrowserNetSetup;
  private seq = 0;
  private terminated = 0;
  /** Browser launches of threads that have ended (their stats rows are released). */
  private goneLaunches = 0;
  private accepting = true;
  private readonly mode: FarmLimits['browserMode'];
  /** Rendering tasks in flight (shared mode: the browser server is not idle while any runs). */
  private rendering = 0;

  constructor(
    private readonly config: Config,
    private readonly limits: FarmLimits,
    hosts: Record<string, string>,
    private readonly logger: Logger | undefined,
  ) {
    this.mode = limits.browserMode;
    const threads = startPoolThreads(config, limits, hosts, {
      stats: this.statsBuffer,
      onDestroy: (threadId) => {
        this.goneLaunches += threadGone(this.statsBuffer, threadId);
      },
      onError: (err) => this.logger?.error({ err: String(err) }, 'farm worker error'),
    });
    this.fetchers = threads.fetchers;
    this.renderers = threads.renderers;
    this.spares = threads.spares;
    this.cancels = threads.cancels;
    this.browserNet = threads.browserNet;
    this.host = new BrowserHost({
      executablePath: config.chromium,
      hosts,
      guarded: !config.allowPrivate,
      env: threads.env,
      logger,
      idleMs: config.browserIdleMs,
      busy: () => this.rendering > 0,
    });
  }

  /** Taking work. Fetch threads start with the first plain task, so before it there are none to wait for. */
  ready(): boolean {
    const fetchers = this.fetchers.current;
    return this.accepting && (fetchers === undefined || fetchers.threads.length > 0);
  }

  stats(): FarmStats {
    const w = readStats(this.statsBuffer);
    const shared = this.host.current()?.pid;
    return {
      inFlight: this.running.size,
      queued: (this.fetchers.current?.queueSize ?? 0) + this.renderers.queueSize + (this.spares?.queueSize ?? 0),
      workers: this.fetchers.current?.threads.length ?? 0,
      renderThreads: this.renderers.threads.length,
      browserPid: shared ?? w.browserPids[0],
      browserPids: shared ? [shared, ...w.browserPids] : w.browserPids,
      contexts: w.contexts,
      pages: w.pages,
      browserLaunches: this.host.launches + this.goneLaunches + w.launches,
      stalled: stalledThreads(this.statsBuffer).size,
      terminated: this.terminated,
    };
  }

  async run(task: ScrapeTask, signal?: AbortSignal): Promise<ScrapeOutcome> {
    if (!this.accepting) throw new GleanerError('SERVICE_UNAVAILABLE', 'The farm is shutting down.');
    if (signal?.aborted) throw cancelled(signal);
    // A plain task whose pages go through the browser's network stack runs on a render thread
    // from the start: a fetch thread has no browser and would only hand it back (`browserNet`),
    // and a node whose plain pages all do so never starts its fetch threads.
    const renders = task.params.run_js === true || taskNavigatesInBrowser(this.browserNet, task);
    if (!renders) return this.attempts(task, false, signal, undefined);
    return this.rendered(task, signal, undefined);
  }

  private async rendered(task: ScrapeTask, signal: AbortSignal | undefined, escalate: number[] | undefined): Promise<ScrapeOutcome> {
    this.rendering++;
    try {
      return await this.attempts(task, true, signal, escalate);
    } finally {
      this.rendering--;
      this.host.used();
    }
  }

  private async attempts(task: ScrapeTask, renders: boolean, signal: AbortSignal | undefined, escalate: number[] | undefined): Promise<ScrapeOutcome> {
    for (let attempt = 1; ; attempt++) {
      // Per-worker mode: the worker launches (and relaunches) its own browser.
      const browser = renders && this.mode === 'shared' ? await this.host.ensure() : null;
      const reply = await this.dispatch(renders ? this.renderers : this.plainThreads(), task, browser, signal, escalate);
      if (reply.ok) return reply.outcome;
      // A plain task's walls that its family escalates (worker/flow.ts): once more, in a render thread.
      if (!renders && reply.escalate && this.accepting && Date.now() < task.deadline) return this.rendered(task, signal, reply.escalate);
      // Its plain navigations go through the browser's network stack (worker/nav-page.ts): a render thread runs it.
      if (!renders && reply.browserNet && this.accepting) return this.rendered(task, signal, undefined);
      const err = GleanerError.fromWire(reply.error);
      // The thread went away under the task (another task overran and it was terminated, or it
      // ran out of memory): once more on another thread, while the deadline allows.
      if (err.data?.cause === WORKER_STOPPED_CAUSE && attempt === 1 && this.accepting && Date.now() < task.deadline) {
        this.logger?.warn({ task: task.id }, 'worker thread lost during task; retrying once');
        continue;
      }
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
      if (err.code === 'TARGET_FORBIDDEN' && err.data?.refused !== undefined) {
        this.logger?.warn({ task: task.id, host: err.data.host, refused: err.data.refused }, 'target refused by the address guard');
      }
      throw clientFacing(err, attempt);
    }
  }

  /** The fetch threads, or the spares while every fetch thread is stuck in synchronous work. */
  private plainThreads(): Piscina<TaskMessage, TaskReply> {
    const fetchers = this.fetchers.get();
    if (!this.spares) return fetchers;
    const threads = fetchers.threads;
    if (threads.length === 0) return fetchers;
    const stalled = stalledThreads(this.statsBuffer);
    return threads.every((t) => stalled.has(t.threadId)) ? this.spares : fetchers;
  }

  private dispatch(threads: Piscina<TaskMessage, TaskReply>, task: ScrapeTask, browser: BrowserRef | null, signal: AbortSignal | undefined, escalate: number[] | undefined): Promise<TaskReply> {
    const seq = ++this.seq;
    const backstop = this.limits.backstopMs;
    const d = new InFlightTask(seq, this.cancels, signal, task.deadline + backstop, backstop, () => this.terminateStalled(threads));
    this.running.add(d);
    const message: TaskMessage = escalate ? { task, browser, seq, escalate } : { task, browser, seq };
    threads.run(message).then(
      (reply) => {
        this.running.delete(d);
        d.release();
        d.finish(reply);
      },
      (err: unknown) => {
        // The worker thread died, was terminated, or the pool was destroyed with the task on it.
        this.running.delete(d);
        d.release();
        if (d.terminated) {
          this.logger?.warn({ task: task.id, deadline: new Date(task.deadline).toISOString() }, 'worker thread terminated: it held a task past its deadline');
        } else this.logger?.error({ task: task.id, err: String(err) }, 'farm worker failed a task');
        d.finish(WORKER_STOPPED);
      },
    );
    return d.answered;
  }

  /**
   * Terminates the threads of `threads` stuck in synchronous work (stats.ts: holding tasks,
   * no heartbeat for STALL_MS). Called when a task overran its backstop: its thread, if it is
   * still stuck, is among them. Piscina fails the tasks the thread held (the pool retries them
   * once, `WORKER_STOPPED`) and starts another thread.
   */
  private terminateStalled(threads: Piscina<TaskMessage, TaskReply>): boolean {
    const stalled = stalledThreads(this.statsBuffer);
    let ended = 0;
    for (const worker of threads.threads) {
      if (!stalled.has(worker.threadId)) continue;
      void worker.terminate();
      ended++;
    }
    this.terminated += ended;
    return ended > 0;
  }

  /** Stop taking work, let in-flight tasks finish, then stop workers and the browser. */
  async close(): Promise<void> {
    this.accepting = false;
    await Promise.allSettled([...this.running].map((r) => r.answered));
    await stopWorkerBrowsers(this.mode, this.cancels, this.statsBuffer, 'close');
    await Promise.all([this.fetchers.seal()?.close(), this.renderers.close(), this.spares?.close()]);
    await this.host.close();
    this.cancels.close();
  }

  /** Abort in-flight work now, stop workers and kill the browser. */
  async destroy(): Promise<void> {
    this.accepting = false;
    const reason = new GleanerError('SERVICE_UNAVAILABLE', 'The farm was stopped while the task ran.');
    for (const r of [...this.running]) r.cancel(reason);
    await Promise.all([this.host.kill(), stopWorkerBrowsers(this.mode, this.cancels, this.statsBuffer, 'kill')]);
    await Promise.all([this.fetchers.seal()?.destroy(), this.renderers.destroy(), this.spares?.destroy()]);
    this.cancels.close();
  }
}
