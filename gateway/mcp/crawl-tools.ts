/**
 * MCP tools of crawls and maps, from the same endpoint schemas as the HTTP routes: `map` (POST
 * /v1/map), `crawl` (POST /v1/async/crawl without its delivery options: an agent reads results
 * itself), `crawl_status` and `crawl_results` (GET /v1/async/crawl/{id}, results by cursor, page
 * bodies as text). Entitlements `map` and `crawl`, admission and charging as on HTTP.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { GleanerError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { jsonSchemaFor, validate, type JsonSchema } from '../../core/schema/index.js';
import { crawlBody, submitCrawl } from '../handlers/crawl.js';
import { mapSite } from '../handlers/map.js';
import { refuseUnrunnable } from '../runnable.js';
import type { CallContext } from './call.js';
import { compactSchema } from './compact.js';
import type { ToolDef } from './tools.js';

const CRAWL_ONLY_HTTP = ['callback_url', 'callback_pages', 'storage'];
const ID_SCHEMA: JsonSchema = { type: 'string', pattern: '^[0-9]{19}$', description: 'The crawl id the crawl tool returned.' };

export const CRAWL_TOOL_KINDS = ['map', 'crawl', 'crawl_status', 'crawl_results'] as const;
export type CrawlToolKind = (typeof CRAWL_TOOL_KINDS)[number];

function withoutDelivery(schema: JsonSchema): JsonSchema {
  const properties = { ...(schema.properties as Record<string, JsonSchema>) };
  for (const name of CRAWL_ONLY_HTTP) delete properties[name];
  return { ...schema, properties };
}

export function crawlTools(): ToolDef[] {
  return [
    {
      name: 'map',
      description: 'List a website\'s URLs (its sitemaps and start-page links) without fetching each page.',
      entitlement: 'map',
      kind: 'map',
      endpoint: { kind: 'map' },
      defaults: {},
    },
    {
      name: 'crawl',
      description: 'Crawl a website from a URL (async): each page once, politely, within limit and max_depth. Returns an id for crawl_status and crawl_results.',
      entitlement: 'crawl',
      kind: 'crawl',
      endpoint: { kind: 'crawl' },
      defaults: {},
    },
    {
      name: 'crawl_status',
      description: 'Status and page counts of a crawl.',
      entitlement: 'crawl',
      kind: 'crawl_status',
      endpoint: { kind: 'crawl' },
      defaults: {},
    },
    {
      name: 'crawl_results',
      description: 'A crawl\'s pages as text (with url, depth, parent), in fetch order, from cursor (the previous answer\'s next).',
      entitlement: 'crawl',
      kind: 'crawl_results',
      endpoint: { kind: 'crawl' },
      defaults: {},
    },
  ];
}

/** The listed input schema of a crawl tool: the endpoint's own, compact (compact.ts), without HTTP-only delivery. */
export function crawlListedSchema(tool: ToolDef): JsonSchema {
  const idOnly = (extra: Record<string, JsonSchema> = {}): JsonSchema => ({ type: 'object', properties: { id: ID_SCHEMA, ...extra }, required: ['id'] });
  if (tool.kind === 'crawl_status') return idOnly();
  if (tool.kind === 'crawl_results') return idOnly({ cursor: { type: 'string', pattern: '^[0-9]+$' }, limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 } });
  const full = tool.kind === 'map' ? jsonSchemaFor({ kind: 'map' }) : withoutDelivery(jsonSchemaFor({ kind: 'crawl' }));
  return compactSchema(full);
}

export function isCrawlTool(tool: ToolDef): boolean {
  return (CRAWL_TOOL_KINDS as readonly string[]).includes(tool.kind);
}

function structured(body: Record<string, unknown>, text: string): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: body };
}

function idArgs(args: Record<string, unknown>): { id: string; cursor: string; limit: number } {
  const id = args.id;
  if (typeof id !== 'string' || !/^[0-9]{19}$/.test(id)) throw new GleanerError('VALIDATION_ERROR', undefined, { errors: [{ pointer: '#/id', detail: 'must be the 19-digit crawl id' }] });
  const cursor = args.cursor === undefined ? '0' : String(args.cursor);
  const limit = args.limit === undefined ? 10 : Number(args.limit);
  if (!/^[0-9]+$/.test(cursor)) throw new GleanerError('VALIDATION_ERROR', undefined, { errors: [{ pointer: '#/cursor', detail: 'must be a cursor (digits)' }] });
  if (!Number.isInteger(limit) || limit < 1 || limit > 50) throw new GleanerError('VALIDATION_ERROR', undefined, { errors: [{ pointer: '#/limit', detail: 'must be an integer from 1 to 50' }] });
  return { id, cursor, limit };
}

/** Runs a crawl or map tool; throws GleanerError for the caller to turn into a tool error. */
export async function runCrawlTool(tool: ToolDef, args: Record<string, unknown>, cc: CallContext): Promise<CallToolResult> {
  const { svc, account } = cc;
  if (tool.kind === 'map' || tool.kind === 'crawl') {
    const checked = validate(tool.endpoint, args);
    if (!checked.ok) throw new GleanerError('VALIDATION_ERROR', undefined, { errors: checked.errors });
    if (tool.kind === 'map') {
      const body = await mapSite(svc, checked.params, account.clientId, newId(), { signal: cc.signal });
      const urls = (body.urls as Array<{ url: string }>).map((u) => u.url);
      return structured(body, `${urls.length} URLs\n${urls.join('\n')}`);
    }
    const scrape = checked.params.scrape as Record<string, unknown>;
    refuseUnrunnable(undefined, scrape, svc);
    const hold = svc.quota.reserve(account.clientId, { pages: 1, rendered: scrape.run_js === true }, undefined);
    let body: Record<string, unknown>;
    try {
      body = await submitCrawl(svc, account.clientId, checked.params);
    } finally {
      hold.release();
    }
    return structured(body, `Crawl ${String(body.id)} started; follow it with crawl_status and read its pages with crawl_results.`);
  }
  const { id, cursor, limit } = idArgs(args);
  const job = await svc.store.jobs.get(id);
  if (!job || job.clientId !== account.clientId || job.routeId !== 'crawl') throw new GleanerError('NOT_FOUND', `No crawl ${id} (unknown, expired, or not this account's).`);
  if (tool.kind === 'crawl_status') {
    const body = await crawlBody(svc, job, new URLSearchParams(), false);
    return structured(body, `Crawl ${id}: ${String(body.status)} ${JSON.stringify(body.counts)}`);
  }
  const body = await crawlBody(svc, job, new URLSearchParams({ cursor, limit: String(limit) }));
  const pages = body.results as Array<{ url: string; depth: number; markdown: string | null; html: string | null; metadata: { status_code: number } }>;
  const content: CallToolResult['content'] = pages.map((p) => ({ type: 'text' as const, text: `URL: ${p.url} (depth ${p.depth}, HTTP ${p.metadata.status_code})\n\n${p.markdown ?? p.html ?? ''}` }));
  content.push({ type: 'text', text: body.next === null ? 'No more pages.' : `More with cursor ${String(body.next)}${body.status === 'running' ? ' (the crawl is still running)' : ''}.` });
  const { results: _bodies, ...rest } = body;
  return { content, structuredContent: { ...rest, pages: pages.map((p) => ({ url: p.url, depth: p.depth, status_code: p.metadata.status_code })) } };
}
