/**
 * A Job API query → a registry route and Web API parameters, validated by the same compiled
 * validators as the Web API. Pure: no I/O.
 *
 * Mapping (documented for users in the README):
 * - `source`: `universal` and `universal_ecommerce` → the generic route; otherwise the route
 *   whose Job API source name it is (`se1_search`, `mkt1_product`, ...).
 * - `url` / `query` → the route's input; `geo_location` → `location`; `render` (`html`, `png`)
 *   → `run_js: true` (`png` also asks for a screenshot); `parse: true` → `output: ["json"]`;
 *   `user_agent_type` `mobile*` → `device: mobile`, anything else desktop.
 * - `domain`, `locale`, `pages`, `start_page`, `limit`, `subdomain` → the route's parameter of
 *   that name when it has one (ignored otherwise); `context[]` entries → route parameters by
 *   key, their values coerced to the parameter's type; an unknown key is an error.
 * - `callback_url` → `callback_url`; `storage_type` + `storage_url` → `storage`.
 * Errors point at the Job API field the caller sent, not at the Web API name.
 */
import type { FieldError } from '../errors.js';
import { routeById, routeBySource } from '../registry/index.js';
import type { ParamSpec, RouteSpec } from '../registry/types.js';
import { validate } from '../schema/index.js';
import type { JobApiInput } from './schema.js';

const PASSTHROUGH = ['domain', 'locale', 'pages', 'start_page', 'limit', 'subdomain'] as const;

/** Web API pointer → Job API pointer, for fields whose names differ. */
const POINTER_BACK: Record<string, string> = {
  '#/location': '#/geo_location',
  '#/run_js': '#/render',
  '#/output': '#/parse',
  '#/device': '#/user_agent_type',
  '#/storage': '#/storage_type',
  '#/storage/type': '#/storage_type',
  '#/storage/url': '#/storage_url',
  '#/json': '#/parse',
};

/** Names that address an object's prototype machinery rather than a member. */
const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export interface MappedQuery {
  route: RouteSpec;
  source: string;
  /** Validated Web API parameters (defaults filled). */
  params: Record<string, unknown>;
}

export function routeOfSource(source: string): RouteSpec | undefined {
  if (source === 'universal' || source === 'universal_ecommerce') return routeById('universal');
  return routeBySource(source);
}

function coerce(spec: ParamSpec, raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  if (spec.type === 'boolean' && (raw === 'true' || raw === 'false')) return raw === 'true';
  if ((spec.type === 'integer' || spec.type === 'number') && raw.trim() !== '' && Number.isFinite(Number(raw))) return Number(raw);
  return raw;
}

/** Maps one (singular) query; `mode` is `sync` for the realtime host, `async` for push-pull. */
export function mapQuery(input: JobApiInput, mode: 'sync' | 'async'): { ok: true; mapped: MappedQuery } | { ok: false; errors: FieldError[] } {
  const route = routeOfSource(input.source);
  if (!route) {
    return { ok: false, errors: [{ pointer: '#/source', detail: `unknown source ${JSON.stringify(input.source)}` }] };
  }
  if (mode === 'sync' && !route.modes.includes('sync')) {
    return { ok: false, errors: [{ pointer: '#/source', detail: `source ${input.source} has no realtime mode; use the push-pull host` }] };
  }
  const errors: FieldError[] = [];
  const other = route.input === 'url' ? 'query' : 'url';
  if (input[route.input] === undefined) errors.push({ pointer: `#/${route.input}`, detail: `source ${input.source} takes ${route.input}` });
  if (input[other] !== undefined) errors.push({ pointer: `#/${other}`, detail: `source ${input.source} takes ${route.input}, not ${other}` });
  if (input.parse === true && route.parser === 'none') {
    errors.push({ pointer: '#/parse', detail: `source ${input.source} has no built-in parser` });
  }
  const params: Record<string, unknown> = { [route.input]: input[route.input] };
  if (input.geo_location !== null) params.location = input.geo_location;
  if (input.render !== null) params.run_js = true;
  const output = [input.parse ? 'json' : 'html'];
  if (input.render === 'png') output.push('screenshot');
  params.output = output;
  params.device = String(input.user_agent_type).startsWith('mobile') ? 'mobile' : 'desktop';
  for (const name of PASSTHROUGH) {
    const v = input[name];
    if (v !== null && v !== undefined && route.params[name] && !(name in params)) {
      // pages/start_page default to 1 in the Job API; only forward them when not the default.
      if ((name === 'pages' || name === 'start_page') && v === 1) continue;
      params[name] = v;
    }
  }
  const fromContext = new Map<string, number>();
  (input.context as Array<{ key: string; value: unknown }>).forEach(({ key, value }, i) => {
    // Own parameters only: `__proto__` or `constructor` must not find Object.prototype's.
    if (RESERVED_KEYS.has(key)) {
      errors.push({ pointer: `#/context/${i}/key`, detail: `${JSON.stringify(key)} is a reserved name, not a parameter` });
      return;
    }
    const spec = Object.hasOwn(route.params, key) ? route.params[key] : undefined;
    if (!spec || key === route.input) {
      errors.push({ pointer: `#/context/${i}/key`, detail: `source ${input.source} has no parameter ${JSON.stringify(key)}` });
      return;
    }
    params[key] = coerce(spec, value);
    fromContext.set(key, i);
  });
  if (mode === 'async') {
    if (input.callback_url !== null) params.callback_url = input.callback_url;
    if (input.storage_type !== null || input.storage_url !== null) {
      params.storage = { type: input.storage_type, url: input.storage_url ?? '' };
    }
  }
  if (errors.length > 0) return { ok: false, errors };

  const result = validate({ kind: 'scrape', routeId: route.id, mode }, params);
  if (!result.ok) {
    return {
      ok: false,
      errors: result.errors.map((e) => {
        const name = e.pointer.slice(2).split('/')[0];
        const pointer = POINTER_BACK[e.pointer] ?? (fromContext.has(name) ? `#/context/${fromContext.get(name)}/value` : e.pointer);
        return { pointer, detail: e.detail };
      }),
    };
  }
  return { ok: true, mapped: { route, source: input.source, params: result.params } };
}
