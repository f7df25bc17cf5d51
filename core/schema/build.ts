/**
 * One JSON Schema per endpoint, generated from the registry: `POST /v1/search`, and each
 * (scrape route, mode). Schemas are built on first request and cached; they are plain data
 * and must not be mutated by callers (OpenAPI embeds them as they are).
 */
import { CRAWL, MAP } from '../crawl/spec.js';
import { GleanerError } from '../errors.js';
import { ROUTES, routeById, SEARCH } from '../registry/index.js';
import type { Mode, RouteSpec } from '../registry/types.js';
import {
  batchInputSchema,
  callbackUrlSchema,
  deviceSchema,
  jsonParamSchema,
  type JsonSchema,
  locationSchema,
  mediaOutputSchema,
  outputSchema,
  paramSchema,
  runJsSchema,
  storageSchema,
} from './shared.js';

/** `map` is `POST /v1/map`, `crawl` is `POST /v1/async/crawl` (core/crawl/spec.ts). */
export type Endpoint = { kind: 'search' } | { kind: 'map' } | { kind: 'crawl' } | { kind: 'scrape'; routeId: string; mode: Mode };

export type ResolvedEndpoint = { kind: 'search' | 'map' | 'crawl'; key: 'search' | 'map' | 'crawl' } | { kind: 'scrape'; key: string; route: RouteSpec; mode: Mode };

/** The cache key of an endpoint: `search`, `map`, `crawl`, or `<routeId> <mode>`. */
export function endpointKey(endpoint: Endpoint): string {
  return endpoint.kind === 'scrape' ? `${endpoint.routeId} ${endpoint.mode}` : endpoint.kind;
}

/** The registry facts of an endpoint; an unknown route or a mode the route lacks is NOT_FOUND. */
export function resolveEndpoint(endpoint: Endpoint): ResolvedEndpoint {
  if (endpoint.kind !== 'scrape') return { kind: endpoint.kind, key: endpoint.kind };
  const route = routeById(endpoint.routeId);
  if (!route || !route.modes.includes(endpoint.mode)) {
    throw new GleanerError('NOT_FOUND', `no ${endpoint.mode} endpoint for route ${endpoint.routeId}`);
  }
  return { kind: 'scrape', key: endpointKey(endpoint), route, mode: endpoint.mode };
}

/** Every endpoint: search first, then each route's modes in registry order. */
export function allEndpoints(): Endpoint[] {
  const out: Endpoint[] = [{ kind: 'search' }, { kind: 'map' }, { kind: 'crawl' }];
  for (const route of ROUTES) for (const mode of route.modes) out.push({ kind: 'scrape', routeId: route.id, mode });
  return out;
}

function searchSchema(): JsonSchema {
  const { query, location, max_results } = SEARCH.params;
  return {
    type: 'object',
    description: SEARCH.summary,
    properties: {
      query: paramSchema(query!),
      location: { ...locationSchema('country'), description: location!.description },
      max_results: paramSchema(max_results!),
    },
    required: [...SEARCH.required],
    additionalProperties: false,
  };
}

/** Shared parameters of spec 2.1 in echo order; `callback_url` and `storage` on async and batch only. */
function sharedProperties(route: RouteSpec, mode: Mode): Record<string, JsonSchema> {
  const media = route.outputKind === 'media';
  const props: Record<string, JsonSchema> = { output: media ? mediaOutputSchema() : outputSchema(route.outputKind === 'answer') };
  if (!media) props.json = jsonParamSchema();
  props.location = locationSchema(route.location);
  props.device = deviceSchema();
  props.run_js = runJsSchema();
  if (route.requiresRunJs) props.run_js = { ...props.run_js, description: 'Must be true on this route.' };
  if (mode !== 'sync') {
    props.callback_url = callbackUrlSchema();
    props.storage = storageSchema();
  }
  return props;
}

/** The generic route's per-page options (`/v1/scrape` without `url`): a crawl's `scrape` object. */
export function pageOptionsSchema(): JsonSchema {
  const scrape = jsonSchemaFor({ kind: 'scrape', routeId: 'universal', mode: 'sync' });
  const { url: _url, ...own } = scrape.properties as Record<string, JsonSchema>;
  // No defaults inside: validation fills defaults into a shallow copy of the body only (the
  // caller's nested objects stay as sent); the crawl's echo fills these (validate.ts).
  const properties = Object.fromEntries(
    Object.entries(own).map(([k, v]) => {
      const { default: dflt, ...rest } = v;
      return [k, dflt === undefined ? v : { ...rest, description: `${String(v.description ?? '')} Default ${JSON.stringify(dflt)}.` }];
    }),
  );
  return {
    type: 'object',
    description: 'Per-page options, exactly those of POST /v1/scrape (output, json, location, device, run_js); each page is fetched and converted as that scrape would be.',
    properties,
    additionalProperties: false,
    default: {},
  };
}

function mapSchema(): JsonSchema {
  return {
    type: 'object',
    description: MAP.summary,
    properties: Object.fromEntries(Object.entries(MAP.params).map(([k, v]) => [k, paramSchema(v)])),
    required: [...MAP.required],
    additionalProperties: false,
  };
}

function crawlSchema(): JsonSchema {
  const properties: Record<string, JsonSchema> = Object.fromEntries(Object.entries(CRAWL.params).map(([k, v]) => [k, paramSchema(v)]));
  properties.scrape = pageOptionsSchema();
  properties.callback_url = callbackUrlSchema();
  properties.storage = { ...storageSchema(), description: 'Bucket delivery: one object per page (<prefix>/<crawl_id>/pages/<n>.json) and an index (<prefix>/<crawl_id>/index.json) when the crawl ends.' };
  return { type: 'object', description: CRAWL.summary, properties, required: [...CRAWL.required], additionalProperties: false };
}

function scrapeSchema(route: RouteSpec, mode: Mode): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const [name, spec] of Object.entries(route.params)) {
    properties[name] = mode === 'batch' && name === route.input ? batchInputSchema(spec) : paramSchema(spec);
  }
  Object.assign(properties, sharedProperties(route, mode));
  return {
    type: 'object',
    description: route.summary,
    properties,
    required: [...route.required],
    additionalProperties: false,
  };
}

const cache = new Map<string, JsonSchema>();

/** The request body schema of an endpoint (cached; do not mutate). */
export function jsonSchemaFor(endpoint: Endpoint): JsonSchema {
  const resolved = resolveEndpoint(endpoint);
  let schema = cache.get(resolved.key);
  if (!schema) {
    schema =
      resolved.kind === 'scrape'
        ? scrapeSchema(resolved.route, resolved.mode)
        : resolved.kind === 'search'
          ? searchSchema()
          : resolved.kind === 'map'
            ? mapSchema()
            : crawlSchema();
    cache.set(resolved.key, schema);
  }
  return schema;
}
