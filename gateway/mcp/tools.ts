/**
 * MCP tools, derived from the route registry — none is written by hand: `scrape` (the generic
 * route), `extract` (the generic route with `json.prompt` or `json.schema`, flattened), `search`
 * (`POST /v1/search`) and one tool per dedicated route, named by its Job API source
 * (`se1_search`, `mkt1_product`, ...).
 *
 * The list an agent sees is what this node can serve it (`servedTools`): the dedicated tools of
 * targets configured in GLEANER_TARGETS, `search` when an engine is, the video download when
 * ffmpeg works and a bucket is configured, and only the tools the caller's key is entitled to.
 * Listed input schemas are compact (compact.ts) and no output schema is listed: a call is
 * checked by the route's full compiled validator, and its answer is the route's as JSON.
 *
 * For agents, the tools' defaults differ from the HTTP routes' in one way each, and the listed
 * schema shows it: dedicated tools with a built-in parser answer `json`, `scrape` answers
 * Markdown, and a route that needs scripts (se1 AI mode) runs them — a page of HTML is rarely
 * what an agent wants in its context.
 */
import { ROUTES, SEARCH, type RouteSpec } from '../../core/registry/index.js';
import { jsonSchemaFor, type Endpoint, type JsonSchema } from '../../core/schema/index.js';
import type { Account } from '../../core/store/accounts.js';
import { entitled } from '../../core/store/accounts.js';
import type { Services } from '../context.js';
import { compactSchema, objectSchema, shortDescription } from './compact.js';
import { toolDescription } from './describe.js';
import { crawlListedSchema, crawlTools, isCrawlTool, type CrawlToolKind } from './crawl-tools.js';

export interface ToolDef {
  name: string;
  description: string;
  /** Entitlement checked before the call: a route id, or `search`. */
  entitlement: string;
  kind: 'scrape' | 'extract' | 'search' | CrawlToolKind;
  /** The validator of the call's (mapped) arguments. */
  endpoint: Endpoint;
  /** The dedicated route, when the tool is one. */
  route?: RouteSpec;
  /** Arguments filled in when the call leaves them out (the tool's own defaults). */
  defaults: Readonly<Record<string, unknown>>;
}

/** The `extract` tool's own names for the members of `json`. */
export const EXTRACT_FIELDS = ['prompt', 'schema'] as const;

const STORAGE_OF_ENTRY: Readonly<Record<string, readonly string[]>> = { s3: ['s3', 's3_gzip'], s3_compatible: ['s3_compatible'], gcs: ['gcs'], tos: ['tos'] };

function routeDefaults(route: RouteSpec): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (route.outputKind !== 'media' && route.parser === 'builtin') out.output = ['json'];
  else if (route.requiresJson) out.output = ['json'];
  if (route.requiresRunJs) out.run_js = true;
  return out;
}

function routeTool(route: RouteSpec): ToolDef {
  const mode = route.modes.includes('sync') ? 'sync' : 'async';
  return {
    name: route.source,
    description: toolDescription(route, mode === 'async'),
    entitlement: route.id,
    kind: 'scrape',
    endpoint: { kind: 'scrape', routeId: route.id, mode },
    route,
    defaults: routeDefaults(route),
  };
}

const UNIVERSAL: Endpoint = { kind: 'scrape', routeId: 'universal', mode: 'sync' };

const FIXED: readonly ToolDef[] = [
  {
    name: 'scrape',
    description: 'Fetch any web page by URL and return it as Markdown (default), HTML, parsed JSON or a screenshot (run_js: true).',
    entitlement: 'universal',
    kind: 'scrape',
    endpoint: UNIVERSAL,
    defaults: { output: ['markdown'] },
  },
  {
    name: 'extract',
    description: 'Fetch a web page and extract JSON shaped by a JSON Schema (schema) or, with a language model configured, by an instruction (prompt); give exactly one.',
    entitlement: 'universal',
    kind: 'extract',
    endpoint: UNIVERSAL,
    defaults: {},
  },
  {
    name: 'search',
    description: 'Web search on the configured engines: ranked organic results (title, url, outline), merged and de-duplicated, with related questions and searches.',
    entitlement: 'search',
    kind: 'search',
    endpoint: { kind: 'search' },
    defaults: {},
  },
];

let cached: { list: ToolDef[]; byName: Map<string, ToolDef> } | undefined;

function build(): { list: ToolDef[]; byName: Map<string, ToolDef> } {
  if (cached) return cached;
  const list = [...FIXED, ...crawlTools(), ...ROUTES.filter((r) => r.id !== 'universal').map(routeTool)];
  const byName = new Map<string, ToolDef>();
  for (const tool of list) {
    if (byName.has(tool.name)) throw new Error(`mcp: duplicate tool ${tool.name}`);
    byName.set(tool.name, tool);
  }
  return (cached = { list, byName });
}

/** Every tool the registry defines (whether or not this node serves it). */
export function allTools(): readonly ToolDef[] {
  return build().list;
}

export function toolByName(name: string): ToolDef | undefined {
  return build().byName.get(name);
}

/**
 * Parameters that several routes share with the same meaning (`store_id`, `delivery_zip`,
 * `currency`, ...): described once, in the server's instructions, instead of in every tool
 * that takes them.
 */
const SHARED_MIN = 3;
let glossary: Map<string, string> | undefined;

export function sharedParameters(): ReadonlyMap<string, string> {
  if (glossary) return glossary;
  const seen = new Map<string, Map<string, number>>();
  for (const route of ROUTES) {
    if (route.id === 'universal') continue;
    for (const [name, spec] of Object.entries(route.params)) {
      if (name === route.input || spec.verbatim) continue;
      const byText = seen.get(name) ?? new Map<string, number>();
      byText.set(spec.description, (byText.get(spec.description) ?? 0) + 1);
      seen.set(name, byText);
    }
  }
  glossary = new Map();
  for (const [name, byText] of seen) {
    // Only a name with one meaning everywhere it is shared.
    if (byText.size !== 1) continue;
    const [[text, count]] = [...byText] as [[string, number]];
    if (count >= SHARED_MIN) glossary.set(name, shortDescription(text, 100));
  }
  return glossary;
}

/** Bucket types this node holds credentials for (GLEANER_STORAGE). */
function storageTypes(svc: Services): string[] {
  return Object.keys(svc.config.storage ?? {}).flatMap((entry) => STORAGE_OF_ENTRY[entry] ?? []);
}

/** Whether this node can run the tool at all (targets, engines, ffmpeg and buckets configured). */
export function canServe(tool: ToolDef, svc: Services): boolean {
  const targets = svc.config.targets;
  if (tool.kind === 'search') return SEARCH_ENGINES.some((t) => Object.hasOwn(targets, t));
  const route = tool.route;
  if (!route) return true;
  if (!Object.hasOwn(targets, route.target)) return false;
  if (route.outputKind === 'media') return svc.ffmpeg?.ok === true && storageTypes(svc).length > 0;
  return true;
}

const SEARCH_ENGINES = ['se1', 'se2'] as const;

/** The tools this node serves this account, in registry order. */
export function servedTools(svc: Services, account: Account): ToolDef[] {
  return allTools().filter((t) => entitled(account.entitlements, t.entitlement) && canServe(t, svc));
}

/**
 * `location` where it can change the answer: search engines geo-target through their own URL,
 * mkt1 takes a delivery postal code, and elsewhere a country needs a proxy pool of that country
 * (GLEANER_PROXIES) — without one the parameter could only be refused.
 */
function locationSchema(route: RouteSpec | undefined, svc: Services): JsonSchema | undefined {
  if (route?.location === 'postal') return { type: 'string', description: 'delivery postal code' };
  const pools = Object.keys(svc.config.proxies ?? {}).filter((k) => k !== 'default');
  if (route && route.geo === 'proxy' && pools.length === 0) return undefined;
  return { type: 'string', description: 'country code (ISO 3166-1)' };
}

function withLocation(props: Record<string, JsonSchema>, route: RouteSpec | undefined, svc: Services): Record<string, JsonSchema> {
  const location = locationSchema(route, svc);
  if (location) props.location = location;
  return props;
}

/**
 * The listed input schema of a tool on this node: the route's own parameters, compact, and of
 * the shared ones those that change the answer for an agent. Dedicated tools with a parser
 * answer JSON and list no `output` (the route still accepts one).
 */
export function listedSchema(tool: ToolDef, svc: Services): JsonSchema {
  if (isCrawlTool(tool)) return crawlListedSchema(tool);
  const full = jsonSchemaFor(tool.endpoint);
  const props = full.properties as Record<string, JsonSchema>;
  if (tool.kind === 'search') {
    const query = SEARCH.params.query!;
    const out = withLocation({ query: { type: 'string', description: query.description.replace(/\.$/, '') } }, undefined, svc);
    out.max_results = compactSchema(props.max_results!, false);
    return objectSchema(out, SEARCH.required);
  }
  if (tool.kind === 'extract') {
    const out: Record<string, JsonSchema> = { url: { type: 'string' } };
    out.schema = { type: 'object', description: 'JSON Schema of the answer; fields the page lacks stay unfilled' };
    if (svc.config.llm?.url) out.prompt = { type: 'string', description: 'what to extract, in words' };
    out.run_js = { type: 'boolean', description: 'run page scripts first' };
    return objectSchema(withLocation(out, undefined, svc), ['url']);
  }
  if (!tool.route) {
    // `scrape`: the generic route.
    const out: Record<string, JsonSchema> = {
      url: { type: 'string' },
      output: { type: 'array', items: { type: 'string', enum: ['markdown', 'html', 'json', 'screenshot'] }, default: ['markdown'] },
      json: { type: 'object', description: '{"schema": JSON Schema} or {"prompt": text}, with output json' },
      device: { type: 'string', enum: ['desktop', 'mobile'] },
      run_js: { type: 'boolean', description: 'run page scripts first; needed for screenshot' },
    };
    return objectSchema(withLocation(out, undefined, svc), ['url']);
  }
  const route = tool.route;
  const out: Record<string, JsonSchema> = {};
  for (const [name, spec] of Object.entries(route.params)) {
    // Forwarded-as-sent engine parameters and paging are named well enough by their keys.
    const obvious = spec.verbatim === true || sharedParameters().has(name) || name === 'pages' || name === 'start_page' || name === 'domain' || name === 'locale';
    out[name] = compactSchema(props[name]!, !obvious, name);
  }
  if (route.outputKind === 'media') {
    out.output = { type: 'string', enum: ['video', 'audio'], default: 'video' };
    out.storage = objectSchema({ type: { type: 'string', enum: storageTypes(svc) }, url: { type: 'string', description: 'e.g. s3://bucket/prefix' } }, ['type', 'url'], 'bucket the file is uploaded to');
  } else if (route.requiresJson) {
    out.json = { type: 'object', description: '{"schema": JSON Schema} or {"prompt": text}' };
  } else if (route.parser !== 'builtin') {
    out.output = { type: 'array', items: { type: 'string', enum: ['html', 'markdown', 'json'] }, default: ['html'] };
  }
  const required = [...route.required, ...(route.requiresJson ? ['json'] : []), ...(route.outputKind === 'media' ? ['storage'] : [])];
  return objectSchema(withLocation(out, route, svc), required);
}
