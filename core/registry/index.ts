/**
 * The route registry: every scrape route of spec part 4 as data (defined by the target
 * adapters, core/targets/), and the lookups derived from it. Everything that lists routes (validation, `GET /v1/scrapers`, `OPTIONS`, OpenAPI, the
 * Job API's source names) reads this module. All maps are built once at module load; a
 * duplicate id, source or path is a programming error and fails the import.
 */
import { TARGET_ROUTES } from '../targets/index.js';
import { query } from './params.js';
import type { Mode, RouteSpec, SearchSpec } from './types.js';
import { MODES } from './types.js';

export type { Family, LocationKind, Mode, ParamSpec, Product, RouteSpec, SearchSpec } from './types.js';
export { MODES } from './types.js';
export { MKT1_DEFAULT_DOMAIN, MKT1_MARKETPLACES, type PostalRule } from '../targets/mkt1/routes.js';
export { COMMERCE_TARGETS, FAMILIES, type CommerceFamily } from '../targets/commerce/routes.js';

/** Every scrape route, assembled from the target adapters (core/targets/index.ts). */
export const ROUTES: readonly RouteSpec[] = TARGET_ROUTES;

/** `POST /v1/search` (spec 4.1); echo order is query, location, max_results (spec 2.2). */
export const SEARCH: SearchSpec = Object.freeze<SearchSpec>({
  id: 'search',
  params: {
    query: query('Search terms, 1 to 2048 characters.'),
    location: { type: 'string', description: 'ISO 3166-1 alpha-2 country code; geo-targets the rankings.', format: 'country' },
    max_results: { type: 'integer', description: 'Number of results, 1 to 20.', minimum: 1, maximum: 20, default: 10 },
  },
  required: ['query'],
  summary: 'Ranked organic web search results from the configured engines.',
});

const PREFIX: Record<Mode, string> = {
  sync: '/v1/scrape',
  async: '/v1/async/scrape',
  batch: '/v1/async/scrape/batch',
};

/** The HTTP path of a route in a mode, or undefined when the route lacks that mode. */
export function pathFor(route: RouteSpec, mode: Mode): string | undefined {
  if (!route.modes.includes(mode)) return undefined;
  return route.path === '' ? PREFIX[mode] : `${PREFIX[mode]}/${route.path}`;
}

export interface PathMatch {
  route: RouteSpec;
  mode: Mode;
}

const byId = new Map<string, RouteSpec>();
const bySource = new Map<string, RouteSpec>();
const byPath = new Map<string, PathMatch>();

for (const route of ROUTES) {
  if (byId.has(route.id)) throw new Error(`registry: duplicate route id ${route.id}`);
  if (bySource.has(route.source)) throw new Error(`registry: duplicate source ${route.source}`);
  byId.set(route.id, route);
  bySource.set(route.source, route);
  for (const mode of MODES) {
    const path = pathFor(route, mode);
    if (path === undefined) continue;
    if (byPath.has(path)) throw new Error(`registry: duplicate path ${path}`);
    byPath.set(path, { route, mode });
  }
}

const SORTED_PATHS: readonly string[] = Object.freeze([...byPath.keys()].sort());

export function routeById(id: string): RouteSpec | undefined {
  return byId.get(id);
}

/** The route of a Job API `source` name (`universal`, `se1_search`, `mkt1_product`, ...). */
export function routeBySource(source: string): RouteSpec | undefined {
  return bySource.get(source);
}

/**
 * The route and mode of an HTTP path (`/v1/async/scrape/se1/search` → se1/search, async).
 * One Map lookup; a single trailing slash is tolerated. The job collection route
 * (`/v1/async/scrape/{request_id}`) and `/v1/scrape/batch` are not scrape paths.
 */
export function matchScrapePath(path: string): PathMatch | undefined {
  const hit = byPath.get(path);
  if (hit || path.length < 2 || !path.endsWith('/')) return hit;
  return byPath.get(path.slice(0, -1));
}

/** Every implemented sync, async and batch scrape path, sorted (`GET /v1/scrapers`). */
export function scrapePaths(): string[] {
  return [...SORTED_PATHS];
}

export interface JsonSupportGroups {
  /** Routes with a built-in parser: `output` with `json` works as is. */
  json_supported: string[];
  /** Routes whose output is a file, not a document (video download). */
  json_not_supported: string[];
  /** Routes without a built-in parser: `json` output needs `json.prompt` or `json.schema`. */
  json_supported_only_with_prompt_or_schema: string[];
}

export type JsonSupport = keyof JsonSupportGroups;

export function jsonSupportOf(route: RouteSpec): JsonSupport {
  if (route.outputKind === 'media') return 'json_not_supported';
  return route.parser === 'none' ? 'json_supported_only_with_prompt_or_schema' : 'json_supported';
}

/** Scrape paths grouped by how `output` with `json` behaves on them; each list sorted. */
export function groupedByJsonSupport(): JsonSupportGroups {
  const groups: JsonSupportGroups = {
    json_supported: [],
    json_not_supported: [],
    json_supported_only_with_prompt_or_schema: [],
  };
  for (const path of SORTED_PATHS) {
    const hit = byPath.get(path);
    if (hit) groups[jsonSupportOf(hit.route)].push(path);
  }
  return groups;
}
