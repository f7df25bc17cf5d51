/**
 * The steps inside a crawl's LMDB write transactions (crawls.ts) that move URLs through the
 * seen-set and the frontier: taking URLs in (depth and discovery limits), refusing them,
 * recording skips, committing a finished page with its twin checks, and waking the page
 * deliveries it owes.
 *
 * Separate from crawls.ts, whose methods each open one transaction and read or write a record:
 * these are the crawl's discovery rules, shared by several of those methods (seed, lease,
 * complete, skip). Every function here must run inside the caller's write transaction: a kill -9
 * then leaves all of a step or none of it, and reads of the seen-set see the step's own writes.
 */
import type { Key } from 'lmdb';
import { urlHash } from '../../crawl/url.js';
import type { CommitOutcome, CrawlState, Discovered, DiscoveryLimits, FrontierEntry, PageDone, PageRecord, SkipRecord } from '../crawls.js';
import type { DeliveryKind } from '../jobs.js';
import type { CrawlDatabases } from './crawls.js';
import type { StoreDatabases } from './index.js';
import type { OutboxKey } from './jobs.js';
import { addUsage } from './usage.js';

/** Seen-set values besides a seq: a URL left out (skipped), and a page fetched and dropped as a twin. */
const SKIPPED = -1;
const DROPPED = -2;

/** Inside a write transaction: takes in new URLs at `depth`; returns how many were added. */
export function takeIn(c: CrawlDatabases, state: CrawlState, urls: readonly Discovered[], depth: number, parent: string | undefined, limits: DiscoveryLimits): number {
  let added = 0;
  for (const d of urls) {
    const key: Key = [state.id, urlHash(d.url)];
    if (c.seen.get(key) !== undefined) continue;
    if (depth > limits.maxDepth) {
      c.seen.put(key, SKIPPED);
      state.counts.skipped_depth++;
      continue;
    }
    if (state.counts.discovered >= limits.maxDiscovered) {
      c.seen.put(key, SKIPPED);
      state.counts.skipped_limit++;
      continue;
    }
    const seq = ++state.lastSeq;
    c.seen.put(key, seq);
    const entry: FrontierEntry = { seq, url: d.url, depth, source: d.source, leases: 0, ...(parent !== undefined ? { parent } : {}) };
    c.frontier.put([state.id, depth, seq], entry);
    state.counts.discovered++;
    state.counts.queued++;
    added++;
  }
  return added;
}

/** A URL the filters refused, counted once (inside a write transaction). */
export function refuse(c: CrawlDatabases, state: CrawlState, url: string): void {
  const key: Key = [state.id, urlHash(url)];
  if (c.seen.get(key) !== undefined) return;
  c.seen.put(key, SKIPPED);
  state.counts.skipped_filters++;
}

/** A skip record, numbered after the robots skips and failures so far (inside a write transaction). */
export function addSkip(c: CrawlDatabases, state: CrawlState, entry: FrontierEntry, record: Omit<SkipRecord, 'n' | 'at' | 'url' | 'depth' | 'parent'>): void {
  const n = state.counts.skipped_robots + state.counts.failed + 1;
  const skip: SkipRecord = { n, url: entry.url, depth: entry.depth, parent: entry.parent ?? null, at: Date.now(), ...record };
  c.skips.put([state.id, n], skip);
}

/** Owed page deliveries get an outbox entry when none is queued (inside a write transaction). */
export function wakeDeliveries(dbs: StoreDatabases, state: CrawlState, kinds: readonly DeliveryKind[], dueAt: number): void {
  for (const kind of kinds) {
    const cursor = state.deliveries[kind] ?? { cursor: 0, queued: false, closed: false };
    if (cursor.queued) continue;
    dbs.outbox.put([dueAt, state.id, kind] satisfies OutboxKey, 0);
    state.deliveries[kind] = { ...cursor, queued: true };
  }
}

/**
 * Inside a write transaction: commits a finished page whose frontier entry is `entry` (at
 * `key`). A twin of a page already kept (its redirect target, final URL or canonical URL was
 * taken in by another entry) is counted as a duplicate and its result dropped; a kept page gets
 * its page record, result and charge, its links taken in one level deeper, and its page
 * deliveries woken.
 */
export function commitPage(dbs: StoreDatabases, c: CrawlDatabases, state: CrawlState, entry: FrontierEntry, key: Key, done: PageDone, limits: DiscoveryLimits): CommitOutcome {
  const crawlId = state.id;
  const now = Date.now();
  c.frontier.remove(key);
  state.counts.queued--;
  // A redirect target already taken in by another entry: this page is that one. A canonical
  // URL taken in by a kept page: likewise. A canonical URL not met yet: it is taken in (at
  // this page's depth) and this page is dropped, so the page is kept under its canonical URL.
  let duplicate = false;
  if (done.redirect !== undefined) {
    duplicate = true;
    if (done.redirect !== null) takeIn(c, state, [{ url: done.redirect, source: entry.source === 'start' ? 'start' : 'link' }], entry.depth, entry.parent, limits);
  } else if (done.finalUrl !== undefined) {
    const finalKey: Key = [crawlId, urlHash(done.finalUrl)];
    const owner = c.seen.get(finalKey) as number | undefined;
    if (owner === undefined) c.seen.put(finalKey, done.seq);
    else if (owner !== done.seq && owner > 0) duplicate = true;
  }
  if (!duplicate && done.canonical !== undefined) {
    const owner = c.seen.get([crawlId, urlHash(done.canonical)]) as number | undefined;
    if (owner === undefined) {
      const parent = entry.parent;
      duplicate = takeIn(c, state, [{ url: done.canonical, source: entry.source === 'start' ? 'start' : 'link' }], entry.depth, parent, limits) > 0;
    } else if (owner !== done.seq && owner > 0) duplicate = true;
  }
  let page: PageRecord | undefined;
  let added = 0;
  if (duplicate) {
    state.counts.duplicates++;
    for (const r of done.refused) refuse(c, state, r.url);
    c.results.remove([crawlId, done.seq]);
    // Its URL no longer names a kept page: a page whose canonical it is may be kept.
    c.seen.put([crawlId, urlHash(entry.url)], DROPPED);
  } else {
    state.counts.done++;
    page = { n: state.counts.done, seq: done.seq, url: entry.url, depth: entry.depth, parent: entry.parent ?? null, statusCode: done.statusCode, at: now };
    if (done.finalUrl !== undefined) page.finalUrl = done.finalUrl;
    c.pages.put([crawlId, page.n], page);
    if (done.result) c.results.put([crawlId, done.seq], done.result);
    if (done.charge) addUsage(dbs, done.charge);
    added = takeIn(c, state, done.links.map((url) => ({ url, source: 'link' as const })), entry.depth + 1, done.finalUrl ?? entry.url, limits);
    for (const r of done.refused) refuse(c, state, r.url);
    wakeDeliveries(dbs, state, limits.drains, now + limits.batchMs);
  }
  state.updatedAt = now;
  c.crawls.put(crawlId, state);
  return { ...(page ? { page } : {}), added, state };
}
