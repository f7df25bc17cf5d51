/**
 * MCP tools, derived from the route registry and the endpoint schemas — none is written by
 * hand: `scrape` (the generic route), `search` (`POST /v1/search`), `extract` (the generic
 * route with `json.prompt` or `json.schema`, flattened), and one tool per dedicated route,
 * named by its Job API source (`se1_search`, `mkt1_product`, ...). A tool's input schema is
 * the route's request schema and is checked by the same compiled validator as the HTTP route;
 * its output schema follows the parser's `OUTPUT_SCHEMAS` entry when the route has one.
 *
 * Routes without a sync mode (assistants, video download) run as an async job that the call
 * waits for; `callback_url` and `storage` are left out of their tool schemas.
 */
import { OUTPUT_SCHEMAS } from '../../core/targets/index.js';
import { ROUTES, routeById, type RouteSpec } from '../../core/registry/index.js';
import { jsonSchemaFor, type Endpoint, type JsonSchema } from '../../core/schema/index.js';
import { RESPONSE_SCHEMAS } from '../../core/schema/responses.js';
import { crawlTools, type CrawlToolKind } from './crawl-tools.js';

export interface ToolDef {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  /** Entitlement checked before the call: a route id, or `search`. */
  entitlement: string;
  kind: 'scrape' | 'extract' | 'search' | CrawlToolKind;
  /** The validator of the call's (mapped) arguments. */
  endpoint: Endpoint;
}

const QUEUED_ONLY = ['callback_url', 'storage'];
/** The `extract` tool's own names for the members of `json`. */
export const EXTRACT_FIELDS = ['prompt', 'schema'] as const;

/** `{$ref: "#/components/schemas/X"}` replaced by X, recursively (tool schemas stand alone). */
export function inlineRefs(schema: unknown, defs: Record<string, JsonSchema> = RESPONSE_SCHEMAS): unknown {
  if (Array.isArray(schema)) return schema.map((s) => inlineRefs(s, defs));
  if (!schema || typeof schema !== 'object') return schema;
  const record = schema as Record<string, unknown>;
  const ref = record.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
    return inlineRefs(defs[ref.slice('#/components/schemas/'.length)], defs);
  }
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, inlineRefs(v, defs)]));
}

/** What a scrape-like tool returns as structured content: the scrape response without page bodies. */
function scrapeOutputSchema(route: RouteSpec): JsonSchema {
  const json = OUTPUT_SCHEMAS[route.id];
  return {
    type: 'object',
    description: 'The scrape response (status, params, metadata) with each page\'s parsed fields and metadata; page bodies are in the text and image content.',
    properties: {
      status: { type: 'integer', description: 'Upstream HTTP status of the first page.' },
      results: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            json: json ? { anyOf: [json, { type: 'null' }] } : { description: 'Parsed or extracted fields, or null.' },
            metadata: inlineRefs(RESPONSE_SCHEMAS.PageMetadata),
          },
          required: ['json', 'metadata'],
        },
      },
      params: { type: 'object', description: 'The request as executed, defaults filled in.' },
      metadata: inlineRefs(RESPONSE_SCHEMAS.ResponseMetadata),
    },
    required: ['status', 'results', 'params', 'metadata'],
  };
}

function routeTool(route: RouteSpec): ToolDef {
  const mode = route.modes.includes('sync') ? 'sync' : 'async';
  const endpoint: Endpoint = { kind: 'scrape', routeId: route.id, mode };
  const schema = jsonSchemaFor(endpoint);
  const properties = { ...(schema.properties as Record<string, JsonSchema>) };
  for (const name of QUEUED_ONLY) delete properties[name];
  const waits = mode === 'async' ? ' Runs as an async job; the call waits for it and reports progress.' : '';
  return {
    name: route.source,
    description: `${route.summary} (route ${route.id}).${waits}`,
    inputSchema: { ...schema, properties },
    outputSchema: scrapeOutputSchema(route),
    entitlement: route.id,
    kind: 'scrape',
    endpoint,
  };
}

function universalTools(): ToolDef[] {
  const universal = routeById('universal')!;
  const endpoint: Endpoint = { kind: 'scrape', routeId: 'universal', mode: 'sync' };
  const schema = jsonSchemaFor(endpoint);
  const props = schema.properties as Record<string, JsonSchema>;
  const jsonMembers = (props.json as { properties: Record<string, JsonSchema> }).properties;
  const notNull = (s: JsonSchema): JsonSchema => ({ ...s, type: (s.type as string[]).filter((t) => t !== 'null')[0] });
  const extractProps: Record<string, JsonSchema> = { url: props.url! };
  for (const field of EXTRACT_FIELDS) extractProps[field] = notNull(jsonMembers[field]!);
  for (const name of ['location', 'device', 'run_js']) extractProps[name] = props[name]!;
  return [
    {
      name: 'scrape',
      description: 'Fetch a web page and return it as Markdown, HTML, parsed JSON or a screenshot (output formats, run_js, device, location, json extraction).',
      inputSchema: schema,
      outputSchema: scrapeOutputSchema(universal),
      entitlement: 'universal',
      kind: 'scrape',
      endpoint,
    },
    {
      name: 'extract',
      description: 'Fetch a web page and extract JSON from it, shaped by a natural-language prompt or by a JSON Schema (give exactly one).',
      inputSchema: {
        type: 'object',
        description: 'A page address and either prompt or schema.',
        properties: extractProps,
        required: ['url'],
        additionalProperties: false,
      },
      outputSchema: scrapeOutputSchema(universal),
      entitlement: 'universal',
      kind: 'extract',
      endpoint,
    },
    {
      name: 'search',
      description: 'Ranked organic web search results from the configured search engines, merged and de-duplicated.',
      inputSchema: jsonSchemaFor({ kind: 'search' }),
      outputSchema: inlineRefs(RESPONSE_SCHEMAS.SearchResponse) as JsonSchema,
      entitlement: 'search',
      kind: 'search',
      endpoint: { kind: 'search' },
    },
  ];
}

let cached: { list: ToolDef[]; byName: Map<string, ToolDef> } | undefined;

function build(): { list: ToolDef[]; byName: Map<string, ToolDef> } {
  if (cached) return cached;
  const list = [...universalTools(), ...crawlTools(), ...ROUTES.filter((r) => r.id !== 'universal').map(routeTool)];
  const byName = new Map<string, ToolDef>();
  for (const tool of list) {
    if (byName.has(tool.name)) throw new Error(`mcp: duplicate tool ${tool.name}`);
    byName.set(tool.name, tool);
  }
  return (cached = { list, byName });
}

export function allTools(): readonly ToolDef[] {
  return build().list;
}

export function toolByName(name: string): ToolDef | undefined {
  return build().byName.get(name);
}
