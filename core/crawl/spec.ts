/**
 * `POST /v1/map` and `POST /v1/async/crawl` as data (like `SEARCH` in the registry): their
 * parameters drive the request schemas, validation, OPTIONS, OpenAPI, the MCP tools and the typed
 * client. The crawl's `scrape` object is the generic route's per-page options and is built from
 * the `/v1/scrape` schema itself (core/schema/build.ts), so it validates exactly as a scrape.
 *
 * Politeness defaults (README "Crawl"): `delay_ms` 200 between two fetches' starts on one host
 * and `max_concurrency_per_host` 4 — at most 5 page requests a second and 4 open at once on a
 * site, less than a browser opening one page with its assets (6 connections a host), so a small
 * site does not notice, while a 100,000-page crawl of one host still ends within the day
 * (about 5.5 h). robots.txt `Crawl-delay` raises the delay; a host answering 429/503 is slowed.
 */
import type { ParamSpec } from '../registry/types.js';
import { url } from '../registry/params.js';
import { MAX_PATTERN_LENGTH, MAX_PATTERNS } from './patterns.js';

export interface EndpointSpec {
  readonly id: 'map' | 'crawl';
  readonly params: Readonly<Record<string, ParamSpec>>;
  readonly required: readonly string[];
  readonly summary: string;
}

/** The HTTP paths (the gateway's route table and discovery read them). */
export const MAP_PATH = '/v1/map';
export const CRAWL_PATH = '/v1/async/crawl';

export const MAP_LIMIT_MAX = 100_000;
export const CRAWL_LIMIT_MAX = 100_000;
export const DEFAULT_DELAY_MS = 200;
export const DEFAULT_HOST_CONCURRENCY = 4;
export const DEFAULT_MAX_DEPTH = 10;

const patterns = (what: string): ParamSpec => ({
  type: 'array',
  description: `${what} Regular expressions (RE2 syntax: no backreferences or lookaround; matched in linear time) tested anywhere in a URL's path, e.g. "^/blog/". At most ${MAX_PATTERNS}, each at most ${MAX_PATTERN_LENGTH} characters.`,
  items: { type: 'string', description: 'A regular expression on the path.', minLength: 1, maxLength: MAX_PATTERN_LENGTH },
  maxItems: MAX_PATTERNS,
  default: [],
});

const sitemap: ParamSpec = {
  type: 'string',
  description: 'include: sitemap URLs (robots.txt Sitemap lines, /sitemap.xml; indexes, gzip and text sitemaps followed) and links; only: sitemap URLs only; skip: links only.',
  enum: ['include', 'only', 'skip'],
  default: 'include',
};

export const MAP: EndpointSpec = Object.freeze<EndpointSpec>({
  id: 'map',
  params: {
    url: url('The site: any page of it, usually its home page. Absolute http/https URL, at most 8192 characters.'),
    search: { type: 'string', description: 'Keep only URLs containing this text (case-insensitive).', minLength: 1, maxLength: 256 },
    include_subdomains: { type: 'boolean', description: 'Also list URLs of the site\'s subdomains (blog.example.com for example.com).', default: false },
    ignore_query_parameters: { type: 'boolean', description: 'Drop query strings, so /p?a=1 and /p?a=2 are one URL.', default: false },
    sitemap,
    limit: { type: 'integer', description: `Most URLs returned, 1 to ${MAP_LIMIT_MAX}.`, minimum: 1, maximum: MAP_LIMIT_MAX, default: 5000 },
  },
  required: ['url'],
  summary: 'The URLs of a site, from its sitemaps and the links of its start page, without fetching every page.',
});

export const CRAWL: EndpointSpec = Object.freeze<EndpointSpec>({
  id: 'crawl',
  params: {
    url: url('Start page: absolute http/https URL, at most 8192 characters.'),
    limit: { type: 'integer', description: `Most pages fetched and returned, 1 to ${CRAWL_LIMIT_MAX}.`, minimum: 1, maximum: CRAWL_LIMIT_MAX, default: 100 },
    max_depth: { type: 'integer', description: 'Most links followed from the start page (0: the start page only; sitemap URLs count as depth 1).', minimum: 0, maximum: 100, default: DEFAULT_MAX_DEPTH },
    include_paths: patterns('Follow only URLs whose path matches one of these.'),
    exclude_paths: patterns('Never follow URLs whose path matches one of these.'),
    allow_subdomains: { type: 'boolean', description: 'Follow links to the site\'s subdomains.', default: false },
    allow_external: { type: 'boolean', description: 'Follow links to other sites too.', default: false },
    ignore_query_parameters: { type: 'boolean', description: 'Drop query strings, so /p?a=1 and /p?a=2 are one page.', default: false },
    sitemap,
    respect_robots: { type: 'boolean', description: 'Obey robots.txt (each URL it keeps out is listed with the deciding rule) and nofollow.', default: true },
    delay_ms: { type: 'integer', description: 'Least time between the starts of two fetches on one host (ms), 0 to 60000; robots.txt Crawl-delay raises it.', minimum: 0, maximum: 60_000, default: DEFAULT_DELAY_MS },
    max_concurrency_per_host: { type: 'integer', description: 'Most fetches in flight on one host, 1 to 16.', minimum: 1, maximum: 16, default: DEFAULT_HOST_CONCURRENCY },
    callback_pages: { type: 'boolean', description: 'With callback_url: also send crawl.page events (batches of up to 50 pages) as pages are fetched, before the one crawl.done.', default: false },
  },
  required: ['url'],
  summary: 'Crawl a site from a start page: every page once, politely, as a durable async job whose pages are scrape results.',
});
