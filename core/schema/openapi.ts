/**
 * The OpenAPI 3.1 document of the service, generated from the registry and the request
 * schemas (served at `GET /v1/openapi.json`): the Web API's routes, the Job API on its own
 * listeners (openapi-ops.ts), the operator and MCP endpoints, and the webhook it sends. Request
 * schemas are components named `<source>.<mode>` (`se1_search.sync`, `universal.batch`,
 * `search.request`); when a parser declares its `results[].json` shape in OUTPUT_SCHEMAS, the
 * route's responses use it. Every operation lists its 4xx answers; no component is unused.
 * Built once per set of server URLs; the returned object is shared and must not be mutated.
 */
import { OUTPUT_SCHEMAS } from '../targets/index.js';
import { pathFor, ROUTES } from '../registry/index.js';
import type { Mode, RouteSpec } from '../registry/types.js';
import { jsonSchemaFor } from './build.js';
import { CRAWL_SCHEMAS, crawlPaths } from './crawl-openapi.js';
import { bare, HEAD_REFUSALS, json, OPERATION_SCHEMAS, operationPaths, problem, webhooks, type ServerUrls } from './openapi-ops.js';
import { ref, RESPONSE_SCHEMAS, scrapeResponseWithJson } from './responses.js';
import type { JsonSchema } from './shared.js';

const API_VERSION = '0.1.0';
/** Where the document says the service is when the caller does not say (the defaults of DESIGN.md part 2). */
const DEFAULT_SERVERS: ServerUrls = { web: 'http://127.0.0.1:8080', realtime: 'http://127.0.0.1:8081', data: 'http://127.0.0.1:8082' };

/** Error answers every authenticated POST route can give. */
function errorResponses(extra: Record<string, JsonSchema> = {}): Record<string, JsonSchema> {
  return {
    '400': problem('VALIDATION_ERROR (errors[] lists every failing field), MALFORMED_JSON, MALFORMED_REQUEST (ambiguous framing; the connection is closed), TARGET_FORBIDDEN or LOCATION_UNAVAILABLE.'),
    '401': bare('Missing, invalid or revoked key (empty body).'),
    '403': problem('FORBIDDEN: the account is not entitled to this route.'),
    '405': problem('METHOD_NOT_ALLOWED: only POST is allowed.'),
    '413': problem('PAYLOAD_TOO_LARGE: body or batch too large.'),
    '414': problem('URI_TOO_LONG: the path and query are longer than the documented limit.'),
    '431': problem('HEADERS_TOO_LARGE: too many header fields, or too large.'),
    '429': problem('TOO_MANY_REQUESTS: concurrency limit (retry with jittered backoff); QUOTA_EXCEEDED: quota exhausted.'),
    ...extra,
    '500': problem('REQUEST_FAILED_AFTER_MANY_RETRIES (not charged), RESPONSE_TOO_LARGE, EXTRACTION_FAILED or INTERNAL_ERROR.'),
    '501': problem('LLM_NOT_CONFIGURED (json.prompt needs a model), TARGET_NOT_CONFIGURED (the route\'s target has no upstream here) or FFMPEG_NOT_AVAILABLE.'),
    '503': problem('SERVICE_UNAVAILABLE: starting or draining.'),
  };
}

function scrapeOperation(route: RouteSpec, mode: Mode, schemas: Record<string, JsonSchema>): JsonSchema {
  const name = `${route.source}.${mode}`;
  schemas[name] = jsonSchemaFor({ kind: 'scrape', routeId: route.id, mode });
  const outputSchema = OUTPUT_SCHEMAS[route.id];
  let syncResult = ref('ScrapeResponse');
  if (outputSchema) {
    schemas[`${route.source}.response`] = scrapeResponseWithJson(outputSchema);
    syncResult = ref(`${route.source}.response`);
  }
  const ok =
    mode === 'sync'
      ? { '200': { description: 'Scrape response (spec 2.3).', content: json(syncResult) } }
      : mode === 'async'
        ? { '202': { description: 'Job accepted (pending).', content: json(ref('JobSubmitted')) } }
        : { '202': { description: 'One job per input value accepted.', content: json(ref('BatchSubmitted')) } };
  return {
    operationId: `${mode}_${route.source}`,
    summary: route.summary,
    description: `Route ${route.id} (${route.family}, billed as ${route.product}, Job API source ${route.source}).`,
    tags: [route.family],
    requestBody: { required: true, content: json(ref(name)) },
    responses: { ...ok, ...errorResponses(mode === 'sync' ? { '408': problem('The scrape did not finish within the synchronous deadline.') } : {}) },
  };
}

function fixedPaths(): Record<string, JsonSchema> {
  const open: JsonSchema[] = [];
  return {
    '/v1/search': {
      post: {
        operationId: 'search',
        summary: 'Ranked organic web search results.',
        tags: ['search'],
        requestBody: { required: true, content: json(ref('search.request')) },
        responses: { '200': { description: 'Search response (spec 2.2).', content: json(ref('SearchResponse')) }, ...errorResponses() },
      },
    },
    '/v1/async/scrape/{request_id}': {
      get: {
        operationId: 'getJob',
        summary: 'Status and results of an async job.',
        tags: ['jobs'],
        parameters: [{ name: 'request_id', in: 'path', required: true, schema: { type: 'string', pattern: '^[0-9]{19}$' } }],
        responses: {
          '200': { description: 'Job object (spec 2.4).', content: json(ref('JobCollection')) },
          '401': bare('Missing, invalid or revoked key (empty body).'),
          '404': problem('NOT_FOUND: unknown or expired job id.'),
        },
      },
    },
    '/v1/scrapers': {
      get: {
        operationId: 'listScrapers',
        summary: 'Every implemented scrape path.',
        tags: ['discovery'],
        parameters: [
          {
            name: 'group_by',
            in: 'query',
            required: false,
            description: 'json_output_support groups the paths by how output json behaves on them.',
            schema: { type: 'string', enum: ['json_output_support'] },
          },
        ],
        responses: {
          '200': { description: 'Scrape paths.', content: json({ oneOf: [ref('Scrapers'), ref('ScrapersByJsonSupport')] }) },
          '400': problem('VALIDATION_ERROR: unknown group_by.'),
          '401': bare('Missing, invalid or revoked key (empty body).'),
        },
      },
    },
    '/v1/{endpoint}': {
      options: {
        operationId: 'exampleBody',
        summary: 'Example body of an endpoint: parameter names and type markers.',
        tags: ['discovery'],
        parameters: [
          {
            name: 'endpoint',
            in: 'path',
            required: true,
            description: 'Any path of GET /v1/scrapers below /v1/ (it contains slashes, e.g. scrape/se1/search), or search.',
            schema: { type: 'string' },
          },
          {
            name: 'format',
            in: 'query',
            required: false,
            description: 'json_schema answers the request body JSON Schema instead of the example body.',
            schema: { type: 'string', enum: ['json_schema'] },
          },
        ],
        responses: {
          '200': { description: 'Example body (spec 2.4), or with format=json_schema the request JSON Schema.', content: json(ref('ExampleBody')) },
          '401': bare('Missing, invalid or revoked key (empty body).'),
          '400': problem('VALIDATION_ERROR: unknown format.'),
          '404': problem('NOT_FOUND: no such endpoint.'),
        },
      },
    },
    '/v1/openapi.json': {
      get: {
        operationId: 'openApi',
        summary: 'This document.',
        tags: ['discovery'],
        security: open,
        responses: { '200': { description: 'OpenAPI 3.1 document.', content: json({ type: 'object' }) }, ...HEAD_REFUSALS },
      },
    },
    '/healthz': { get: { operationId: 'healthz', summary: 'Liveness: the process answers.', tags: ['operations'], security: open, responses: { '200': bare('Alive.'), ...HEAD_REFUSALS } } },
    '/readyz': {
      get: {
        operationId: 'readyz',
        summary: 'Readiness: store open, workers and browser up.',
        tags: ['operations'],
        security: open,
        responses: { '200': bare('Ready.'), ...HEAD_REFUSALS, '503': bare('Not ready: starting or draining (the readiness document says which part).') },
      },
    },
    '/metrics': {
      get: {
        operationId: 'metrics',
        summary: 'Prometheus metrics: an admin key, or the operator\'s GLEANER_METRICS_TOKEN, as a Bearer token.',
        tags: ['operations'],
        responses: {
          '200': { description: 'Prometheus text format.', content: { 'text/plain': { schema: { type: 'string' } } } },
          '401': { description: 'No or unknown credentials.' },
          '403': problem('FORBIDDEN: a key that is not an admin key.'),
        },
      },
    },
  };
}

/** Component names every `$ref` of `node` reaches, followed through the components themselves. */
function referenced(roots: unknown[], schemas: Record<string, JsonSchema>): Set<string> {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) stack.push(...node);
    else if (node && typeof node === 'object') {
      for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
        if (k === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/')) {
          const name = v.slice('#/components/schemas/'.length);
          if (!seen.has(name)) {
            seen.add(name);
            stack.push(schemas[name]);
          }
        } else stack.push(v);
      }
    }
  }
  return seen;
}

const cached = new Map<string, Record<string, unknown>>();

/** `servers`: the URLs the caller reaches the service at (the Web API, and the Job API's two listeners). */
export function openApiDocument(servers: ServerUrls = DEFAULT_SERVERS): Record<string, unknown> {
  const key = `${servers.web} ${servers.realtime} ${servers.data}`;
  const hit = cached.get(key);
  if (hit) return hit;
  const all: Record<string, JsonSchema> = { ...RESPONSE_SCHEMAS, ...OPERATION_SCHEMAS, 'search.request': jsonSchemaFor({ kind: 'search' }), ...CRAWL_SCHEMAS };
  const paths: Record<string, JsonSchema> = { ...fixedPaths(), ...operationPaths(servers), ...crawlPaths(() => errorResponses()) };
  for (const route of ROUTES) {
    for (const mode of route.modes) paths[pathFor(route, mode)!] = { post: scrapeOperation(route, mode, all) };
  }
  const hooks = webhooks();
  const used = referenced([paths, hooks], all);
  const schemas = Object.fromEntries(Object.entries(all).filter(([name]) => used.has(name)));
  const doc = {
    openapi: '3.1.0',
    info: {
      title: 'Gleaner API',
      version: API_VERSION,
      description: 'Self-hosted web data extraction: scrape, search, parse and extract, over the Web API (Bearer keys) and the Job API (Basic auth, its own listeners). Generated from the route registry.',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: servers.web, description: 'Web API (GLEANER_PUBLIC_URL, else GLEANER_HOST:GLEANER_PORT).' }],
    security: [{ bearerAuth: [] }],
    paths,
    webhooks: hooks,
    components: {
      schemas,
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API_KEY>' },
        basicAuth: { type: 'http', scheme: 'basic', description: 'Job API users (gleaner users create).' },
      },
    },
  };
  if (cached.size > 16) cached.clear();
  cached.set(key, doc);
  return doc;
}
