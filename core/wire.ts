/**
 * Typed messages between the gateway (pool side) and the farm's workers. Everything here is
 * plain data that survives structured clone and msgpack: no classes, no functions.
 * The gateway validates at the boundary; the farm trusts these shapes.
 */
import type { CrawlRules } from './crawl/scope.js';
import type { SitemapEntry } from './crawl/sitemap.js';
import type { WireError } from './errors.js';

export type OutputFormat = 'html' | 'markdown' | 'json' | 'screenshot';

/** One unit of work: a validated request of one route, batch values already split. */
export interface ScrapeTask {
  /** The request id (sync) or job id (async): 19 digits. */
  id: string;
  /** Registry route id (`universal`, `se1/search`, ...). */
  routeId: string;
  /** Validated parameters with defaults filled; `json.schema`/`json.prompt` included. */
  params: Record<string, unknown>;
  accountId: number;
  /** Absolute deadline (Unix ms): work still running then is cancelled and its browser context freed. */
  deadline: number;
  /**
   * Async jobs: the worker writes the results to the store itself (`results`, key `id`, the
   * shape `JobResult`) and replies without them (`ScrapeOutcome.stored`), so a large result is
   * neither copied to the main thread nor encoded there (DESIGN.md: workers write results).
   */
  persist?: boolean;
  /** A crawl's or a map's task: what the worker reads from the page besides its outputs. */
  crawl?: CrawlPart;
  /**
   * Sync callers that only write the results out (the Web API's sync scrape): the worker
   * returns them already serialised, each `results[]` entry as UTF-8 JSON in a buffer of its
   * own (`ScrapeOutcome.encoded`), transferred to the main thread, not copied: a large answer
   * is neither cloned across the threads nor stringified again on the main thread.
   */
  encode?: boolean;
}

/**
 * What a crawl or a map asks of one task (core/crawl):
 * - `page`: a crawl's page: the outputs as for a scrape, and the page's links, judged by `rules`
 *   (a redirect is answered as it is, not followed: its target is the crawl's to take in);
 * - `links`: the links only (a map's start page); no result;
 * - `sitemap`: the body parsed as a sitemap (XML, gzip or text); no result;
 * - `robots`: the body returned as robots.txt text with its status; no result.
 */
export type CrawlPart =
  | { kind: 'page'; crawlId: string; seq: number; rules: CrawlRules; respectRobots: boolean }
  | { kind: 'links'; rules: CrawlRules; respectRobots: boolean }
  | { kind: 'sitemap' }
  | { kind: 'robots' };

/** What the worker read for a CrawlPart. URLs are normalised (core/crawl/url.ts). */
export interface CrawlFindings {
  /** The page's final URL after redirects, when it differs from the task's URL. */
  finalUrl?: string;
  /** A crawl page answered a redirect (not followed). */
  redirected?: boolean;
  /** Its target, when in scope (else it is in `refused`). */
  redirect?: string;
  /** The page's canonical URL, when it is in scope and differs from the page's own. */
  canonical?: string;
  /** Links kept by the rules, in document order, each once. */
  links?: string[];
  /** Links the rules refused (scope, pattern, trap), each once. */
  refused?: Array<{ url: string; why: 'scope' | 'pattern' | 'trap' }>;
  /** Links not followed: the page's meta robots says nofollow, or `rel="nofollow"` (robots respected). */
  nofollow?: number;
  sitemap?: { kind: string; urls: SitemapEntry[]; sitemaps: SitemapEntry[] };
  /** robots.txt text (2xx only; capped). */
  robotsText?: string;
  /** When the worker began fetching the page (Unix ms): the crawl spaces a host's requests from here, not from its dispatch. */
  startedAt?: number;
}

/** Where each value of an offline extraction was read, in the answer's shape. */
export type JsonFieldSources = string | { [field: string]: JsonFieldSources };

/** How custom or built-in JSON was produced for a page. */
export type JsonSource = 'builtin' | 'offline' | 'llm';

/** Whether a built-in parser recognised the page (issue 5: say so instead of an empty success). */
/** Whether a built-in parser recognised the page; `blocked`: a bot wall or captcha, not the page. */
export type ParseStatus = 'parsed' | 'partial' | 'unrecognised' | 'blocked';

export interface PageMetadata {
  page: number;
  run_js: boolean;
  /** Final URL after redirects. */
  url: string;
  /** Upstream HTTP status of this page. */
  status_code: number;
  json_source?: JsonSource;
  parse_status?: ParseStatus;
  /** On a `partial` page: the expected sections the built-in parser could not find. */
  missing_sections?: string[];
  /** Schema fields the extractor could not fill, when `json.schema` was given. */
  unfilled?: string[];
  /**
   * Offline extraction: where each filled value was read, in the answer's shape — a source per
   * value (`h1`, `title`, `meta:og:title`, `jsonld:Product.offers.price`, `table:Brand`,
   * `label:Price`, `class:price`, ...), an object per nested object.
   */
  json_fields?: JsonFieldSources;
}

/** One `results[]` entry of spec 2.3: one populated key per requested format, the rest null. */
export interface PageResult {
  html: string | null;
  markdown: string | null;
  screenshot: string | null;
  json: unknown;
  metadata: PageMetadata;
}

export interface Usage {
  /** Pages fetched and charged (each page of `pages` is a fetch and a charge). */
  pages: number;
  render: boolean;
  requestBytes: number;
  responseBytes: number;
  elapsedMs: number;
  /** Built-in parses of the task's pages by status, for `gleaner_parse_status_total`. */
  parse?: Partial<Record<ParseStatus, number>>;
}

/** A media download's file, uploaded by the worker to the job's bucket; `deliveries.storage` records it. */
export interface StoredMedia {
  /** Object key (`<prefix>/<job_id>.<ext>`). */
  key: string;
  /** The object's URL at the store. */
  location: string;
  /** Bytes. */
  size: number;
  /** Seconds, as ffprobe reads the file. */
  duration: number;
  /** Upload attempts made. */
  attempts: number;
}

export interface ScrapeOutcome {
  /** Upstream HTTP status of the first page (spec 2.3 `status`). */
  status: number;
  /** Empty when `stored` (the worker wrote them to the store) or `encoded`. */
  results: PageResult[];
  /** `ScrapeTask.encode`: each `results[]` entry as UTF-8 JSON, in order (transferred buffers). */
  encoded?: Uint8Array[];
  /** The results are in the store already (`ScrapeTask.persist`). */
  stored?: boolean;
  usage: Usage;
  /** A media download's uploaded file (async and batch jobs with `storage` only). */
  media?: StoredMedia;
  /** What a crawl or map task read (ScrapeTask.crawl). */
  crawl?: CrawlFindings;
}

/**
 * A worker's answer. `escalate` (farm only): the flows (indexes in plan order) whose plain
 * attempts all met a bot wall and whose family escalates to the browser, from a thread that has
 * none; the pool reruns the task in a render thread with them marked, and answers `error` when
 * it cannot.
 */
/**
 * A worker's answer. `escalate`: flows whose plain attempts met walls (rerun their browser
 * attempt in a render thread); `browserNet`: the task's plain navigations go through the
 * browser's network stack and this thread has none (rerun it whole in a render thread).
 */
export type TaskReply = { ok: true; outcome: ScrapeOutcome } | { ok: false; error: WireError; escalate?: number[]; browserNet?: true };
