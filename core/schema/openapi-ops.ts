/**
 * The OpenAPI operations that are not scrape routes: the Job API (its own listeners: realtime
 * and push-pull, Basic auth), the operator endpoints (`/v1/status`, the console), the job feed
 * (a WebSocket), MCP, and the webhook Gleaner sends. Their schemas are open (services may add
 * members): they name what callers read, not every member.
 */
import { jobApiSchema } from '../jobapi/schema.js';
import { ref } from './responses.js';
import type { JsonSchema } from './shared.js';

export const json = (schema: JsonSchema): JsonSchema => ({ 'application/json': { schema } });
export const problem = (description: string): JsonSchema => ({ description, content: { 'application/problem+json': { schema: ref('Problem') } } });
export const bare = (description: string): JsonSchema => ({ description });

/** What any request can be refused with before routing: a head over the limits or ambiguous framing. */
export const HEAD_REFUSALS: Record<string, JsonSchema> = {
  '4XX': problem('URI_TOO_LONG (414), HEADERS_TOO_LARGE (431) or MALFORMED_REQUEST (400): a request head over the documented limits or with ambiguous framing; the connection is closed.'),
};
const UNAUTHORIZED = { '401': bare('Missing, invalid or revoked credentials (empty body).') };
const ADMIN = { ...UNAUTHORIZED, '403': problem('FORBIDDEN: an admin key is needed.') };

const open = (description: string, properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({ type: 'object', description, properties, ...(required.length ? { required } : {}) });
const str = { type: 'string' };
const int = { type: 'integer' };

/** Schemas of the operations below (joined to components.schemas). */
export const OPERATION_SCHEMAS: Record<string, JsonSchema> = {
  'jobapi.query': { ...jobApiSchema(false), description: 'A Job API query (spec 2.6): source and url or query, with its options.' },
  'jobapi.batch': { ...jobApiSchema(true), description: 'A Job API batch: url or query is an array, one job per value.' },
  JobApiJob: open(
    'A Job API job object: the input echoed with defaults, and its state.',
    {
      id: str,
      client_id: int,
      status: { type: 'string', enum: ['pending', 'done', 'faulted'] },
      statuses: { ...int, description: 'Upstream HTTP status once done, the failure\'s once faulted, 0 while pending.' },
      created_at: { ...str, description: 'YYYY-MM-DD HH:MM:SS, UTC.' },
      updated_at: str,
      _links: { type: 'array', items: open('A link to the job or its results.', { rel: { type: 'string', enum: ['self', 'results'] }, href: str, method: { type: 'string', enum: ['GET'] } }) },
      error: open('Present when faulted.', { code: str, message: str }),
    },
    ['id', 'status', '_links'],
  ),
  JobApiResults: open('Results of a done job, one entry per page.', {
    results: {
      type: 'array',
      items: open('One page.', { content: { description: 'The HTML, or with parse the parsed object (base64 with content_encoding).' }, id: str, page: int, url: str, job_id: str, status_code: int }),
    },
  }),
  JobApiStats: open('Usage by product and source (spec 4.6), and the account\'s quota.', { meta: { type: 'object' }, data: { type: 'object' }, quota: { type: ['object', 'null'] } }),
  StatusDocument: open('What the operator console shows (README "Operator console and status").', {
    at: int,
    state: str,
    queue: { type: 'object' },
    jobs: { type: 'object' },
    errors: { type: 'array', items: open('An error title and how often callers saw it in the last hour.', { title: str, count: int }) },
    refused: { type: 'object' },
    recent_jobs: { type: 'array', items: { type: 'object' } },
    history: { type: 'object' },
  }),
  JsonRpcMessage: { description: 'A JSON-RPC 2.0 message of MCP (a request, notification or response), or an array of them.', type: ['object', 'array'] },
};

const jobApiServers = (realtime: boolean, data: boolean, urls: ServerUrls): JsonSchema[] => [
  ...(realtime ? [{ url: urls.realtime, description: 'Job API realtime listener (GLEANER_REALTIME_PORT): holds the connection until the result.' }] : []),
  ...(data ? [{ url: urls.data, description: 'Job API push-pull listener (GLEANER_DATA_PORT).' }] : []),
];

export interface ServerUrls {
  web: string;
  realtime: string;
  data: string;
}

function jobApiPaths(urls: ServerUrls): Record<string, JsonSchema> {
  const basic = [{ basicAuth: [] }];
  const refusals = { '400': problem('VALIDATION_ERROR with pointers naming Job API fields (#/geo_location, #/context/0/key), plus message.'), ...UNAUTHORIZED, '403': problem('FORBIDDEN: the account is not entitled to the source\'s route.'), '429': problem('TOO_MANY_REQUESTS or QUOTA_EXCEEDED.') };
  const id = { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^[0-9]{19}$' } };
  return {
    '/v1/queries': {
      servers: jobApiServers(true, true, urls),
      post: {
        operationId: 'jobApiQuery',
        summary: 'Job API: one query. Realtime answers {results, job} when done; push-pull answers the pending job object.',
        tags: ['job api'],
        security: basic,
        requestBody: { required: true, content: json(ref('jobapi.query')) },
        responses: {
          '200': { description: 'Realtime: the results and the job; push-pull: the job object (pending).', content: json({ oneOf: [ref('JobApiJob'), { type: 'object', properties: { results: { type: 'array' }, job: ref('JobApiJob') }, required: ['results', 'job'] }] }) },
          ...refusals,
          '408': problem('REQUEST_FAILED_SCRAPE_TIMEOUT (realtime).'),
          '500': problem('REQUEST_FAILED_AFTER_MANY_RETRIES (realtime, not charged) or INTERNAL_ERROR.'),
        },
      },
    },
    '/v1/queries/batch': {
      servers: jobApiServers(false, true, urls),
      post: { operationId: 'jobApiBatch', summary: 'Job API: a batch of queries (up to GLEANER_MAX_BATCH values).', tags: ['job api'], security: basic, requestBody: { required: true, content: json(ref('jobapi.batch')) }, responses: { '200': { description: 'One job object per value.', content: json({ type: 'object', properties: { queries: { type: 'array', items: ref('JobApiJob') } } }) }, ...refusals, '413': problem('PAYLOAD_TOO_LARGE: more values than GLEANER_MAX_BATCH.') } },
    },
    '/v1/queries/{id}': {
      servers: jobApiServers(false, true, urls),
      get: { operationId: 'jobApiStatus', summary: 'Job API: a job object.', tags: ['job api'], security: basic, parameters: [id], responses: { '200': { description: 'The job object.', content: json(ref('JobApiJob')) }, ...UNAUTHORIZED, '404': problem('NOT_FOUND: unknown, expired or another account\'s job.') } },
    },
    '/v1/queries/{id}/results': {
      servers: jobApiServers(false, true, urls),
      get: { operationId: 'jobApiResults', summary: 'Job API: the results of a done job.', tags: ['job api'], security: basic, parameters: [id], responses: { '200': { description: 'The results.', content: json(ref('JobApiResults')) }, ...UNAUTHORIZED, '404': problem('NOT_FOUND: unknown job, or not done yet.') } },
    },
    '/v2/stats': {
      servers: jobApiServers(false, true, urls),
      get: {
        operationId: 'jobApiStats',
        summary: 'Usage statistics of the account (both APIs), with its quota.',
        tags: ['job api'],
        security: basic,
        parameters: ['date_from', 'date_to', 'group_by'].map((name) => ({ name, in: 'query', required: false, schema: name === 'group_by' ? { type: 'string', enum: ['day', 'month', 'year'] } : { type: 'string', format: 'date' } })),
        responses: { '200': { description: 'The statistics.', content: json(ref('JobApiStats')) }, ...UNAUTHORIZED, '400': problem('VALIDATION_ERROR: a bad filter.') },
      },
    },
  };
}

function operatorPaths(): Record<string, JsonSchema> {
  const filters = [
    { name: 'state', in: 'query', required: false, description: 'Only recent jobs in this state (failed includes failed deliveries).', schema: { type: 'string', enum: ['accepted', 'started', 'done', 'failed', 'delivered', 'delivery_failed'] } },
    { name: 'route', in: 'query', required: false, description: 'Only recent jobs of routes matching this pattern (se1/*, mkt1/product).', schema: { type: 'string' } },
    { name: 'account', in: 'query', required: false, description: 'Only recent jobs of this client id.', schema: { type: 'integer' } },
  ];
  return {
    '/v1/status': { get: { operationId: 'status', summary: 'Operator status: queue, farm, rates, latency, errors, usage, recent jobs (admin).', tags: ['operations'], parameters: filters, responses: { '200': { description: 'The status document.', content: json(ref('StatusDocument')) }, ...ADMIN } } },
    '/v1/status/jobs/{job_id}': {
      get: {
        operationId: 'statusJob',
        summary: 'Any account\'s job, as the console opens it (admin).',
        tags: ['operations'],
        parameters: [{ name: 'job_id', in: 'path', required: true, schema: { type: 'string', pattern: '^[0-9]{19}$' } }],
        responses: { '200': { description: 'The job record and its collection document.', content: json({ type: 'object', properties: { job: { type: 'object' }, collection: ref('JobCollection') } }) }, ...ADMIN, '404': problem('NOT_FOUND: unknown or expired job.') },
      },
    },
    '/v1/feed': {
      get: {
        operationId: 'feed',
        summary: 'Job feed: a WebSocket (admin) of accepted, started, done, failed, delivered and delivery_failed events; ?format=json, ?account=, ?route= filters.',
        tags: ['operations'],
        responses: { '101': bare('Switching Protocols: the WebSocket is open (msgpack frames, JSON with ?format=json).'), '426': problem('UPGRADE_REQUIRED: a plain GET.'), ...ADMIN },
      },
    },
    '/console': { get: { operationId: 'console', summary: 'The operator console page (sign in with an admin key in the page).', tags: ['operations'], security: [], responses: { '200': { description: 'A self-contained HTML page.', content: { 'text/html': { schema: { type: 'string' } } } }, ...HEAD_REFUSALS } } },
    '/mcp': {
      post: {
        operationId: 'mcp',
        summary: 'Model Context Protocol, streamable HTTP transport (JSON-RPC over POST; server-sent events for answers). See the README for tools, sessions and errors.',
        tags: ['mcp'],
        parameters: [{ name: 'Mcp-Session-Id', in: 'header', required: false, description: 'Every request after initialize.', schema: { type: 'string' } }],
        requestBody: { required: true, content: json(ref('JsonRpcMessage')) },
        responses: {
          '200': { description: 'The JSON-RPC answer (JSON), or an event stream ending with it.', content: { ...json(ref('JsonRpcMessage')), 'text/event-stream': { schema: { type: 'string' } } } },
          '202': bare('Accepted: notifications and responses only.'),
          '400': problem('VALIDATION_ERROR: no session id and no initialize; MALFORMED_JSON.'),
          ...UNAUTHORIZED,
          '404': problem('NOT_FOUND: unknown, expired or closed session, or one opened with another key.'),
          '413': problem('PAYLOAD_TOO_LARGE.'),
        },
      },
      delete: { operationId: 'mcpEnd', summary: 'Ends an MCP session.', tags: ['mcp'], parameters: [{ name: 'Mcp-Session-Id', in: 'header', required: true, schema: { type: 'string' } }], responses: { '200': bare('Ended.'), ...UNAUTHORIZED, '404': problem('NOT_FOUND: no such session.') } },
    },
  };
}

export function operationPaths(urls: ServerUrls): Record<string, JsonSchema> {
  return { ...operatorPaths(), ...jobApiPaths(urls) };
}

/** OpenAPI 3.1 `webhooks`: what Gleaner POSTs to a job's callback_url. */
export function webhooks(): Record<string, JsonSchema> {
  return {
    jobFinished: {
      post: {
        summary: 'A Web API job finished (sent to its callback_url, signed with the account\'s webhook secret; retried until a 2xx).',
        parameters: [{ name: 'Gleaner-Signature', in: 'header', required: true, description: 't=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>', schema: { type: 'string' } }],
        requestBody: { required: true, content: json(ref('WebhookPayload')) },
        responses: { '2XX': bare('Received: not sent again.'), '4XX': bare('A final refusal (except 408 and 429): kept as a dead letter.') },
      },
    },
  };
}
