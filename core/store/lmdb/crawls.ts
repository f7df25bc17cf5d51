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
 * The seen-set lives only here (memory-mapped pages of the OS cache, not the heap), so a
 * 100,000-page crawl costs the engine no more memory than a 100-page one.
 */
import type { Database, Key } from 'lmdb';
import { urlHash } from '../../crawl/url.js';
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
import type { StoreDatabases } from './index.js';
import type { OutboxKey } from './jobs.js';
import { addUsage } from './usage.js';

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
/** Seen-set values besides a seq: a URL left out (skipped), and a page fetched and dropped as a twin. */
const SKIPPED = -1;
const DROPPED = -2;

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

  /** Inside a write transaction: takes in new URLs at `depth`; returns how many were added. */
  private takeIn(state: CrawlState, urls: readonly Discovered[], depth: number, parent: string | undefined, limits: DiscoveryLimits): number {
    let added = 0;
    for (const d of urls) {
      const key: Key = [state.id, urlHash(d.url)];
      if (this.c.seen.get(key) !== undefined) continue;
      if (depth > limits.maxDepth) {
        this.c.seen.put(key, SKIPPED);
        state.counts.skipped_depth++;
        continue;
      }
      if (state.counts.discovered >= limits.maxDiscovered) {
        this.c.seen.put(key, SKIPPED);
        state.counts.skipped_limit++;
        continue;
      }
      const seq = ++state.lastSeq;
      this.c.seen.put(key, seq);
      const entry: FrontierEntry = { seq, url: d.url, depth, source: d.source, leases: 0, ...(parent !== undefined ? { parent } : {}) };
      this.c.frontier.put([state.id, depth, seq], entry);
      state.counts.discovered++;
      state.counts.queued++;
      added++;
    }
    return added;
  }

  async seed(crawlId: string, urls: readonly Discovered[], depth: number, limits: DiscoveryLimits, done = false): Promise<number> {
    return this.dbs.root.transaction(() => {
      const state = this.state(crawlId);
      if (!state) return 0;
      const added = this.takeIn(state, urls, depth, undefined, limits);
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
          this.addSkip(state, entry, { reason: 'failed', error: { title: 'INTERNAL_ERROR', detail: `The page was in flight when the service stopped ${entry.leases} times; it is not fetched again.` } });
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

  private addSkip(state: CrawlState, entry: FrontierEntry, record: Omit<SkipRecord, 'n' | 'at' | 'url' | 'depth' | 'parent'>): void {
    const n = state.counts.skipped_robots + state.counts.failed + 1;
    const skip: SkipRecord = { n, url: entry.url, depth: entry.depth, parent: entry.parent ?? null, at: Date.now(), ...record };
    this.c.skips.put([state.id, n], skip);
  }

  /** Owed page deliveries get an outbox entry when none is queued (inside a write transaction). */
  private wake(state: CrawlState, kinds: readonly DeliveryKind[], dueAt: number): void {
    for (const kind of kinds) {
      const cursor = state.deliveries[kind] ?? { cursor: 0, queued: false, closed: false };
      if (cursor.queued) continue;
      this.dbs.outbox.put([dueAt, state.id, kind] satisfies OutboxKey, 0);
      state.deliveries[kind] = { ...cursor, queued: true };
    }
  }

  async complete(crawlId: string, done: PageDone, limits: DiscoveryLimits): Promise<CommitOutcome | undefined> {
    return this.dbs.root.transaction(() => {
      const state = this.state(crawlId);
      const key: Key = [crawlId, done.depth, done.seq];
      const entry = this.c.frontier.get(key) as FrontierEntry | undefined;
      if (!state || !entry) return undefined;
      const now = Date.now();
      this.c.frontier.remove(key);
      state.counts.queued--;
      // A redirect target already taken in by another entry: this page is that one. A canonical
      // URL taken in by a kept page: likewise. A canonical URL not met yet: it is taken in (at
      // this page's depth) and this page is dropped, so the page is kept under its canonical URL.
      let duplicate = false;
      if (done.redirect !== undefined) {
        duplicate = true;
        if (done.redirect !== null) this.takeIn(state, [{ url: done.redirect, source: entry.source === 'start' ? 'start' : 'link' }], entry.depth, entry.parent, limits);
      } else if (done.finalUrl !== undefined) {
        const finalKey: Key = [crawlId, urlHash(done.finalUrl)];
        const owner = this.c.seen.get(finalKey) as number | undefined;
        if (owner === undefined) this.c.seen.put(finalKey, done.seq);
        else if (owner !== done.seq && owner > 0) duplicate = true;
      }
      if (!duplicate && done.canonical !== undefined) {
        const owner = this.c.seen.get([crawlId, urlHash(done.canonical)]) as number | undefined;
        if (owner === undefined) {
          const parent = entry.parent;
          duplicate = this.takeIn(state, [{ url: done.canonical, source: entry.source === 'start' ? 'start' : 'link' }], entry.depth, parent, limits) > 0;
        } else if (owner !== done.seq && owner > 0) duplicate = true;
      }
      let page: PageRecord | undefined;
      let added = 0;
      if (duplicate) {
        state.counts.duplicates++;
        for (const r of done.refused) this.refuse(state, r.url);
        this.c.results.remove([crawlId, done.seq]);
        // Its URL no longer names a kept page: a page whose canonical it is may be kept.
        this.c.seen.put([crawlId, urlHash(entry.url)], DROPPED);
      } else {
        state.counts.done++;
        page = { n: state.counts.done, seq: done.seq, url: entry.url, depth: entry.depth, parent: entry.parent ?? null, statusCode: done.statusCode, at: now };
        if (done.finalUrl !== undefined) page.finalUrl = done.finalUrl;
        this.c.pages.put([crawlId, page.n], page);
        if (done.result) this.c.results.put([crawlId, done.seq], done.result);
        if (done.charge) addUsage(this.dbs, done.charge);
        added = this.takeIn(state, done.links.map((url) => ({ url, source: 'link' as const })), entry.depth + 1, done.finalUrl ?? entry.url, limits);
        for (const r of done.refused) this.refuse(state, r.url);
        this.wake(state, limits.drains, now + limits.batchMs);
      }
      state.updatedAt = now;
      this.c.crawls.put(crawlId, state);
      return { ...(page ? { page } : {}), added, state };
    });
  }

  /** A URL the filters refused, counted once (inside a write transaction). */
  private refuse(state: CrawlState, url: string): void {
    const key: Key = [state.id, urlHash(url)];
    if (this.c.seen.get(key) !== undefined) return;
    this.c.seen.put(key, SKIPPED);
    state.counts.skipped_filters++;
  }

  async skip(crawlId: string, at: { seq: number; depth: number }, record: Omit<SkipRecord, 'n' | 'at' | 'url' | 'depth' | 'parent'>): Promise<boolean> {
    return this.dbs.root.transaction(() => {
      const state = this.state(crawlId);
      const key: Key = [crawlId, at.depth, at.seq];
      const entry = this.c.frontier.get(key) as FrontierEntry | undefined;
      if (!state || !entry) return false;
      this.addSkip(state, entry, record);
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
