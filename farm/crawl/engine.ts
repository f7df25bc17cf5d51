/**
 * The crawl engine of a node: runs the crawl jobs the job runner hands it (farm/jobs/job-runner.ts
 * `crawls`), each as a CrawlRun (run.ts), sharing one pool of page slots so that crawls together
 * never hold more farm tasks than `concurrency` — and none while sync requests wait for a worker
 * (sync first, as for async jobs). A DELETE on this node stops its run at once; on another node
 * the run sees the stored cancel within a second (run.ts polls).
 */
import type { WireError } from '../../core/errors.js';
import type { Logger } from '../../core/log.js';
import type { CrawlCounts, CrawlStore } from '../../core/store/crawls.js';
import type { JobOutcome, JobRecord } from '../../core/store/jobs.js';
import type { UsageEntry } from '../../core/store/usage.js';
import type { Usage } from '../../core/wire.js';
import type { TaskRunner } from '../jobs/job-runner.js';
import { CrawlRun } from './run.js';

export interface CrawlEngineOptions {
  crawls: CrawlStore;
  farm: TaskRunner;
  log: Logger;
  /** Deadline of one page task (ms). */
  pageTimeoutMs: number;
  /** Page tasks in flight over every crawl of this node. */
  concurrency: number;
  /** A page's charge, as a scrape of it with the crawl's per-page options would be charged. */
  chargeOf(job: JobRecord, scrape: Record<string, unknown>, usage: Usage): UsageEntry | undefined;
  /** QUOTA_EXCEEDED when the account cannot take `pages` more pages now; undefined when it can. */
  quotaCheck(clientId: number, pages: number, rendered: boolean): WireError | undefined;
  /** A page was committed and charged (console counts). */
  onPage?(job: JobRecord, usage: Usage): void;
  /** A crawl's counts moved (about once a second), and once at its end. */
  onProgress?(job: JobRecord, counts: CrawlCounts): void;
}

/** The node's page slots, shared by its crawls. */
export interface PageSlots {
  free(): number;
  take(): boolean;
  release(): void;
  /** Called once when a slot frees. */
  onFree(cb: () => void): void;
}

export interface RunningCrawl {
  id: string;
  clientId: number;
  url: string;
  limit: number;
  counts: CrawlCounts | undefined;
}

export class CrawlEngine {
  private readonly runs = new Map<string, CrawlRun>();
  private used = 0;
  private waiters: Array<() => void> = [];
  private readonly slots: PageSlots;

  constructor(private readonly opts: CrawlEngineOptions) {
    this.slots = {
      free: () => (this.opts.farm.stats().queued > 0 ? 0 : Math.max(0, this.opts.concurrency - this.used)),
      take: () => {
        if (this.slots.free() <= 0) return false;
        this.used++;
        return true;
      },
      release: () => {
        this.used = Math.max(0, this.used - 1);
        this.wakeWaiters();
      },
      onFree: (cb) => {
        this.waiters.push(cb);
      },
    };
  }

  /** Runs a crawl job to its end; rejects when interrupted by `signal` (it then resumes at the next start). */
  async run(job: JobRecord, signal: AbortSignal): Promise<JobOutcome> {
    const run = new CrawlRun(job, this.opts, this.slots, signal);
    this.runs.set(job.id, run);
    try {
      return await run.run();
    } finally {
      this.runs.delete(job.id);
    }
  }

  private wakeWaiters(): void {
    const waiting = this.waiters;
    this.waiters = [];
    for (const cb of waiting) cb();
  }

  /** Stops a crawl running on this node at once; false when it does not run here. */
  cancel(id: string): boolean {
    const run = this.runs.get(id);
    run?.cancel();
    return run !== undefined;
  }

  /** Whether a crawl runs on this node (its end is then awaited by DELETE). */
  has(id: string): boolean {
    return this.runs.has(id);
  }

  running(): RunningCrawl[] {
    return [...this.runs.values()].map((r) => ({ id: r.id, clientId: r.clientId, url: r.params.url, limit: r.params.limit, counts: r.counts() }));
  }
}
