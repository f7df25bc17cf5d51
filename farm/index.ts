/**
 * The farm's public entry, the only module the gateway imports. A farm turns a ScrapeTask into
 * a ScrapeOutcome on a pool of worker threads that fetch with undici or render in the node's
 * Chromium; it rejects with GleanerError.
 */
import type { Logger } from 'pino';
import type { Config } from '../core/config.js';
import type { ScrapeOutcome, ScrapeTask } from '../core/wire.js';
import { DEFAULT_LIMITS, type FarmLimits } from './messages.js';
import { FarmPool, type FarmStats } from './pool.js';

export type { FarmLimits, FarmStats };
export { DEFAULT_LIMITS };

export interface FarmOptions {
  config: Config;
  logger?: Logger;
  /** Overrides of the farm's tunables (retries, context lifecycle, memory gate, quiet wait). */
  limits?: Partial<FarmLimits>;
  /**
   * Trusted host name → address (an /etc/hosts for the farm, browser included). These names
   * are exempt from the private-address check: for operator-run internal targets, and for the
   * SSRF tests, which need a first hop that is allowed while the next is refused.
   */
  hosts?: Record<string, string>;
}

export interface Farm {
  /** Runs one task; rejects with GleanerError. `signal` abandons it (the worker stops too). */
  run(task: ScrapeTask, signal?: AbortSignal): Promise<ScrapeOutcome>;
  /** The pool is up (the browser launches lazily, on the first task that renders). */
  ready(): boolean;
  stats(): FarmStats;
  /** Stop taking work, drain in-flight tasks, close the browser. */
  close(): Promise<void>;
  /** Abort in-flight tasks now and kill the browser. */
  destroy(): Promise<void>;
}

export async function createFarm(opts: FarmOptions): Promise<Farm> {
  const limits: FarmLimits = { ...DEFAULT_LIMITS, ...opts.limits };
  const pool = new FarmPool(opts.config, limits, opts.hosts ?? {}, opts.logger);
  return {
    run: (task, signal) => pool.run(task, signal),
    ready: () => pool.ready(),
    stats: () => pool.stats(),
    close: () => pool.close(),
    destroy: () => pool.destroy(),
  };
}

// Job machinery: the job runner feeds the durable queue to a farm; the outbox delivers.
// (Declared as `Dispatcher` in jobs/dispatcher.ts; exported under the name that says what it
// is, apart from the farm's in-flight tasks and undici's Dispatcher.)
export { Dispatcher as JobRunner, type DispatcherOptions as JobRunnerOptions, type TaskRunner } from './jobs/dispatcher.js';
export { Outbox, type OutboxOptions, type DeliveryPayloads } from './jobs/outbox.js';
// Memory of a browser's process tree (the operator console's readings).
export { treeRss } from './browser/memory.js';
export { parseDeliveryConfig, webhookBody, type DeliveryConfig, type RetryPolicy } from './delivery/index.js';
// ffmpeg and ffprobe for media downloads: the start-up check (/readyz, submit, `gleaner doctor`).
export { checkFfmpeg, FFMPEG_INSTALL_HINT, type FfmpegStatus } from './media/ffmpeg.js';
