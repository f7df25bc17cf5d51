/**
 * A commerce token's entry in `GLEANER_TARGETS`: where its pages live, as data (README.md has
 * a worked example). Every key but `baseUrl` is optional; a token with only a `baseUrl` keeps
 * the default convention of core/targets/default.ts.
 *
 *   baseUrl      `https://www.shop.example.{domain}` ({domain}, {subdomain}; a path prefix is fine)
 *   templates    URL per route kind below the token: `product`, `search`, `category`,
 *                `shop/product`, `shop/search`; a path below `baseUrl` or an absolute URL
 *   page         `{page}` = first + (n - 1) * step: `{first: 0}` counts pages from 0,
 *                `{first: 0, step: 24}` is an offset of 24 per page (default 1 and 1)
 *   cookies      cookie name → template: a store or postal choice the site keeps in a cookie
 *   headers      header name → template
 *   values       parameter → {sent value → upstream value}: `{"in_stock_today": {"true": "1"}}`
 *   session      a first fetch whose response gives values for later templates:
 *                `{url, read: {name: {cookie} | {header} | {pattern} | {json}}, ttlMs}`
 *   defaultDomain, defaultSubdomain   what {domain} / {subdomain} are when the request names none
 *
 * `checkTarget` validates an entry at start: one message per problem; the caller
 * (`checkTargets`) puts the file name and the token in front, as for every family.
 */
import type { TargetConfig } from '../../config.js';
import { COMMERCE_ROUTES } from './routes.js';
import type { RouteSpec } from '../../registry/types.js';
import { placeholders } from './template.js';

export type ReadSpec = { cookie: string } | { header: string } | { pattern: string } | { json: string };

export interface Session {
  url: string;
  read: Readonly<Record<string, ReadSpec>>;
  ttlMs: number;
}

export interface CommerceEntry {
  baseUrl: string;
  templates: Readonly<Record<string, string>>;
  page: { first: number; step: number };
  cookies: Readonly<Record<string, string>>;
  headers: Readonly<Record<string, string>>;
  values: Readonly<Record<string, Readonly<Record<string, string>>>>;
  session: Session | null;
}

const KEYS = new Set(['baseUrl', 'templates', 'page', 'cookies', 'headers', 'values', 'session', 'defaultDomain', 'defaultSubdomain']);
/** Placeholders every template may use besides the route's own parameters. */
const ALWAYS = ['domain', 'subdomain', 'location'];
/** Parameters that shape the fetch itself and are never sent upstream (spec 2.1). */
export const NOT_UPSTREAM = new Set(['url', 'pages', 'start_page', 'output', 'json', 'device', 'run_js', 'callback_url', 'storage']);
const SESSION_DEFAULT_TTL = 600_000;

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): Record<string, string> => (isObj(v) ? Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string')) : {});

/** The route kind below the token: `` (the url route), `product`, `search`, `category`, `shop/product`, `shop/search`. */
export function kindOf(route: Pick<RouteSpec, 'path' | 'target'>): string {
  return route.path === route.target ? '' : route.path.slice(route.target.length + 1);
}

export function isPaginated(route: RouteSpec): boolean {
  return 'start_page' in route.params || 'pages' in route.params;
}

/** The entry as the planner reads it (after `checkTarget` passed; tolerant of anything else). */
export function commerceEntry(cfg: TargetConfig): CommerceEntry {
  const page = isObj(cfg.page) ? cfg.page : {};
  const s = isObj(cfg.session) ? cfg.session : null;
  return {
    baseUrl: cfg.baseUrl,
    templates: strings(cfg.templates),
    page: { first: Number.isInteger(page.first) ? (page.first as number) : 1, step: Number.isInteger(page.step) ? (page.step as number) : 1 },
    cookies: strings(cfg.cookies),
    headers: strings(cfg.headers),
    values: isObj(cfg.values) ? Object.fromEntries(Object.entries(cfg.values).map(([k, v]) => [k, strings(v)])) : {},
    session:
      s && typeof s.url === 'string'
        ? { url: s.url, read: (isObj(s.read) ? s.read : {}) as Record<string, ReadSpec>, ttlMs: typeof s.ttlMs === 'number' ? s.ttlMs : SESSION_DEFAULT_TTL }
        : null,
  };
}

/** Whether the entry changes anything of the default convention. */
export function isDefault(e: CommerceEntry): boolean {
  return Object.keys(e.templates).length + Object.keys(e.cookies).length + Object.keys(e.headers).length + Object.keys(e.values).length === 0 && e.session === null;
}

/** What `{name}` may stand for on a route: its parameters, `query`, `page` where it pages, the domain, the session's reads. */
export function knownPlaceholders(route: RouteSpec, session: Session | null): Set<string> {
  const names = new Set([...Object.keys(route.params).filter((p) => !NOT_UPSTREAM.has(p)), ...ALWAYS, ...Object.keys(session?.read ?? {})]);
  if (isPaginated(route)) names.add('page');
  return names;
}

function checkRead(name: string, spec: unknown): string[] {
  if (!/^[a-z_][a-z0-9_]*$/i.test(name)) return [`session read "${name}" is not a name (letters, digits and _)`];
  if (!isObj(spec)) return [`session read "${name}" must be {"cookie": …}, {"header": …}, {"pattern": …} or {"json": …}`];
  const keys = Object.keys(spec);
  if (keys.length !== 1 || !['cookie', 'header', 'pattern', 'json'].includes(keys[0] as string) || typeof spec[keys[0] as string] !== 'string') {
    return [`session read "${name}" must be {"cookie": …}, {"header": …}, {"pattern": …} or {"json": …}`];
  }
  if ('pattern' in spec) {
    try {
      new RegExp(spec.pattern as string);
    } catch {
      return [`session read "${name}": the pattern is not a regular expression`];
    }
    if (!/\((?!\?[:=!<])/.test((spec.pattern as string).replace(/\\./g, ''))) return [`session read "${name}": the pattern needs a capture group for the value`];
  }
  return [];
}

function unknownIn(where: string, template: string, known: Set<string>): string[] {
  if (template.includes('{{')) return [`${where} uses {{…}}; placeholders are written {name}`];
  return placeholders(template)
    .filter((p) => !known.has(p))
    .map((p) => `${where} names an unknown placeholder {${p}}; known: ${[...known].sort().join(', ')}`);
}

/**
 * Problems of a commerce token's entry, one message each (without the token: the caller names
 * it); empty when good. Tokens that are not commerce targets are not this adapter's and give no
 * messages.
 */
export function checkTarget(token: string, cfg: TargetConfig): string[] {
  const routes = COMMERCE_ROUTES.filter((r) => r.target === token);
  if (routes.length === 0) return [];
  const out: string[] = [];
  if (typeof cfg.baseUrl !== 'string' || !/^https?:\/\/[^/]/i.test(cfg.baseUrl)) out.push(`baseUrl must be an absolute http(s) URL`);
  else out.push(...unknownIn('baseUrl', cfg.baseUrl, new Set(['domain', 'subdomain'])));
  for (const k of Object.keys(cfg)) if (!KEYS.has(k)) out.push(`unknown key "${k}"; known: ${[...KEYS].join(', ')}`);
  for (const k of ['templates', 'cookies', 'headers', 'values', 'page', 'session']) {
    if (cfg[k] !== undefined && !isObj(cfg[k])) out.push(`${k} must be an object`);
  }
  const session = commerceEntry(cfg).session;
  if (isObj(cfg.session)) {
    if (typeof cfg.session.url !== 'string') out.push(`session.url must be a URL or a path below baseUrl`);
    else out.push(...unknownIn('session.url', cfg.session.url, new Set(ALWAYS)));
    for (const [name, spec] of Object.entries(isObj(cfg.session.read) ? cfg.session.read : {})) out.push(...checkRead(name, spec));
    if (cfg.session.ttlMs !== undefined && !(typeof cfg.session.ttlMs === 'number' && cfg.session.ttlMs >= 0)) out.push(`session.ttlMs must be a number of milliseconds`);
  }
  const byKind = new Map(routes.map((r) => [kindOf(r), r]));
  for (const [kind, t] of Object.entries(isObj(cfg.templates) ? cfg.templates : {})) {
    const route = byKind.get(kind);
    if (kind === '' || !route) out.push(`templates has "${kind}", which is not a route of ${token}; its routes: ${[...byKind.keys()].filter((k) => k !== '').join(', ')}`);
    else if (typeof t !== 'string' || !(t.startsWith('/') || /^https?:\/\//i.test(t))) out.push(`template "${kind}" must be a path starting with / or an absolute URL`);
    else out.push(...unknownIn(`template "${kind}"`, t, knownPlaceholders(route, session)));
  }
  const anyRoute = new Set(routes.flatMap((r) => [...knownPlaceholders(r, session)]));
  for (const [where, pairs] of [['cookie', cfg.cookies], ['header', cfg.headers]] as const) {
    for (const [name, t] of Object.entries(isObj(pairs) ? pairs : {})) {
      if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) out.push(`${where} name "${name}" is not a valid token`);
      if (typeof t !== 'string') out.push(`${where} "${name}" must be a string template`);
      else out.push(...unknownIn(`${where} "${name}"`, t, anyRoute));
    }
  }
  for (const name of Object.keys(isObj(cfg.values) ? cfg.values : {})) {
    if (!anyRoute.has(name)) out.push(`values names an unknown parameter "${name}"`);
  }
  if (isObj(cfg.page)) {
    const { first, step } = cfg.page;
    if (first !== undefined && !(Number.isInteger(first) && (first as number) >= 0)) out.push(`page.first must be an integer ≥ 0`);
    if (step !== undefined && !(Number.isInteger(step) && (step as number) >= 1)) out.push(`page.step must be an integer ≥ 1`);
  }
  return out;
}
