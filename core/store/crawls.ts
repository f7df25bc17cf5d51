/**
 * The crawl seam: a crawl's durable frontier, seen-set, counts, page list and delivery cursors
 * (implemented by lmdb/crawls.ts; the cluster store implements the same contract,
 * test/store-contract/crawls.ts). A crawl is also an async job (`JobStore`, route `crawl`): the
 * job record carries its state machine, retention and outbox; this seam carries what is
 * particular to a crawl. README.md beside this file lists the guarantees.
 *
 * Every write is one atomic step that a repeat leaves unchanged (a redelivered commit finds its
 * frontier entry gone and answers undefined), so the engine (farm/crawl/) may retry any call
 * after a crash or a redelivery without losing or doubling a page:
 * - `seed`/`complete` insert only URLs whose key (url.ts `urlHash`) is not in the seen-set; the
 *   seen-set is never held in memory by the engine.
 * - `complete` removes the page's frontier entry, adds its page record and its charge, the
 *   links it found and the outbox wake-ups it owes, together.
 * - `lease` counts a dispatch before the fetch (a page in flight at a crash is fetched again at
 *   most `maxLeases` times) and stamps the host's last fetch, so politeness holds across
 *   restarts.
 */
import type { RobotsDecision } from '../crawl/robots.js';
import type { WireError } from '../errors.js';
import type { PageResult } from '../wire.js';
import type { DeliveryKind } from './jobs.js';
import type { UsageEntry } from './usage.js';

/** The route id of crawl jobs (not a scrape route: it has its own endpoints). */
export const CRAWL_ROUTE_ID = 'crawl';

export interface CrawlCounts {
  /** Unique URLs taken into the crawl (the start, sitemap entries, links). */
  discovered: number;
  /** In the frontier: waiting or in flight. */
  queued: number;
  /** Pages fetched and kept (results). */
  done: number;
  /** Pages whose fetch failed after the farm's retries (or that were in flight at too many crashes). */
  failed: number;
  /** URLs fetched that turned out to be another page: a redirect, a redirect target or canonical met already, a canonical twin. */
  duplicates: number;
  /** URLs robots.txt keeps out (each with its decision, `skips`). */
  skipped_robots: number;
  /** Unique URLs outside the scope, refused by a path pattern, or traps. */
  skipped_filters: number;
  /** Unique URLs found deeper than `max_depth`. */
  skipped_depth: number;
  /** Unique URLs left out because the crawl's discovery cap was reached. */
  skipped_limit: number;
}

export function emptyCounts(): CrawlCounts {
  return { discovered: 0, queued: 0, done: 0, failed: 0, duplicates: 0, skipped_robots: 0, skipped_filters: 0, skipped_depth: 0, skipped_limit: 0 };
}

/** How far a delivery of a running crawl has gone (webhook: crawl.page batches; storage: page objects). */
export interface DeliveryCursor {
  /** Pages (by `n`) delivered so far. */
  cursor: number;
  /** An outbox entry for this kind exists (so a commit need not add one). */
  queued: boolean;
  /** The closing part went: `crawl.done` sent, or the index uploaded. */
  closed: boolean;
}

export interface CrawlState {
  id: string;
  clientId: number;
  counts: CrawlCounts;
  /** Sequence of the last frontier entry (each URL taken in gets the next). */
  lastSeq: number;
  /** Sitemaps and the start URL are in (set once; a restart before it seeds again, deduplicated). */
  seeded: boolean;
  /** DELETE asked for a stop; the engine that runs it stops and finishes it `cancelled`. */
  cancelRequested: boolean;
  /** Why it stopped early (QUOTA_EXCEEDED), kept with what it fetched. */
  stopped?: WireError;
  deliveries: Partial<Record<DeliveryKind, DeliveryCursor>>;
  createdAt: number;
  updatedAt: number;
}

export interface FrontierEntry {
  seq: number;
  url: string;
  depth: number;
  /** The page it was found on; absent for the start URL and sitemap entries. */
  parent?: string;
  /** `start`, `sitemap` or `link`. */
  source: 'start' | 'sitemap' | 'link';
  /** Dispatches so far (`lease`). */
  leases: number;
}

/** A URL taken in by `seed` or `complete`. */
export interface Discovered {
  url: string;
  source: FrontierEntry['source'];
}

/** A URL the worker's filters refused (counted once per unique URL). */
export interface Refused {
  url: string;
  why: 'scope' | 'pattern' | 'trap';
}

export interface DiscoveryLimits {
  maxDepth: number;
  /** Unique URLs a crawl takes in at most (beyond: skipped_limit). */
  maxDiscovered: number;
  /** Webhook kinds that want page batches as pages commit (`callback_pages`, `storage`). */
  drains: readonly DeliveryKind[];
  /** How long a page batch gathers before its delivery is due (ms). */
  batchMs: number;
}

/** One fetched page, as the engine commits it. */
export interface PageDone {
  seq: number;
  /** Depth of its frontier entry (the entry's key). */
  depth: number;
  /** Normalised final URL after redirects, when it differs from the entry's URL. */
  finalUrl?: string;
  /**
   * Normalised in-scope canonical URL, when it differs from the page's own. Taken in by a kept
   * page: this one is a duplicate. Not met yet: it is taken in at this page's depth and this
   * page is dropped (the page is kept under its canonical URL when that is fetched).
   */
  canonical?: string;
  statusCode: number;
  /**
   * The URL answered a redirect (not followed): its in-scope target, taken in at this entry's
   * depth unless met already, or null when the target is out of scope (in `refused`); the entry
   * keeps no page and counts as a duplicate.
   */
  redirect?: string | null;
  links: readonly string[];
  refused: readonly Refused[];
  /** The page's charge; undefined: not charged. A duplicate is never charged. */
  charge?: UsageEntry;
  /** The page's result (undefined: none, e.g. a redirect). Stored with the page record, dropped with a duplicate. */
  result?: PageResult;
}

export interface PageRecord {
  /** 1-based position in the crawl's results (commit order): the pagination cursor. */
  n: number;
  seq: number;
  url: string;
  /** The final URL when a redirect moved it. */
  finalUrl?: string;
  depth: number;
  parent: string | null;
  statusCode: number;
  at: number;
}

/** A URL robots.txt kept out, or a page whose fetch failed. */
export interface SkipRecord {
  n: number;
  url: string;
  depth: number;
  parent: string | null;
  reason: 'robots' | 'failed';
  robots?: RobotsDecision;
  error?: { title: string; detail: string };
  at: number;
}

export interface CommitOutcome {
  /** The page record (undefined: the page was a duplicate and was dropped). */
  page?: PageRecord;
  /** New frontier entries. */
  added: number;
  state: CrawlState;
}

/** A host's politeness and robots state within one crawl. */
export interface HostState {
  /** When the last fetch to the host was dispatched (Unix ms). */
  lastFetchAt: number;
  /** robots.txt as fetched (status, and text on 2xx, capped at 512 KiB). */
  robots?: { status: number; text?: string };
}

export interface CrawlStore {
  /** Creates the crawl's state (idempotent: an existing state is returned as it is). */
  init(crawlId: string, clientId: number): Promise<CrawlState>;
  get(crawlId: string): Promise<CrawlState | undefined>;
  /** Takes in URLs at `depth` (start: 0, sitemap entries: 1), deduplicated; returns how many were new. */
  seed(crawlId: string, urls: readonly Discovered[], depth: number, limits: DiscoveryLimits, done?: boolean): Promise<number>;
  /** The first `limit` frontier entries in crawl order (depth, then discovery). */
  frontier(crawlId: string, limit: number): Promise<FrontierEntry[]>;
  /**
   * Counts a dispatch of each entry and stamps their hosts' last fetch. Returns the entries as
   * leased; an entry leased `maxLeases` times already (in flight at that many crashes) is
   * failed instead (in `failed`), not leased again. Entries gone from the frontier are left out.
   */
  lease(crawlId: string, seqs: readonly { seq: number; depth: number; host: string }[], now: number, maxLeases: number): Promise<{ leased: FrontierEntry[]; failed: number[] }>;
  /** Commits a fetched page (see above). Undefined when its entry is gone (committed already). */
  complete(crawlId: string, page: PageDone, limits: DiscoveryLimits): Promise<CommitOutcome | undefined>;
  /** Removes an entry with a skip record (robots decision or fetch failure). False when it was gone. */
  skip(crawlId: string, entry: { seq: number; depth: number }, record: Omit<SkipRecord, 'n' | 'at' | 'url' | 'depth' | 'parent'>): Promise<boolean>;
  /** The host's state in this crawl. */
  host(crawlId: string, host: string): Promise<HostState | undefined>;
  /** Stores a host's robots.txt answer. */
  setRobots(crawlId: string, host: string, robots: HostState['robots']): Promise<void>;
  /** Marks the crawl for a stop (DELETE). False when there is no such crawl. */
  requestCancel(crawlId: string): Promise<boolean>;
  /** Records why the crawl stopped early (QUOTA_EXCEEDED). */
  stop(crawlId: string, reason: WireError): Promise<void>;
  /** Pages after `after` (by `n`), at most `limit`, with their results (unless `withResults` is false). */
  pages(crawlId: string, after: number, limit: number, withResults?: boolean): Promise<Array<{ page: PageRecord; result: PageResult | undefined }>>;
  /** Skip records after `after` (by `n`), at most `limit`. */
  skips(crawlId: string, after: number, limit: number): Promise<SkipRecord[]>;
  /**
   * Moves a delivery cursor (it never goes back) and records whether the closing part went.
   * With `againAt`, more is owed: a new outbox entry for the kind, due then (the caller picks a
   * time other than its current entry's due time, which it then records as delivered).
   */
  advance(crawlId: string, kind: DeliveryKind, cursor: number, closed: boolean, againAt?: number): Promise<void>;
  /** Frontier and seen-set removed (the crawl is final; its pages and skips stay until the job is swept). */
  settle(crawlId: string): Promise<void>;
  /** Everything of the crawl removed (the job's retention ended). */
  remove(crawlId: string): Promise<void>;
}
