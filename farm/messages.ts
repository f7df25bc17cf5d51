/**
 * Typed messages between the farm's pool side (main thread) and its workers (Piscina threads).
 * Plain data only: these objects are structured-cloned across the thread boundary.
 */
import type { Config } from '../core/config.js';
import type { ScrapeTask, TaskReply } from '../core/wire.js';

/** Tunables of the farm that are not part of `Config` (tests and operators may change them). */
export interface FarmLimits {
  /** Attempts per page on network errors, 5xx and 429, each on another proxy of the pool. */
  maxAttempts: number;
  /** First retry backoff (ms); doubles per attempt, with jitter. */
  retryBaseMs: number;
  /** A browser context is retired after serving this many pages. */
  contextMaxPages: number;
  /**
   * ...and after fetching this many plain pages in its fetch tabs (browser/contexts.ts: what
   * Playwright keeps per navigation until the context closes).
   */
  contextMaxFetches: number;
  /** A browser context unused for this long (ms) is closed. */
  contextIdleMs: number;
  /** A page that rendered well is kept for the next task of its context this long (ms); 0 = a new page per task. */
  pageIdleMs: number;
  /** No new browser context while the farm's RSS (node + browser) is above this (bytes); 0 = off. */
  maxRssBytes: number;
  /** Longest wait for network quiet (no request for 500 ms) after `load` (ms); a page that never quiets is captured then. */
  quietMaxMs: number;
  /** Tasks one worker thread runs at once (browser pages are further capped by `contextsPerWorker`). */
  tasksPerWorker: number;
  /**
   * Where pages render. `per-worker`: each worker thread launches its own Chromium (pipe, no
   * relay; the default: less CPU per page on the farm bench). `shared`: one Chromium per node
   * as a Playwright browser server in a child process, which workers connect to (less memory).
   */
  browserMode: BrowserMode;
  /**
   * How long after a task should have stopped (its deadline, or a cancel) its worker may still
   * hold it (ms); then its thread is terminated and replaced (in-flight.ts). The worker itself
   * answers within 1.5 s of the deadline unless synchronous work keeps its event loop busy.
   */
  backstopMs: number;
  /**
   * Threads for plain tasks started beyond GLEANER_WORKERS while every fetch thread is stuck
   * in synchronous work (pool.ts `plainThreads`); each ends after `spareIdleMs` without a task.
   */
  spareThreads: number;
  spareIdleMs: number;
}

export type BrowserMode = 'shared' | 'per-worker';

export const DEFAULT_LIMITS: Readonly<FarmLimits> = Object.freeze({
  maxAttempts: 3,
  retryBaseMs: 250,
  contextMaxPages: 50,
  contextMaxFetches: 1000,
  contextIdleMs: 30_000,
  pageIdleMs: 2_000,
  maxRssBytes: 0,
  quietMaxMs: 10_000,
  tasksPerWorker: 16,
  browserMode: 'per-worker',
  backstopMs: 3000,
  spareThreads: 1,
  spareIdleMs: 30_000,
});

/** Fixed per-thread facts, given to every worker once as Piscina `workerData`. */
export interface WorkerSetup {
  config: Config;
  limits: FarmLimits;
  /**
   * Host name → address entries the operator vouches for (an /etc/hosts of the farm): these
   * names resolve to the given address and are exempt from the private-address check.
   */
  hosts: Record<string, string>;
  /** Shared stats slots (see stats.ts). */
  stats: SharedArrayBuffer;
  /** How a worker launches its own browser (browserMode 'per-worker'): the shared one's command line. */
  browserLaunch: BrowserLaunch;
  /** Name of the farm's BroadcastChannel on which the pool posts the `seq` of a cancelled task. */
  cancelChannel: string;
  /** Browser pages in flight on this thread (render threads; 0 on fetch threads, which never render). */
  pages: number;
  /** This thread's browser closes after this long (ms) without a rendering task; 0 = never. */
  browserIdleMs: number;
}

export interface BrowserLaunch {
  executablePath: string | undefined;
  args: string[];
  /** The browser's version (`156.0.8078.79`), read from its binary: the user agents name its major. */
  version: string | undefined;
  /** Variables added to the browser's environment (HOME of GLEANER_CA_FILE's trust database: browser/trust.ts). */
  env?: Record<string, string> | undefined;
}

/** Where the node's browser server is, for tasks that render. */
export interface BrowserRef {
  wsEndpoint: string;
  pid: number | undefined;
}

/** One task as the worker receives it. */
export interface TaskMessage {
  task: ScrapeTask;
  browser: BrowserRef | null;
  /**
   * The pool's number for this dispatch (unique per farm). A cancel is this number posted on
   * `WorkerSetup.cancelChannel`: one channel per farm instead of a MessageChannel per task,
   * whose ports cost two thread wake-ups and native handles on every task.
   */
  seq: number;
  /** Flows (indexes in plan order) whose plain attempts met walls in a fetch thread: run their browser attempt only (worker/flow.ts). */
  escalate?: number[];
}

export type { TaskReply };

/**
 * On the farm's control channel (`WorkerSetup.cancelChannel`): the pool posts a cancelled
 * dispatch's seq, or a stop of the workers' own browsers; a worker answers a stop with `stopped`.
 */
export type ControlMessage = number | { stop: 'close' | 'kill' } | { stopped: number };
