/**
 * Crawls in LMDB (core/store/crawls.ts): seven named databases, every key led by the crawl id so
 * one range holds a crawl's records.
 *
 * | database | key | value |
 * |---|---|---|
 * | `crawls` | crawlId | CrawlState |
 * | `crawl_seen` | [crawlId, urlHash] | seq of the entry that took it in, or -1 (skipped) |
 * | `crawl_frontier` | [crawlId, depth, seq] | FrontierEntry (crawl order: breadth first) |
 * | `crawl_pages` | [crawlId, n] | PageRecord |
 * | `crawl_results` | [crawlId, seq] | PageResult (written by `complete` with the page record) |
 * | `crawl_skips` | [crawlId, n] | SkipRecord |
 * | `crawl_hosts` | [crawlId, host] | HostState |
 *
 * Each method is one write transaction: a kill -9 leaves either all of a step or none of it.
 * The steps that move URLs through the seen-set and the frontier inside those transactions
 * (taking in, skipping, committing a page) are in crawl-frontier.ts.
 * The seen-set lives only here (memory-mapped pages of the OS cache, not the heap), so a
 * 100,000-page crawl costs the engine no more memory than a 100-page one.
 */
import type { Database, Key } from 'lmdb';
import type { WireError } from '../../errors.js';
import type { PageResult } from '../../wire.js';
import {
  emptyCounts,
  type CommitOutcome,
  type CrawlState,
  type CrawlStore,
  type Discovered,
  type DiscoveryLimits,
  type FrontierEntry,
  type HostState,
  type PageDone,
  type PageRecord,
  type SkipRecord,
} from '../crawls.js';
import type { DeliveryKind } from '../jobs.js';
import { addSkip, commitPage, takeIn } from './crawl-frontier.js';
import type { StoreDatabases } from './index.js';
import type { OutboxKey } from './jobs.js';

export interface CrawlDatabases {
  crawls: Database<unknown, string>;
  seen: Database<unknown, Key>;
  frontier: Database<unknown, Key>;
  pages: Database<unknown, Key>;
  results: Database<unknown, Key>;
  skips: Database<unknown, Key>;
  hosts: Database<unknown, Key>;
}

export function openCrawlDatabases(root: StoreDatabases['root']): CrawlDatabases {
  return {
    crawls: root.openDB({ name: 'crawls' }),
    seen: root.openDB({ name: 'crawl_seen' }),
    frontier: root.openDB({ name: 'crawl_frontier' }),
    pages: root.openDB({ name: 'crawl_pages' }),
    results: root.openDB({ name: 'crawl_results' }),
    skips: root.openDB({ name: 'crawl_skips' }),
    hosts: root.openDB({ name: 'crawl_hosts' }),
  };
}

/** robots.txt text kept per host (Google reads the first 500 KiB). */
const MAX_ROBOTS_TEXT = 512 * 1024;

/** The key range of one crawl in a database keyed [crawlId, ...]. */
function range(crawlId: string): { start: Key; end: Key } {
  return { start: [crawlId], end: [`${crawlId}\u0000`] };
}

export class LmdbCrawls implements CrawlStore {
  constructor(
    private readonly dbs: StoreDatabases,
    private readonly c: CrawlDatabases,
  ) {}

  private state(id: string): CrawlState | undefined {
    return this.c.crawls.get(id) as CrawlState | undefined;
  }

  async init(crawlId: string, clientId: number): Promise<CrawlState> {
    return this.dbs.root.transaction(() => {
      const existing = this.state(crawlId);
      if (existing) return existing;
      const now = Date.now();
      const state: CrawlState = { id: crawlId, clientId, counts: emptyCounts(), lastSeq: 0, seeded: false, cancelRequested: false, deliveries: {}, createdAt: now, updatedAt: now };
      this.c.crawls.put(crawlId, state);
      return state;
    });
  }

  async get(crawlId: string): Promise<CrawlState | undefined> {
    return this.state(crawlId);
  }

  async seed(crawlId: string, urls: readonly Discovered[], depth: number, limits: DiscoveryLimits, done = false): Promise<number> {
    return this.dbs.root.transaction(() => {
      const state = this.state(crawlId);
      if (!state) return 0;
      const added = takeIn(this.c, state, urls, depth, undefined, limits);
      if (done) state.seeded = true;
      state.updatedAt = Date.now();
      this.c.crawls.put(crawlId, state);
      return added;
    });
  }

  async frontier(crawlId: string, limit: number): Promise<FrontierEntry[]> {
    return [...this.c.frontier.getRange({ ...range(crawlId), limit })].map((e) => e.value as FrontierEntry);
  }

  async lease(crawlId: string, seqs: readonly { seq: number; depth: number; host: string }[], now: number, maxLeases: number): Promise<{ leased: FrontierEntry[]; failed: number[] }> {
    return this.dbs.root.transaction(() => {
      const leased: FrontierEntry[] = [];
      const failed: number[] = [];
      const state = this.state(crawlId);
      if (!state) return { leased, failed };
      for (const { seq, depth, host } of seqs) {
        const key: Key = [crawlId, depth, seq];
        const entry = this.c.frontier.get(key) as FrontierEntry | undefined;
        if (!entry) continue;
        if (entry.leases >= maxLeases) {
          addSkip(this.c, state, entry, { reason: 'failed', error: { title: 'INTERNAL_ERROR', detail: `The page was in flight when the service stopped ${entry.leases} times; it is not fetched again.` } });
          this.c.frontier.remove(key);
          state.counts.queued--;
          state.counts.failed++;
          failed.push(seq);
          continue;
        }
        const next: FrontierEntry = { ...entry, leases: entry.leases + 1 };
        this.c.frontier.put(key, next);
        const hostKey: Key = [crawlId, host];
        const h = (this.c.hosts.get(hostKey) as HostState | undefined) ?? { lastFetchAt: 0 };
        this.c.hosts.put(hostKey, { ...h, lastFetchAt: Math.max(h.lastFetchAt, now) });
        leased.push(next);
      }
      if (failed.length > 0) {
        state.updatedAt = now;
        this.c.crawls.put(crawlId, state);
      }
      return { leased, failed };
    });
  }

  async complete(crawlId: string, done: PageDone, limits: DiscoveryLimits): Promise<CommitOutcome | undefined> {
    return this.dbs.root.transaction(() => {
      const state = this.state(crawlId);
      const key: Key = [crawlId, done.depth, done.seq];
      const entry = this.c.frontier.get(key) as FrontierEntry | undefined;
      if (!state || !entry) return undefined;
      return commitPage(this.dbs, this.c, state, entry, key, done, limits);
    });
  }

  async skip(crawlId: string, at: { seq: number; depth: number }, record: Omit<SkipRecord, 'n' | 'at' | 'url' | 'depth' | 'parent'>): Promise<boolean> {
    return this.dbs.root.transaction(() => {
      const state = this.state(crawlId);
      const key: Key = [crawlId, at.depth, at.seq];
      const entry = this.c.frontier.get(key) as FrontierEntry | undefined;
      if (!state || !entry) return false;
      addSkip(this.c, state, entry, record);
      this.c.frontier.remove(key);
      state.counts.queued--;
      if (record.reason === 'robots') state.counts.skipped_robots++;
      else state.counts.failed++;
      state.updatedAt = Date.now();
      this.c.crawls.put(crawlId, state);
      return true;
    });
  }

  async host(crawlId: string, host: string): Promise<HostState | undefined> {
    return this.c.hosts.get([crawlId, host]) as HostState | undefined;
  }

  async setRobots(crawlId: string, host: string, robots: HostState['robots']): Promise<void> {
    await this.dbs.root.transaction(() => {
      const key: Key = [crawlId, host];
      const h = (this.c.hosts.get(key) as HostState | undefined) ?? { lastFetchAt: 0 };
      const kept = robots && robots.text !== undefined && robots.text.length > MAX_ROBOTS_TEXT ? { ...robots, text: robots.text.slice(0, MAX_ROBOTS_TEXT) } : robots;
      this.c.hosts.put(key, { ...h, robots: kept });
    });
  }

  async requestCancel(crawlId: string): Promise<boolean> {
    return this.dbs.root.transaction(() => {
      const state = this.state(crawlId);
      if (!state) return false;
      this.c.crawls.put(crawlId, { ...state, cancelRequested: true, updatedAt: Date.now() });
      return true;
    });
  }

  async stop(crawlId: string, reason: WireError): Promise<void> {
    await this.dbs.root.transaction(() => {
      const state = this.state(crawlId);
      if (state && !state.stopped) this.c.crawls.put(crawlId, { ...state, stopped: reason, updatedAt: Date.now() });
    });
  }

  async pages(crawlId: string, after: number, limit: number, withResults = true): Promise<Array<{ page: PageRecord; result: PageResult | undefined }>> {
    const out: Array<{ page: PageRecord; result: PageResult | undefined }> = [];
    for (const { value } of this.c.pages.getRange({ start: [crawlId, after + 1], end: range(crawlId).end, limit })) {
      const page = value as PageRecord;
      out.push({ page, result: withResults ? (this.c.results.get([crawlId, page.seq]) as PageResult | undefined) : undefined });
    }
    return out;
  }

  async skips(crawlId: string, after: number, limit: number): Promise<SkipRecord[]> {
    return [...this.c.skips.getRange({ start: [crawlId, after + 1], end: range(crawlId).end, limit })].map((e) => e.value as SkipRecord);
  }

  async advance(crawlId: string, kind: DeliveryKind, cursor: number, closed: boolean, againAt?: number): Promise<void> {
    await this.dbs.root.transaction(() => {
      const state = this.state(crawlId);
      if (!state) return;
      const prev = state.deliveries[kind] ?? { cursor: 0, queued: false, closed: false };
      if (againAt !== undefined) this.dbs.outbox.put([againAt, crawlId, kind] satisfies OutboxKey, 0);
      state.deliveries[kind] = { cursor: Math.max(prev.cursor, cursor), closed: prev.closed || closed, queued: againAt !== undefined };
      this.c.crawls.put(crawlId, state);
    });
  }

  async settle(crawlId: string): Promise<void> {
    await this.dbs.root.transaction(() => {
      const state = this.state(crawlId);
      for (const db of [this.c.frontier, this.c.seen]) for (const key of db.getKeys(range(crawlId))) db.remove(key);
      if (state) this.c.crawls.put(crawlId, { ...state, counts: { ...state.counts, queued: 0 }, updatedAt: Date.now() });
    });
  }

  async remove(crawlId: string): Promise<void> {
    await this.dbs.root.transaction(() => this.removeIn(crawlId));
  }

  /** Inside a write transaction (the jobs sweep calls it with the job's own removal). */
  removeIn(crawlId: string): void {
    this.c.crawls.remove(crawlId);
    for (const db of [this.c.seen, this.c.frontier, this.c.pages, this.c.results, this.c.skips, this.c.hosts]) {
      for (const key of db.getKeys(range(crawlId))) db.remove(key);
    }
  }
}
