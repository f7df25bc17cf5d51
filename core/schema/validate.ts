/**
 * Compiled validators: one per endpoint, compiled once (lazily on first use, or all at start
 * with `compileAll()`; shared parameter schemas are compiled once for all, see compile.ts),
 * then the cross-field rules (rules.ts), then the echoed `params`.
 *
 * What `params` echoes (the request as executed, spec 2.2–2.4), in this order:
 *   - search: `query`, `location` (null when absent), `max_results` (default 10);
 *   - scrape: the route's own parameters that were sent or have a default (registry order;
 *     e.g. `start_page: 1`, `pages: 1`, mkt1 `domain: "com"`), then `output` (default
 *     ["html"]; video download: "video"), `json` (null, or `{prompt, schema}` with null for
 *     the one not given; absent on video download), `location` (null), `device` ("desktop"),
 *     `run_js` (false), and on async and batch `callback_url` (null) and `storage` (null or
 *     `{type, url}`). Parameters without a default that were not sent are not echoed.
 *     Values are echoed as sent (a country code keeps its case).
 * The caller's body is not modified (defaults are filled into a shallow copy; nothing nested
 * has defaults). Concurrency: module-level caches only grow and are filled synchronously.
 */
import type { ValidateFunction } from 'ajv';
import { checkPatterns } from '../crawl/patterns.js';
import type { FieldError } from '../errors.js';
import { routeById } from '../registry/index.js';
import type { Mode, RouteSpec } from '../registry/types.js';
import { allEndpoints, type Endpoint, jsonSchemaFor, resolveEndpoint, type ResolvedEndpoint } from './build.js';
import { compileSchema } from './compile.js';
import { appendAjvErrors, appendFieldErrors } from './messages.js';
import { rulesFor } from './rules.js';

export type ValidationResult = { ok: true; params: Record<string, unknown> } | { ok: false; errors: FieldError[] };

/** A cross-field check of one endpoint, on the body as sent. */
type BodyRule = (body: Record<string, unknown>) => FieldError[];

interface Compiled {
  check: ValidateFunction;
  rules: readonly BodyRule[];
  echo: (data: Record<string, unknown>) => Record<string, unknown>;
}

const compiled = new Map<string, Compiled>();

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function echoJson(json: unknown): unknown {
  if (!isObject(json)) return null;
  return { prompt: json.prompt ?? null, schema: json.schema ?? null };
}

function scrapeEcho(route: RouteSpec, mode: Mode): Compiled['echo'] {
  const own = Object.keys(route.params);
  const media = route.outputKind === 'media';
  const queued = mode !== 'sync';
  return (data) => {
    const params: Record<string, unknown> = {};
    for (const name of own) if (data[name] !== undefined) params[name] = data[name];
    params.output = data.output;
    if (!media) params.json = echoJson(data.json);
    params.location = data.location ?? null;
    params.device = data.device;
    params.run_js = data.run_js;
    if (queued) {
      params.callback_url = data.callback_url ?? null;
      params.storage = isObject(data.storage) ? { type: data.storage.type, url: data.storage.url } : null;
    }
    return params;
  };
}

function searchEcho(data: Record<string, unknown>): Record<string, unknown> {
  return { query: data.query, location: data.location ?? null, max_results: data.max_results };
}

function mapEcho(data: Record<string, unknown>): Record<string, unknown> {
  const { url, search, include_subdomains, ignore_query_parameters, sitemap, limit } = data;
  return { url, ...(search !== undefined ? { search } : {}), include_subdomains, ignore_query_parameters, sitemap, limit };
}

/** A crawl's `scrape` object as executed: the generic route's echo of the per-page options. */
const scrapePageEcho = scrapeEcho(routeById('universal')!, 'sync');

function crawlEcho(data: Record<string, unknown>): Record<string, unknown> {
  const { url, limit, max_depth, include_paths, exclude_paths, allow_subdomains, allow_external, ignore_query_parameters, sitemap, respect_robots, delay_ms, max_concurrency_per_host, callback_pages } = data;
  const page = isObject(data.scrape) ? data.scrape : {};
  const { url: _url, ...scrape } = scrapePageEcho({ output: ['html'], device: 'desktop', run_js: false, ...page });
  return {
    url,
    limit,
    max_depth,
    include_paths,
    exclude_paths,
    allow_subdomains,
    allow_external,
    ignore_query_parameters,
    sitemap,
    respect_robots,
    delay_ms,
    max_concurrency_per_host,
    scrape,
    callback_url: data.callback_url ?? null,
    callback_pages,
    storage: isObject(data.storage) ? { type: data.storage.type, url: data.storage.url } : null,
  };
}

/** Pointers of a nested object's errors, moved under `prefix` (`#/output` → `#/scrape/output`). */
function under(prefix: string, errors: FieldError[]): FieldError[] {
  return errors.map((e) => ({ ...e, pointer: e.pointer === '#' ? prefix : `${prefix}${e.pointer.slice(1)}` }));
}

/** A crawl's cross-field rules: its path patterns compile, its `scrape` object passes `/v1/scrape`'s own rules. */
function crawlRules(): BodyRule[] {
  const universal = routeById('universal')!;
  const pageRules = rulesFor(universal, 'sync');
  return [
    (body) => [...checkPatterns('#/include_paths', body.include_paths), ...checkPatterns('#/exclude_paths', body.exclude_paths)],
    (body) => (isObject(body.scrape) ? under('#/scrape', pageRules.flatMap((rule) => rule.check(body.scrape as Record<string, unknown>, universal))) : []),
    (body) => (body.callback_pages === true && typeof body.callback_url !== 'string' ? [{ pointer: '#/callback_pages', detail: 'needs callback_url: the crawl.page events are sent there' }] : []),
  ];
}

function compile(resolved: ResolvedEndpoint, endpoint: Endpoint): Compiled {
  let entry = compiled.get(resolved.key);
  if (entry) return entry;
  const check = compileSchema(jsonSchemaFor(endpoint));
  if (resolved.kind === 'scrape') {
    const route = resolved.route;
    const rules = rulesFor(route, resolved.mode).map((rule): BodyRule => (body) => rule.check(body, route));
    entry = { check, rules, echo: scrapeEcho(route, resolved.mode) };
  } else if (resolved.kind === 'search') entry = { check, rules: [], echo: searchEcho };
  else if (resolved.kind === 'map') entry = { check, rules: [], echo: mapEcho };
  else entry = { check, rules: crawlRules(), echo: crawlEcho };
  compiled.set(resolved.key, entry);
  return entry;
}

/** Compiles every endpoint's validator at once. Returns the count. */
export function compileAll(): number {
  const endpoints = allEndpoints();
  for (const endpoint of endpoints) compile(resolveEndpoint(endpoint), endpoint);
  return endpoints.length;
}

/**
 * Compiles the validators not compiled yet, `slice` endpoints per turn of the event loop, so
 * that the service answers while they warm (about 0.6 s of compiling in all, which at start
 * kept /readyz waiting): a request that comes first compiles its own endpoint (~2 ms).
 * Resolves with the count of endpoints.
 */
export async function warmValidators(slice = 8): Promise<number> {
  const endpoints = allEndpoints();
  for (let i = 0; i < endpoints.length; i += slice) {
    for (const endpoint of endpoints.slice(i, i + slice)) compile(resolveEndpoint(endpoint), endpoint);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return endpoints.length;
}

/**
 * A shallow copy for ajv to fill defaults into. Not `{...body}`: in V8 an object made by
 * spread and then given new members (the defaults) is ~30x slower to build and iterate.
 * `Object.assign` would call the `__proto__` setter for a JSON `"__proto__"` member, so that
 * member (only) is defined as an own property, as JSON.parse made it.
 */
function shallowCopy(body: Record<string, unknown>): Record<string, unknown> {
  if (!Object.hasOwn(body, '__proto__')) return Object.assign({}, body);
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(body)) Object.defineProperty(copy, key, { value: body[key], enumerable: true, writable: true, configurable: true });
  return copy;
}

const NOT_AN_OBJECT: FieldError = { pointer: '#', detail: 'the request body must be a JSON object' };

/**
 * Validates a parsed request body for an endpoint. Never throws for any body; an unknown
 * endpoint (a route id or mode the registry lacks) is a NOT_FOUND GleanerError.
 */
export function validate(endpoint: Endpoint, body: unknown): ValidationResult {
  const entry = compile(resolveEndpoint(endpoint), endpoint);
  if (!isObject(body)) return { ok: false, errors: [{ ...NOT_AN_OBJECT }] };
  try {
    const data = shallowCopy(body);
    const errors: FieldError[] = [];
    const seen = new Set<string>();
    if (!entry.check(data)) appendAjvErrors(errors, seen, entry.check.errors);
    for (const rule of entry.rules) appendFieldErrors(errors, seen, rule(body));
    if (errors.length > 0) return { ok: false, errors };
    return { ok: true, params: entry.echo(data) };
  } catch {
    // Defensive: nothing above should throw on JSON input; if it does, the body is still refused.
    return { ok: false, errors: [{ pointer: '#', detail: 'the request body could not be validated' }] };
  }
}
