/**
 * Typed messages between the farm's pool side (main thread) and its workers (Piscina threads).
 * Plain data only: these objects are structured-cloned across the thread boundary.
 */
import type { MessagePort } from 'node:worker_threads';
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
  /** A browser context unused for this long (ms) is closed. */
  contextIdleMs: number;
  /** No new browser context while the farm's RSS (node + browser) is above this (bytes); 0 = off. */
  maxRssBytes: number;
  /** Longest wait for network quiet (no request for 500 ms) after `load` (ms); a page that never quiets is captured then. */
  quietMaxMs: number;
  /** Tasks one worker thread runs at once (browser pages are further capped by `contextsPerWorker`). */
  tasksPerWorker: number;
}

export const DEFAULT_LIMITS: Readonly<FarmLimits> = Object.freeze({
  maxAttempts: 3,
  retryBaseMs: 250,
  contextMaxPages: 50,
  contextIdleMs: 30_000,
  maxRssBytes: 0,
  quietMaxMs: 10_000,
  tasksPerWorker: 16,
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
  /** Receives `'cancel'` when the caller gives up or the farm is destroyed. */
  cancel: MessagePort;
}

export type { TaskReply };
