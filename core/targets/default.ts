/**
 * The default planner for target families without a dedicated one (video, assistants, mkt1,
 * commerce). It fixes the convention the simulator answers to:
 *
 * - url-input routes fetch the given `url` as is (one page);
 * - query-input routes fetch `{baseUrl}/{route path without the target token}?query=...` followed
 *   by the route's other parameters present in the request (and `location`), sorted by name:
 *   strings as sent, booleans and numbers as text, arrays comma-joined, objects as JSON. For
 *   `mkt1/search` that is `{base}/search?query=...&domain=...`; for `media/video/metadata` it is
 *   `{base}/metadata?query=...`; for `llm1` it is `{base}/?query=...`.
 * - routes with `pages` or `start_page` get one fetch per page, each with `page=N`;
 * - `{domain}` / `{subdomain}` placeholders in `baseUrl` take `domain` / `subdomain` (which are
 *   then not repeated in the query).
 */
import type { RouteSpec } from '../registry/types.js';
import type { Params, Query, Targets } from './base.js';
import { baseFor, buildUrl, pageRange, requireUrl, str, wire } from './base.js';
import { single, type Flow } from './flow.js';

/** Shared request parameters (spec 2.1) that shape the fetch itself, not the upstream URL. */
const NOT_FORWARDED = new Set(['url', 'query', 'pages', 'start_page', 'output', 'json', 'device', 'run_js', 'callback_url', 'storage']);

/** `media/video/metadata` with target `video` → `metadata`; `mkt1/search` → `search`; `llm1` → ``. */
export function pathAfterTarget(route: RouteSpec): string {
  const parts = route.path.split('/').filter(Boolean);
  const at = parts.indexOf(route.target);
  return (at >= 0 ? parts.slice(at + 1) : parts).join('/');
}

export function planDefault(route: RouteSpec, params: Params, targets: Targets): Flow[] {
  if (route.input === 'url') return [single(requireUrl(route, params))];
  const base = baseFor(targets, route.target, params);
  const keys = new Set([...Object.keys(route.params), 'location']);
  const rest: Query = [];
  for (const key of [...keys].sort()) {
    if (NOT_FORWARDED.has(key)) continue;
    if (key === 'domain' && base.domainInHost) continue;
    if (key === 'subdomain' && base.subdomainInHost) continue;
    const v = wire(params[key]);
    if (v !== undefined) rest.push([key, v]);
  }
  const path = `/${pathAfterTarget(route)}`;
  const head: Query = [['query', str(params.query) ?? wire(params.query) ?? '']];
  const paginated = 'pages' in route.params || 'start_page' in route.params;
  if (!paginated) return [single(buildUrl(base.url, path, [...head, ...rest]))];
  return pageRange(params).map((page) => single(buildUrl(base.url, path, [...head, ...rest, ['page', String(page)]]), page));
}
