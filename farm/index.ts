/**
 * The farm's public entry, the only module the gateway imports. A farm turns a ScrapeTask into
 * a ScrapeOutcome on a pool of worker threads that fetch with Chrome's fingerprint (wreq-js) or render in the node's
 * Chromium; it rejects with GleanerError.
 */
import type { Logger } from 'pino';
import type { Config } from '../core/config.js';
import type { ScrapeOutcome, ScrapeTask } from '../core/wire.js';
import { DEFAULT_LIMITS, type FarmLimits } from './messages.js';
import { GleanerError } from '../core/errors.js';
import { ffmpegUsable, missingBinaryDetail, probeBrowser, type BinaryStatus } from './binaries.js';
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
  /** Whether Chromium and ffmpeg are usable, probed at start (binaries.ts). */
  binaries(): FarmBinaries;
  stats(): FarmStats;
  /** Stop taking work, drain in-flight tasks, close the browser. */
  close(): Promise<void>;
  /** Abort in-flight tasks now and kill the browser. */
  destroy(): Promise<void>;
  /**
   * Takes a new configuration (the targets, proxies and storage files re-read on SIGHUP)
   * without dropping work: a new pool of workers starts with it and takes every task from now
   * on, while the old pool finishes the tasks it holds and then closes. Workers hold their
   * configuration from their start (WorkerSetup), so a new pool is how a change reaches them.
   * Resolves when the old pool has drained.
   */
  reload(config: Config): Promise<void>;
}

export interface FarmBinaries {
  browser: BinaryStatus;
  ffmpeg: BinaryStatus;
}

export async function createFarm(opts: FarmOptions): Promise<Farm> {
  const limits: FarmLimits = { ...DEFAULT_LIMITS, ...opts.limits };
  const probes = Promise.all([probeBrowser(opts.config.chromium), ffmpegUsable(opts.config.ffmpeg, true)]);
  let pool = new FarmPool(opts.config, limits, opts.hosts ?? {}, opts.logger);
  /** Pools replaced by a reload, each with its close() (they finish their tasks first). */
  const draining = new Map<FarmPool, Promise<void>>();
  const [browser, ffmpeg] = await probes;
  if (!browser.ok) opts.logger?.warn({ chromium: browser.path, reason: browser.reason }, 'no usable browser: rendering requests will be refused');
  return {
    // A rendering task without a usable browser is refused up front, naming the binary tried.
    run: (task, signal) =>
      task.params.run_js === true && !browser.ok
        ? Promise.reject(new GleanerError('SERVICE_UNAVAILABLE', missingBinaryDetail('a browser (run_js)', browser)))
        : pool.run(task, signal),
    ready: () => pool.ready(),
    binaries: () => ({ browser, ffmpeg }),
    stats: () => pool.stats(),
    close: async () => {
      await Promise.all([pool.close(), ...draining.values()]);
    },
    destroy: async () => {
      await Promise.all([pool.destroy(), ...[...draining.keys()].map((p) => p.destroy())]);
    },
    reload: async (config) => {
      const old = pool;
      pool = new FarmPool(config, limits, opts.hosts ?? {}, opts.logger);
      const closing = old.close();
      draining.set(old, closing);
      try {
        await closing;
      } finally {
        draining.delete(old);
      }
    },
  };
}

export { ffmpegUsable, probeBrowser, probeFfmpeg, type BinaryStatus } from './binaries.js';

// Job machinery: the job runner feeds the durable queue to a farm; the outbox delivers.
export { JobRunner, type JobRunnerOptions, type TaskRunner } from './jobs/job-runner.js';
export { Outbox, type OutboxOptions, type DeliveryPayloads } from './jobs/outbox.js';
// Crawls and maps: the engine the job runner hands crawl jobs to, the map operation.
export { CrawlEngine, type CrawlEngineOptions, type RunningCrawl } from './crawl/engine.js';
export { runMap, type MapRequest, type MapAnswer, type MappedUrl } from './crawl/map.js';
export type { LongJobs } from './jobs/job-runner.js';
// Memory of a browser's process tree (the operator console's readings).
export { treeRss } from './browser/memory.js';
export { parseDeliveryConfig, storageRefusal, webhookBody, type DeliveryConfig, type RetryPolicy } from './delivery/index.js';
// ffmpeg and ffprobe for media downloads: the start-up check (/readyz, submit, `gleaner doctor`).
export { checkFfmpeg, FFMPEG_INSTALL_HINT, type FfmpegStatus } from './media/ffmpeg.js';
