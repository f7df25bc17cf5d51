/**
 * The pool's thread sets (main thread): how the fetch, spare and render pools of one farm are
 * built from the config (browser launch settings, page budget, idle times, the cancel channel),
 * and what is cleaned up outside them — a thread's browser, temp files and stats row when the
 * thread ends, and the workers' own browsers when the farm stops.
 *
 * Separate from pool.ts, which dispatches, retries and cancels tasks: this part runs once at
 * start, when a thread ends, and at close, and touches processes and files rather than tasks.
 *
 * Concurrency: `threadGone` runs on Piscina's workerDestroy, at any time relative to dispatch;
 * it only reads and releases the ended thread's own stats row. `stopWorkerBrowsers` owns the
 * cancel channel's `onmessage` while it waits, so only one may run at a time (close or destroy).
 */
import { availableParallelism } from 'node:os';
import { randomUUID } from 'node:crypto';
import { BroadcastChannel } from 'node:worker_threads';
import type { Piscina } from 'piscina';
import type { Config } from '../core/config.js';
import { GleanerError } from '../core/errors.js';
import type { TaskReply } from '../core/wire.js';
import { IDLE_CLOSE_MS } from './browser/local.js';
import { browserTrustEnv } from './browser/trust.js';
import { chromeVersion, chromiumArgs, profileDirOf, removeProfile, resolveExecutable } from './chromium-args.js';
import { useChromeVersion } from './devices.js';
import { desktopUserAgent } from './identity/profile.js';
import { removeThreadScratch } from './media/scratch.js';
import type { ControlMessage, FarmLimits, TaskMessage } from './messages.js';
import type { BrowserNetSetup } from './net/browser-net.js';
import { useCaFile } from './net/trust.js';
import { readStats, releaseThread } from './stats.js';
import { createThreads } from './threads.js';

/**
 * A render thread without tasks ends after two idle periods of its browser (which closes after
 * one), and never before that browser's close has had time to finish and be reaped: its
 * graceful close (IDLE_CLOSE_MS, then a kill) plus this margin. A thread ended first leaves the
 * browser process a zombie (only the thread that spawned it waits for it), which full Chromium's
 * slower close made common under load with short idle periods.
 */
const REAP_MARGIN_MS = 5000;

function renderThreadIdleMs(browserIdleMs: number): number {
  return browserIdleMs > 0 ? browserIdleMs + Math.max(browserIdleMs, IDLE_CLOSE_MS + REAP_MARGIN_MS) : Number.MAX_SAFE_INTEGER;
}

/**
 * A pool made by its first `get()`, not before. Fetch threads start with the farm's first
 * plain task (all `GLEANER_WORKERS` of them at once, Piscina's `minThreads`), so a node that
 * only renders, or has had no work yet, holds none: an idle fetch thread is ~26 MB of PSS, two
 * of them a third of a fresh service, and a rendered-only load never uses them (bench/README
 * "Fetch threads on demand"). The first plain task waits for the threads to start (~0.45 s on
 * a fresh service).
 */
export class OnDemand<T> {
  private made: T | undefined;
  private sealed = false;

  constructor(private readonly make: () => T) {}

  /** The pool, made now if it is the first call; refused once the farm stops taking work. */
  get(): T {
    if (this.made !== undefined) return this.made;
    if (this.sealed) throw new GleanerError('SERVICE_UNAVAILABLE', 'The farm is shutting down.');
    this.made = this.make();
    return this.made;
  }

  /** The pool if it was made. */
  get current(): T | undefined {
    return this.made;
  }

  /** No pool is made from now on (close, destroy): what exists is returned for them to stop. */
  seal(): T | undefined {
    this.sealed = true;
    return this.made;
  }
}

export interface PoolThreads {
  /** Plain-HTTP tasks (threads.ts), started with the first one. */
  fetchers: OnDemand<Piscina<TaskMessage, TaskReply>>;
  /** `run_js` tasks: the threads that own the browsers (threads.ts). */
  renderers: Piscina<TaskMessage, TaskReply>;
  /** Plain tasks while every fetch thread is stuck in synchronous work (threads.ts); null without spares. */
  spares: Piscina<TaskMessage, TaskReply> | null;
  /** Cancels go to every worker as a dispatch's `seq` (see worker/cancels.ts). */
  cancels: BroadcastChannel;
  /** The browsers' extra environment (browser/trust.ts), for the shared browser host too. */
  env: Record<string, string> | undefined;
  /** What decides which plain tasks navigate in the browser (net/browser-net.ts), as the workers have it. */
  browserNet: BrowserNetSetup;
}

export interface ThreadHooks {
  stats: SharedArrayBuffer;
  onDestroy: (threadId: number) => void;
  onError: (err: unknown) => void;
}

/** Builds the farm's thread pools; every kind starts on demand (fetch threads with the first plain task, all at once). */
export function startPoolThreads(config: Config, limits: FarmLimits, hosts: Record<string, string>, hooks: ThreadHooks): PoolThreads {
  const { onDestroy, onError } = hooks;
  const workers = Math.max(1, config.workers || availableParallelism());
  const renderThreads = Math.max(1, Math.min(config.browserThreads, workers * config.contextsPerWorker));
  const cancelChannel = `gleaner-farm-cancel-${randomUUID()}`;
  const cancels = new BroadcastChannel(cancelChannel);
  cancels.unref();
  const executablePath = resolveExecutable(config.chromium);
  const version = chromeVersion(executablePath);
  // This thread's profiles too (the HTTP answers name what the workers send).
  useChromeVersion(version);
  // Before any worker starts: the plain path's client reads the extra roots from the environment.
  useCaFile(config.caFile);
  const env = browserTrustEnv(config.caFile);
  const browserLaunch = { executablePath, args: chromiumArgs({ executablePath, hosts, guarded: !config.allowPrivate, userAgent: desktopUserAgent() }), version, env };
  const base = { config, limits, hosts, stats: hooks.stats, cancelChannel, browserLaunch, browserIdleMs: config.browserIdleMs };
  // The node's page budget is unchanged (workers x contexts); it lives on the render threads.
  const pages = Math.max(1, Math.ceil((workers * config.contextsPerWorker) / renderThreads));
  const fetchers = new OnDemand(() => createThreads({ kind: 'fetch', threads: workers, tasksPerThread: limits.tasksPerWorker, setup: { ...base, pages: 0 }, idleTimeoutMs: 0, onDestroy, onError }));
  const spares =
    limits.spareThreads > 0
      ? createThreads({ kind: 'spare', threads: limits.spareThreads, tasksPerThread: limits.tasksPerWorker, setup: { ...base, pages: 0 }, idleTimeoutMs: limits.spareIdleMs, onDestroy, onError })
      : null;
  const renderers = createThreads({
    kind: 'render',
    threads: renderThreads,
    tasksPerThread: Math.max(limits.tasksPerWorker, pages),
    setup: { ...base, pages },
    idleTimeoutMs: renderThreadIdleMs(config.browserIdleMs),
    onDestroy,
    onError,
  });
  return { fetchers, renderers, spares, cancels, env, browserNet: { config, browserLaunch } };
}

/**
 * A worker thread ended (idle render thread, crash, terminated, close). Its stats row is
 * released; the ffmpeg runs and temp folders of its media downloads are removed; a browser it
 * still listed (it could not close it) is killed and its profile removed. Returns the browser
 * launches the thread had made (its stats row no longer counts them).
 */
export function threadGone(stats: SharedArrayBuffer, threadId: number): number {
  const { pid, launches } = releaseThread(stats, threadId);
  removeThreadScratch(threadId);
  if (!pid) return launches;
  const profile = profileDirOf(pid);
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    return launches; // already gone (Playwright removed its profile)
  }
  removeProfile(profile);
  return launches;
}

/**
 * Per-worker mode: asks the workers to close (or kill) their own browsers, waits for the
 * answers of those that listed one (a terminated thread would leave Playwright's temporary
 * profile behind), then kills by pid any browser still listed.
 */
export async function stopWorkerBrowsers(mode: FarmLimits['browserMode'], cancels: BroadcastChannel, stats: SharedArrayBuffer, how: 'close' | 'kill'): Promise<void> {
  const expected = mode === 'per-worker' ? readStats(stats).browserPids.length : 0;
  if (expected === 0) return;
  const answered = new Set<number>();
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, how === 'close' ? 7000 : 3000);
    cancels.onmessage = (event) => {
      const msg = (event as { data: ControlMessage }).data;
      if (typeof msg !== 'object' || !('stopped' in msg)) return;
      answered.add(msg.stopped);
      if (answered.size >= expected) {
        clearTimeout(timer);
        resolve();
      }
    };
    cancels.postMessage({ stop: how } satisfies ControlMessage);
  });
  cancels.onmessage = () => undefined;
  for (const pid of readStats(stats).browserPids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}
