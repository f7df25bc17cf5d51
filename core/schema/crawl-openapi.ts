/**
 * The OpenAPI part of crawls and maps (openapi.ts adds it): `POST /v1/map`, `POST /v1/async/crawl`,
 * `GET` and `DELETE /v1/async/crawl/{id}`, their request schemas (from core/crawl/spec.ts through
 * build.ts) and their response schemas.
 */
import { CRAWL_PATH, MAP_PATH } from '../crawl/spec.js';
import { jsonSchemaFor } from './build.js';
import type { JsonSchema } from './shared.js';

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: JsonSchema): JsonSchema => ({ 'application/json': { schema } });
const problem = (description: string): JsonSchema => ({ description, content: { 'application/problem+json': { schema: ref('Problem') } } });
const count = (description: string): JsonSchema => ({ type: 'integer', minimum: 0, description });
const ID = { type: 'string', pattern: '^[0-9]{19}$' };

const COUNTS: JsonSchema = {
  type: ['object', 'null'],
  description: 'null before the crawl starts.',
  properties: {
    discovered: count('Unique URLs taken into the crawl.'),
    queued: count('Waiting or in flight.'),
    done: count('Pages fetched and kept (results).'),
    failed: count('Pages whose fetch failed (listed with view=skipped).'),
    duplicates: count('URLs that turned out to be another page: redirects, redirect targets and canonical twins met already.'),
    skipped_robots: count('URLs robots.txt keeps out (listed with view=skipped, with the deciding rule).'),
    skipped_filters: count('Unique URLs outside the scope, refused by a path pattern, or traps.'),
    skipped_depth: count('Unique URLs deeper than max_depth.'),
    skipped_limit: count('Unique URLs past the discovery cap (10 x limit, at least 10,000).'),
  },
};

export const CRAWL_SCHEMAS: Record<string, JsonSchema> = {
  'map.request': jsonSchemaFor({ kind: 'map' }),
  'crawl.request': jsonSchemaFor({ kind: 'crawl' }),
  MapResponse: {
    type: 'object',
    properties: {
      urls: {
        type: 'array',
        items: {
          type: 'object',
          properties: { url: { type: 'string' }, lastmod: { type: 'string' }, source: { type: 'string', enum: ['sitemap', 'links'] } },
          required: ['url', 'source'],
        },
      },
      counts: { type: 'object', properties: { urls: count('URLs returned.'), sitemaps: count('Sitemap files read.'), sitemaps_failed: count('Sitemap files that failed or were not sitemaps.') } },
      status_code: { type: 'integer', description: 'HTTP status of the start page.' },
      params: { type: 'object' },
      metadata: ref('ResponseMetadata'),
    },
    required: ['urls', 'counts', 'params', 'metadata'],
  },
  CrawlSubmitted: {
    type: 'object',
    properties: { id: ID, status: { type: 'string', enum: ['pending'] }, url: { type: 'string' }, params: { type: 'object' }, metadata: ref('ResponseMetadata') },
    required: ['id', 'status', 'url', 'params', 'metadata'],
  },
  CrawlPage: {
    description: 'A /v1/scrape results[] entry plus where the crawl found it.',
    allOf: [
      ref('PageResult'),
      {
        type: 'object',
        properties: {
          n: { type: 'integer', minimum: 1, description: 'Place in the crawl\'s results (commit order).' },
          url: { type: 'string', description: 'The URL as fetched (normalised).' },
          depth: { type: 'integer', minimum: 0 },
          parent: { type: ['string', 'null'], description: 'The page it was linked from; null for the start URL and sitemap entries.' },
        },
        required: ['n', 'url', 'depth', 'parent'],
      },
    ],
  },
  CrawlSkip: {
    type: 'object',
    properties: {
      n: { type: 'integer' },
      url: { type: 'string' },
      depth: { type: 'integer' },
      parent: { type: ['string', 'null'] },
      reason: { type: 'string', enum: ['robots', 'failed'] },
      robots: { type: 'object', properties: { robots_url: { type: 'string' }, line: { type: 'integer' }, rule: { type: 'string' }, reason: { type: 'string' } } },
      error: { type: 'object', properties: { title: { type: 'string' }, detail: { type: 'string' } } },
    },
    required: ['n', 'url', 'reason'],
  },
  CrawlStatus: {
    type: 'object',
    properties: {
      id: ID,
      status: { type: 'string', enum: ['pending', 'running', 'done', 'faulted', 'cancelled'] },
      url: { type: 'string' },
      counts: COUNTS,
      results: { type: 'array', items: ref('CrawlPage'), description: 'A page of results (view=results).' },
      skipped: { type: 'array', items: ref('CrawlSkip'), description: 'A page of skipped URLs (view=skipped).' },
      next: { type: ['string', 'null'], description: 'Cursor of the next page; null once the crawl is final and everything was read.' },
      error: { type: 'object', description: 'Why it stopped (faulted, or QUOTA_EXCEEDED: the pages before are kept).', properties: { title: { type: 'string' }, status: { type: 'integer' }, detail: { type: 'string' } } },
      params: { type: 'object' },
      metadata: { type: 'object', properties: { request_id: ID, timestamp: { type: 'integer' }, finished_at: { type: 'integer' } } },
      deliveries: { type: 'object' },
    },
    required: ['id', 'status', 'url', 'counts', 'params', 'metadata'],
  },
};

const auth401 = { description: 'Missing, invalid or revoked key (empty body).' };

export function crawlPaths(errorResponses: () => Record<string, JsonSchema>): Record<string, JsonSchema> {
  const idParam = { name: 'id', in: 'path', required: true, schema: ID };
  return {
    [MAP_PATH]: {
      post: {
        operationId: 'map',
        summary: 'The URLs of a site: its sitemaps and the links of its start page.',
        tags: ['crawl'],
        requestBody: { required: true, content: json(ref('map.request')) },
        responses: { '200': { description: 'The URLs found.', content: json(ref('MapResponse')) }, ...errorResponses() },
      },
    },
    [CRAWL_PATH]: {
      post: {
        operationId: 'startCrawl',
        summary: 'Crawl a site (async): every page once, politely, as scrape results.',
        tags: ['crawl'],
        requestBody: { required: true, content: json(ref('crawl.request')) },
        responses: { '202': { description: 'Crawl accepted (pending).', content: json(ref('CrawlSubmitted')) }, ...errorResponses() },
      },
    },
    [`${CRAWL_PATH}/{id}`]: {
      get: {
        operationId: 'getCrawl',
        summary: 'Status, counts and a page of results (or skipped URLs) of a crawl.',
        tags: ['crawl'],
        parameters: [
          idParam,
          { name: 'cursor', in: 'query', required: false, description: 'The previous answer\'s next.', schema: { type: 'string', pattern: '^[0-9]+$' } },
          { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100 } },
          { name: 'view', in: 'query', required: false, schema: { type: 'string', enum: ['results', 'skipped'], default: 'results' } },
        ],
        responses: {
          '200': { description: 'The crawl.', content: json(ref('CrawlStatus')) },
          '400': problem('VALIDATION_ERROR: cursor, limit or view.'),
          '401': auth401,
          '404': problem('NOT_FOUND: unknown or expired crawl id.'),
        },
      },
      delete: {
        operationId: 'cancelCrawl',
        summary: 'Cancel a crawl; the pages fetched so far are kept.',
        tags: ['crawl'],
        parameters: [idParam],
        responses: { '200': { description: 'The crawl, cancelled (or as it ended).', content: json(ref('CrawlStatus')) }, '401': auth401, '404': problem('NOT_FOUND: unknown or expired crawl id.') },
      },
    },
  };
}
