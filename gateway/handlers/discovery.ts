/**
 * Discovery from the registry: `GET /v1/scrapers`, `OPTIONS /v1/{endpoint}` and the OpenAPI
 * document. Everything here is computed once and served from memory.
 */
import { GleanerError } from '../../core/errors.js';
import { CRAWL_PATH, MAP_PATH } from '../../core/crawl/spec.js';
import { groupedByJsonSupport, scrapePaths } from '../../core/registry/index.js';
import { exampleBody, jsonSchemaFor, openApiDocument } from '../../core/schema/index.js';
import type { Handler } from '../context.js';

let scrapersBody: string | undefined;
let groupedBody: string | undefined;
let openApiBody: { key: string; body: string } | undefined;

export const scrapers: Handler = (ctx) => {
  const query = new URLSearchParams(ctx.info.query);
  const groupBy = query.get('group_by');
  if (groupBy === null) {
    // `crawlers`: the site-wide endpoints beside the scrape paths (the spec's list stays scrape paths).
    scrapersBody ??= JSON.stringify({ scrapers: scrapePaths(), crawlers: [MAP_PATH, CRAWL_PATH] });
    return ctx.reply.send(200, { 'content-type': 'application/json' }, scrapersBody);
  }
  if (groupBy !== 'json_output_support') {
    throw new GleanerError('VALIDATION_ERROR', undefined, {
      errors: [{ pointer: '#/group_by', detail: 'group_by must be json_output_support' }],
    });
  }
  groupedBody ??= JSON.stringify({ scrapers: groupedByJsonSupport() });
  ctx.reply.send(200, { 'content-type': 'application/json' }, groupedBody);
};

export const options: Handler = (ctx) => {
  const endpoint = ctx.route.endpoint;
  if (!endpoint) throw new GleanerError('NOT_FOUND');
  const format = new URLSearchParams(ctx.info.query).get('format');
  const allow = 'POST, OPTIONS';
  if (format === 'json_schema') return ctx.reply.json(200, jsonSchemaFor(endpoint), { allow });
  if (format !== null) {
    throw new GleanerError('VALIDATION_ERROR', undefined, {
      errors: [{ pointer: '#/format', detail: 'format must be json_schema or absent' }],
    });
  }
  ctx.reply.json(200, exampleBody(endpoint), { allow });
};

/**
 * The document names the servers the caller reaches: the public URLs when configured, else the
 * host the request came to, with the Job API's ports.
 */
export const openapi: Handler = (ctx, svc) => {
  const { config } = svc;
  const host = (ctx.info.host || `${config.host}:${config.port}`).replace(/:\d+$/, '');
  const web = config.publicUrl ?? `http://${ctx.info.host || `${config.host}:${config.port}`}`;
  const servers = { web, realtime: `http://${host}:${config.realtimePort}`, data: config.dataPublicUrl ?? `http://${host}:${config.dataPort}` };
  const key = JSON.stringify(servers);
  if (openApiBody?.key !== key) openApiBody = { key, body: JSON.stringify(openApiDocument(servers)) };
  ctx.reply.send(200, { 'content-type': 'application/json' }, openApiBody.body);
};
