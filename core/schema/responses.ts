/**
 * Response schemas of the Web API for the OpenAPI document: search (spec 2.2), scrape (2.3),
 * job objects (2.4), discovery (4.5) and the problem document (part 7). Responses are open
 * (no `additionalProperties: false`): the service may add members, clients must ignore them.
 */
import { PROBLEM_TITLES } from '../errors.js';
import type { JsonSchema } from './shared.js';

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const str = (description: string): JsonSchema => ({ type: 'string', description });
const int = (description: string): JsonSchema => ({ type: 'integer', description });
const nullableStr = (description: string): JsonSchema => ({ type: ['string', 'null'], description });
const obj = (properties: Record<string, JsonSchema>, required: string[] = Object.keys(properties)): JsonSchema => ({
  type: 'object',
  properties,
  required,
});

const REQUEST_ID = { type: 'string', pattern: '^[0-9]{19}$', description: '19-digit request or job id.' };

export const RESPONSE_SCHEMAS: Record<string, JsonSchema> = {
  FieldError: obj({ pointer: str('JSON Pointer of the failing field, such as #/max_results.'), detail: str('What is wrong.') }),
  Problem: {
    ...obj(
      {
        type: str('Problem type URI.'),
        title: { type: 'string', enum: [...PROBLEM_TITLES], description: 'Machine-readable code; branch on this. The closed table of the README (Errors).' },
        status: int('HTTP status.'),
        detail: str('Human-readable; not for program logic.'),
        instance: str('Trace handle.'),
        metadata: obj({ request_id: REQUEST_ID, timestamp: int('Unix seconds.') }),
        errors: { type: 'array', items: ref('FieldError'), description: 'Present on VALIDATION_ERROR.' },
        params: { type: 'object', description: 'Present on a faulted search: the request as executed.' },
        state: { type: 'string', enum: ['faulted'], description: 'faulted on 500 search responses.' },
      },
      ['type', 'title', 'status', 'detail', 'instance', 'metadata'],
    ),
    description: 'RFC 9457 problem document (application/problem+json).',
  },
  PageMetadata: obj(
    {
      page: int('Page number.'),
      run_js: { type: 'boolean', description: 'Whether scripts ran.' },
      url: str('Final URL after redirects.'),
      status_code: int('Upstream HTTP status of this page.'),
      json_source: { type: 'string', enum: ['builtin', 'offline', 'llm'], description: 'How results[].json was produced.' },
      parse_status: { type: 'string', enum: ['parsed', 'partial', 'unrecognised', 'blocked'], description: 'Whether the built-in parser recognised the page (blocked: a bot wall or captcha).' },
      missing_sections: { type: 'array', items: { type: 'string' }, description: 'On a partial page: the sections a page of its kind has that the built-in parser could not find (a layout change shows here first).' },
      unfilled: { type: 'array', items: { type: 'string' }, description: 'Schema fields extraction could not fill (JSON Pointers).' },
      json_fields: {
        type: ['object', 'string'],
        description: 'Offline extraction: where each filled value was read, in the shape of json (h1, title, meta:og:title, jsonld:Product.offers.price, table:Brand, label:Price, class:price, ...).',
      },
    },
    ['page', 'run_js', 'url'],
  ),
  PageResult: obj({
    html: nullableStr('Page HTML, when requested.'),
    markdown: nullableStr('Page as Markdown, when requested.'),
    screenshot: nullableStr('Base64 PNG screenshot, when requested.'),
    json: { description: 'Parsed or extracted fields, when requested; null otherwise.' },
    metadata: ref('PageMetadata'),
  }),
  ResponseMetadata: obj({ timestamp: int('Unix seconds.'), request_id: REQUEST_ID }),
  ScrapeResponse: obj({
    status: int('HTTP status code of the first page.'),
    results: { type: 'array', items: ref('PageResult') },
    params: { type: 'object', description: 'The request as executed, defaults filled in.' },
    metadata: ref('ResponseMetadata'),
  }),
  SearchResponse: obj(
    {
      state: { type: 'string', enum: ['done', 'faulted'] },
      results: {
        type: 'array',
        items: obj({ title: str('Result title.'), outline: str('Snippet.'), url: str('Result address.'), metadata: obj({ position: int('Rank, from 1.') }) }),
      },
      related_questions: { type: 'array', items: obj({ question: str('Question.'), title: nullableStr('Answer title, when shown.'), snippet: nullableStr('Answer snippet, when shown.') }) },
      related_searches: { type: 'array', items: obj({ query: str('Related query.') }) },
      params: obj({ query: str('Query.'), location: nullableStr('Country code or null.'), max_results: int('Result count asked for.') }),
      metadata: ref('ResponseMetadata'),
    },
    ['state', 'results', 'params', 'metadata'],
  ),
  JobSubmitted: obj({
    status: { type: 'string', enum: ['pending'] },
    params: { type: 'object', description: 'The request as executed, defaults filled in.' },
    metadata: ref('ResponseMetadata'),
  }),
  BatchSubmitted: obj({
    data: {
      type: 'array',
      description: 'One entry per job, in the order of the input values.',
      items: obj({ status: { type: 'string', enum: ['pending'] }, params: { type: 'object' }, metadata: obj({ request_id: REQUEST_ID }) }),
    },
  }),
  JobCollection: obj(
    {
      status: { type: 'string', enum: ['pending', 'done', 'faulted'], description: 'pending while queued or running.' },
      status_code: int('Upstream HTTP status of the first page, once done.'),
      results: { type: 'array', items: ref('PageResult'), description: 'Populated when done.' },
      error: obj(
        {
          title: { type: 'string', enum: [...PROBLEM_TITLES], description: 'The problem code of the failure.' },
          status: int('HTTP status of that problem.'),
          detail: str('Human-readable; not for program logic.'),
        },
        ['title', 'status', 'detail'],
      ),
      params: { type: 'object' },
      metadata: ref('ResponseMetadata'),
      deliveries: {
        type: 'object',
        description: 'Webhook and bucket delivery state, once a delivery was owed.',
        properties: {
          webhook: ref('Delivery'),
          storage: ref('Delivery'),
        },
      },
    },
    ['status'],
  ),
  Delivery: obj(
    {
      state: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
      attempts: int('Attempts so far.'),
      lastError: str('The last failure, when one happened.'),
      deliveredAt: int('Unix ms of the successful delivery.'),
    },
    ['state', 'attempts'],
  ),
  Scrapers: obj({ scrapers: { type: 'array', items: { type: 'string' }, description: 'Every implemented scrape path, sorted.' } }),
  ScrapersByJsonSupport: obj({
    scrapers: obj({
      json_supported: { type: 'array', items: { type: 'string' } },
      json_not_supported: { type: 'array', items: { type: 'string' } },
      json_supported_only_with_prompt_or_schema: { type: 'array', items: { type: 'string' } },
    }),
  }),
  WebhookPayload: {
    ...obj(
      {
        event: { type: 'string', enum: ['job.done', 'job.faulted'] },
        job_id: { ...REQUEST_ID, description: 'The job: metadata.request_id of its 202.' },
        status: { type: 'string', enum: ['done', 'faulted'] },
        finished_at: int('Unix seconds.'),
        results_url: str('Collect the results here (GET, the same API key).'),
        storage: { ...obj({ type: str('Bucket type.'), url: str('Bucket address.') }), description: 'The job\'s storage, when it had one.' },
        error: { ...obj({ code: str('The problem title of the failure.'), message: str('What failed.') }), description: 'Present when faulted.' },
      },
      ['event', 'job_id', 'status', 'finished_at', 'results_url'],
    ),
    description: 'Body of a Web API webhook call, signed in the Gleaner-Signature header (t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>).',
  },
  ExampleBody: {
    type: 'object',
    description: 'Each parameter mapped to a type marker: "string", "bool", "int", "number", a nested object, or a one-element array.',
  },
};

/** A scrape response whose `results[].json` follows a route's output schema. */
export function scrapeResponseWithJson(jsonSchema: JsonSchema): JsonSchema {
  return {
    allOf: [
      ref('ScrapeResponse'),
      { type: 'object', properties: { results: { type: 'array', items: { type: 'object', properties: { json: { anyOf: [jsonSchema, { type: 'null' }] } } } } } },
    ],
  };
}

export { ref };
