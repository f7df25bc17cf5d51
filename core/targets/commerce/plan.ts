/**
 * Fetch planning for the commerce routes: a validated request becomes one flow per page, from
 * the token's `GLEANER_TARGETS` entry (config.ts). Every family parameter the request carries
 * reaches the upstream: through the template that names it, a cookie or header mapped to it,
 * or else appended to the query string under its own name (sorted), so that an entry never
 * silently drops one.
 *
 * - A token whose entry has only a `baseUrl` keeps the default convention
 *   (core/targets/default.ts) exactly; on the url route its family parameters are appended to
 *   the given URL (the default convention fetched the URL alone and lost them).
 * - With a template for the route's kind, the URL is the template rendered (template.ts); with
 *   none, the default convention's URL without the parameters that went to cookies or headers.
 * - `{page}` is `page.first + (n - 1) * page.step` for page n of `start_page`..; a paginated
 *   route whose template does not place it gets `page=<value>`.
 * - A `session` step comes first, marked `setup` (skipped while the flow's session, keyed by
 *   token and site, is reused); its reads fill `{name}` placeholders as flow variables.
 */
import type { Params, Targets } from '../adapter.js';
import { baseFor, pageRange, str, targetConfig, wire } from '../base.js';
import { planDefault } from '../default.js';
import { pageUrl, wallCheck, type FetchStep, type Flow, type Reader } from '../flow.js';
import { isBlocked } from './blocked.js';
import type { RouteSpec } from '../../registry/types.js';
import { GleanerError } from '../../errors.js';
import { commerceEntry, isDefault, isPaginated, kindOf, NOT_UPSTREAM, type CommerceEntry, type ReadSpec } from './config.js';
import { appendQuery, placeholders, renderPairs, renderUrl, type Values } from './template.js';

function requireUrl(route: RouteSpec, params: Params): string {
  const url = str(params.url);
  if (url === undefined) throw new GleanerError('INTERNAL_ERROR', `route ${route.id} was planned without a url`);
  return url;
}

/** A parameter's upstream value: as sent on the wire, mapped through the entry's `values`. */
function upstream(e: CommerceEntry, name: string, params: Params): string | undefined {
  const v = name === 'query' ? (str(params.query) ?? wire(params.query)) : wire(params[name]);
  return v === undefined ? undefined : (e.values[name]?.[v] ?? v);
}

function reader(spec: ReadSpec): Reader {
  if ('cookie' in spec) return { from: 'cookie', name: spec.cookie };
  if ('header' in spec) return { from: 'header', name: spec.header };
  if ('pattern' in spec) return { from: 'body', pattern: new RegExp(spec.pattern) };
  return { from: 'json', path: spec.json.split('.').map((k) => (/^\d+$/.test(k) ? Number(k) : k)) };
}

/** The route's parameters not placed by a template, cookie or header, sorted, as `[name, value]`. */
function leftovers(route: RouteSpec, params: Params, e: CommerceEntry, placed: Set<string>, skip: Set<string>): [string, string][] {
  const out: [string, string][] = [];
  for (const key of Object.keys(route.params).sort()) {
    if (NOT_UPSTREAM.has(key) || placed.has(key) || skip.has(key)) continue;
    const v = upstream(e, key, params);
    if (v !== undefined) out.push([key, v]);
  }
  return out;
}

/** The flows of a commerce route; a bot wall or captcha is retried on another proxy before it is returned. */
export function planCommerce(route: RouteSpec, params: Params, targets: Targets): Flow[] {
  const check = wallCheck((page) => (isBlocked(page.body) ? { what: `${route.target} answered with a captcha or bot wall` } : undefined));
  return planPages(route, params, targets).map((flow) => ({ ...flow, check }));
}

function planPages(route: RouteSpec, params: Params, targets: Targets): Flow[] {
  // A URL request names its own upstream: without an entry for the token it is fetched as given.
  const cfg = route.input === 'url' && !Object.hasOwn(targets, route.target) ? { baseUrl: '' } : targetConfig(targets, route.target);
  const e = commerceEntry(cfg);
  const kind = kindOf(route);
  if (isDefault(e)) {
    if (kind !== '') return planDefault(route, params, targets);
    const rest = leftovers(route, params, e, new Set(), new Set(['location']));
    return [{ page: 1, steps: [{ kind: 'fetch', name: 'page', url: appendQuery(requireUrl(route, params), rest) }] }];
  }
  const base = baseFor(targets, route.target, params);

  const template = kind === '' ? undefined : e.templates[kind];
  const sessionVars = new Set(Object.keys(e.session?.read ?? {}));
  const mapped = new Set([...Object.values(e.cookies), ...Object.values(e.headers)].flatMap(placeholders));
  const placed = new Set([...mapped, ...placeholders(cfg.baseUrl), ...(template ? placeholders(template) : [])]);
  const domain = str(params.domain) ?? (typeof cfg.defaultDomain === 'string' ? cfg.defaultDomain : 'com');
  const subdomain = str(params.subdomain) ?? (typeof cfg.defaultSubdomain === 'string' ? cfg.defaultSubdomain : 'www');

  const flows: Flow[] = [];
  const pages = isPaginated(route) ? pageRange(params) : [1];
  for (const n of pages) {
    const pageValue = String(e.page.first + (n - 1) * e.page.step);
    const values: Values = {
      vars: sessionVars,
      get: (name) => (name === 'page' ? pageValue : name === 'domain' ? domain : name === 'subdomain' ? subdomain : upstream(e, name, params)),
    };
    let url: string;
    if (kind === '') {
      url = appendQuery(requireUrl(route, params), leftovers(route, params, e, placed, new Set(['location', 'query'])));
    } else if (template) {
      const skip = new Set(['location', ...(base.domainInHost ? ['domain'] : []), ...(base.subdomainInHost ? ['subdomain'] : [])]);
      url = appendQuery(renderUrl(template, base.url, values), leftovers(route, params, e, placed, skip));
      if (isPaginated(route) && !placed.has('page')) url = appendQuery(url, [['page', pageValue]]);
    } else {
      // No template for this kind: the default convention, less what went to cookies or headers.
      const rest = Object.fromEntries(Object.entries(params).filter(([k]) => !mapped.has(k)).map(([k, v]) => [k, NOT_UPSTREAM.has(k) ? v : (upstream(e, k, params) ?? v)]));
      url = pageUrl(planDefault(route, { ...rest, start_page: n, pages: 1 }, targets)[0]) ?? base.url;
    }
    const headers: Record<string, string> = Object.fromEntries(renderPairs(e.headers, values, 'header'));
    const cookies = renderPairs(e.cookies, values, 'cookie');
    if (cookies.length > 0) headers.cookie = cookies.map(([k, v]) => `${k}=${v}`).join('; ');
    const page: FetchStep = { kind: 'fetch', name: 'page', url, ...(Object.keys(headers).length > 0 ? { headers } : {}) };
    if (!e.session) {
      flows.push({ page: n, steps: [page] });
      continue;
    }
    const session: FetchStep = {
      kind: 'fetch',
      name: 'session',
      url: renderUrl(e.session.url, base.url, values),
      setup: true,
      read: Object.fromEntries(Object.entries(e.session.read).map(([name, spec]) => [name, reader(spec)])),
    };
    flows.push({ page: n, steps: [session, { ...page, page: true }], session: { key: `${route.target}|${base.url}`, ttlMs: e.session.ttlMs } });
  }
  return flows;
}
