/**
 * The gateway's route table, as data. Scrape routes are derived from the core registry (one
 * entry per route and mode, plus its OPTIONS entry); the rest are listed here. Handlers are
 * bound by `kind` in server.ts, so this table stays plain data that tests and docs can read.
 */
import { MODES, type Mode } from '../core/registry/types.js';
import { ROUTES, pathFor } from '../core/registry/index.js';
import { CRAWL_PATH, MAP_PATH } from '../core/crawl/spec.js';
import type { Endpoint } from '../core/schema/index.js';

export type Method = 'GET' | 'POST' | 'OPTIONS' | 'DELETE';

export type RouteKind =
  | 'scrape'
  | 'submit'
  | 'submitBatch'
  | 'search'
  | 'map'
  | 'crawlSubmit'
  | 'crawlGet'
  | 'crawlCancel'
  | 'jobGet'
  | 'scrapers'
  | 'options'
  | 'openapi'
  | 'healthz'
  | 'readyz'
  | 'metrics'
  | 'feed'
  | 'status'
  | 'statusJob'
  | 'console'
  | 'mcp';

export interface HttpRoute {
  method: Method;
  /** Exact path, or for `param` routes the prefix before the parameter. */
  path: string;
  /** Name of the single trailing path parameter (`/v1/async/scrape/{request_id}`). */
  param?: string;
  kind: RouteKind;
  auth: 'key' | 'none' | 'admin';
  /** Registry route id checked against the account's entitlements. */
  entitlement?: string;
  /** Body validated against this endpoint's schema before the handler runs. */
  endpoint?: Endpoint;
  summary: string;
  /** Request headers the handler reads besides the usual ones (copied before any await). */
  headers?: readonly string[];
}

/** What the MCP transport reads of a request (session, protocol version, resumption). */
const MCP_HEADERS = ['mcp-session-id', 'mcp-protocol-version', 'last-event-id'] as const;

const KIND_OF_MODE: Record<Mode, RouteKind> = { sync: 'scrape', async: 'submit', batch: 'submitBatch' };

export function buildRouteTable(): HttpRoute[] {
  const table: HttpRoute[] = [
    { method: 'POST', path: '/v1/search', kind: 'search', auth: 'key', entitlement: 'search', endpoint: { kind: 'search' }, summary: 'Ranked organic web search results' },
    { method: 'OPTIONS', path: '/v1/search', kind: 'options', auth: 'key', endpoint: { kind: 'search' }, summary: 'Example body of POST /v1/search' },
    { method: 'POST', path: MAP_PATH, kind: 'map', auth: 'key', entitlement: 'map', endpoint: { kind: 'map' }, summary: 'The URLs of a site (sitemaps and start-page links)' },
    { method: 'OPTIONS', path: MAP_PATH, kind: 'options', auth: 'key', endpoint: { kind: 'map' }, summary: `Example body of POST ${MAP_PATH}` },
    { method: 'POST', path: CRAWL_PATH, kind: 'crawlSubmit', auth: 'key', entitlement: 'crawl', endpoint: { kind: 'crawl' }, summary: 'Start a crawl of a site (async)' },
    { method: 'OPTIONS', path: CRAWL_PATH, kind: 'options', auth: 'key', endpoint: { kind: 'crawl' }, summary: `Example body of POST ${CRAWL_PATH}` },
    { method: 'GET', path: `${CRAWL_PATH}/`, param: 'id', kind: 'crawlGet', auth: 'key', entitlement: 'crawl', summary: 'Status, counts and pages (by cursor) of a crawl' },
    { method: 'DELETE', path: `${CRAWL_PATH}/`, param: 'id', kind: 'crawlCancel', auth: 'key', entitlement: 'crawl', summary: 'Cancel a crawl (its pages so far are kept)' },
  ];
  for (const route of ROUTES) {
    for (const mode of MODES) {
      const path = pathFor(route, mode);
      if (!path) continue;
      const endpoint: Endpoint = { kind: 'scrape', routeId: route.id, mode };
      table.push(
        { method: 'POST', path, kind: KIND_OF_MODE[mode], auth: 'key', entitlement: route.id, endpoint, summary: `${route.summary} (${mode})` },
        { method: 'OPTIONS', path, kind: 'options', auth: 'key', endpoint, summary: `Example body of ${path}` },
      );
    }
  }
  table.push(
    { method: 'GET', path: '/v1/async/scrape/', param: 'request_id', kind: 'jobGet', auth: 'key', summary: 'Status and results of an async job' },
    { method: 'GET', path: '/v1/scrapers', kind: 'scrapers', auth: 'key', summary: 'Every implemented scrape path' },
    { method: 'GET', path: '/v1/openapi.json', kind: 'openapi', auth: 'none', summary: 'OpenAPI document of the Web API' },
    { method: 'GET', path: '/v1/feed', kind: 'feed', auth: 'admin', summary: 'WebSocket job feed (upgrade)' },
    { method: 'GET', path: '/v1/status', kind: 'status', auth: 'admin', summary: 'Operator status: queue, farm, rates, latency, errors, usage' },
    { method: 'GET', path: '/v1/status/jobs/', param: 'job_id', kind: 'statusJob', auth: 'admin', summary: 'Any account\'s job, for the operator console' },
    { method: 'GET', path: '/console', kind: 'console', auth: 'none', summary: 'Operator console (sign in with an admin key)' },
    { method: 'POST', path: '/mcp', kind: 'mcp', auth: 'key', headers: MCP_HEADERS, summary: 'Model Context Protocol (streamable HTTP)' },
    { method: 'DELETE', path: '/mcp', kind: 'mcp', auth: 'key', headers: MCP_HEADERS, summary: 'Ends an MCP session' },
    { method: 'GET', path: '/healthz', kind: 'healthz', auth: 'none', summary: 'Liveness' },
    { method: 'GET', path: '/readyz', kind: 'readyz', auth: 'none', summary: 'Readiness: store open, farm ready' },
    { method: 'GET', path: '/metrics', kind: 'metrics', auth: 'admin', summary: 'Prometheus metrics (admin key or GLEANER_METRICS_TOKEN)' },
  );
  return table;
}

/** What the router needs of a route; the Web API and Job API tables both satisfy it. */
export interface Routable {
  method: Method;
  path: string;
  param?: string;
  /** Fixed tail after the parameter (`/v1/queries/{id}/results`). */
  suffix?: string;
  /** What the route does, as the console's activity counts it (Web API route kinds). */
  kind?: string;
  /** Request headers the handler reads besides the common ones, copied before the first await. */
  headers?: readonly string[];
}

export type Match<R extends Routable = HttpRoute> =
  | { found: true; route: R; param?: string }
  | { found: false; status: 404 }
  | { found: false; status: 405; allow: Method[] };

/** Exact paths in a Map; parameter routes checked by prefix (and an optional suffix). Built once. */
export class Router<R extends Routable = HttpRoute> {
  private readonly exact = new Map<string, Map<string, R>>();
  private readonly prefixed: R[] = [];

  constructor(readonly routes: readonly R[]) {
    for (const route of routes) {
      if (route.param) {
        this.prefixed.push(route);
        continue;
      }
      let byMethod = this.exact.get(route.path);
      if (!byMethod) this.exact.set(route.path, (byMethod = new Map()));
      byMethod.set(route.method, route);
    }
  }

  match(method: string, rawPath: string): Match<R> {
    // Tolerate one trailing slash (`/v1/scrapers/`), never rewrite anything else.
    const path = rawPath.length > 1 && rawPath.endsWith('/') ? rawPath.slice(0, -1) : rawPath;
    const byMethod = this.exact.get(path);
    if (byMethod) {
      // A known path answers 405 for other methods, even where a parameter route could match.
      const route = byMethod.get(method);
      return route ? { found: true, route } : { found: false, status: 405, allow: [...byMethod.keys()] as Method[] };
    }
    const allow: Method[] = [];
    for (const route of this.prefixed) {
      if (!path.startsWith(route.path)) continue;
      const suffix = route.suffix ?? '';
      if (suffix && !path.endsWith(suffix)) continue;
      const param = path.slice(route.path.length, path.length - suffix.length);
      if (param === '' || param.includes('/')) continue;
      if (route.method === method) return { found: true, route, param: safeDecode(param) };
      allow.push(route.method);
    }
    return allow.length > 0 ? { found: false, status: 405, allow } : { found: false, status: 404 };
  }
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
