/**
 * The target adapters, one line each, and the tables assembled from them: the routes (with
 * whether each has a built-in parser derived from its adapter's parser table), planning,
 * parsing, output schemas, the families' validation rules and the start-up check of
 * GLEANER_TARGETS. Upstream hosts come only from GLEANER_TARGETS; code holds no third-party
 * host names. Adding a family: one folder with an adapter, one line in ADAPTERS
 * (core/targets/README.md).
 */
import type { TargetConfig } from '../config.js';
import type { PageInput, PageParser, Parsed } from '../parsers/types.js';
import type { RouteSpec } from '../registry/types.js';
import type { CrossFieldRule, Params, TargetAdapter, Targets } from './adapter.js';
import { assistants } from './assistants/index.js';
import { commerce } from './commerce/index.js';
import type { Flow } from './flow.js';
import { mkt1 } from './mkt1/index.js';
import { parsedPage } from './parsed-page.js';
import { se1 } from './se1/index.js';
import { se2 } from './se2/index.js';
import { universal } from './universal/index.js';
import { video } from './video/index.js';

export const ADAPTERS: readonly TargetAdapter[] = [universal, se1, se2, video, assistants, mkt1, commerce];

const adapterOf = new Map<string, TargetAdapter>();
const parserOf = new Map<string, PageParser>();

/** Every route, in adapter order, with `parser` derived: a route has one exactly when its adapter does. */
export const TARGET_ROUTES: readonly RouteSpec[] = Object.freeze(
  ADAPTERS.flatMap((adapter) =>
    adapter.routes.map((route) => {
      if (adapterOf.has(route.id)) throw new Error(`targets: route ${route.id} is defined twice`);
      adapterOf.set(route.id, adapter);
      const parser = Object.hasOwn(adapter.parsers, route.id) ? adapter.parsers[route.id] : undefined;
      if (parser) parserOf.set(route.id, parser);
      return Object.freeze({ ...route, parser: parser ? 'builtin' : 'none' } satisfies RouteSpec);
    }),
  ),
);

for (const adapter of ADAPTERS) {
  for (const id of Object.keys(adapter.parsers)) {
    if (adapterOf.get(id) !== adapter) throw new Error(`targets: ${adapter.name} has a parser for ${id}, which is not one of its routes`);
  }
}

/** The upstream fetches of a validated request: one flow per page. */
export function planFlows(route: RouteSpec, params: Params, targets: Targets): Flow[] {
  const adapter = adapterOf.get(route.id);
  if (!adapter) throw new Error(`targets: no adapter for route ${route.id}`);
  const flows = adapter.plan(route, params, targets);
  // The family's escalation data rides on its flows that have a check to call a wall (and no
  // browser script of their own: those are rendered already).
  if (!adapter.escalation?.browser) return flows;
  return flows.map((f) => (f.check && !f.steps.some((s) => s.kind === 'browser') ? { ...f, escalate: 'browser' as const } : f));
}

export function hasBuiltinParser(routeId: string): boolean {
  return parserOf.has(routeId);
}

/** The route's built-in parser on one page, or undefined when the route has none. */
export function parsePage(routeId: string, input: PageInput): Parsed | undefined {
  return parserOf.get(routeId)?.(input);
}

/** Routes that require `json` yet have a built-in parser: extraction reads the parser's answer (parsed-page.ts). */
const EXTRACT_FROM_PARSED = new Set(TARGET_ROUTES.filter((r) => r.requiresJson === true && r.parser === 'builtin').map((r) => r.id));

/**
 * The page custom extraction reads instead of the upstream one, on routes that require `json`
 * yet have a built-in parser (`media/video/subtitles`): the parser's answer as a page. Undefined
 * elsewhere, or when the parser recognised nothing (extraction then reads the upstream page).
 */
export function extractionPage(routeId: string, input: PageInput): string | undefined {
  if (!EXTRACT_FROM_PARSED.has(routeId)) return undefined;
  const parsed = parsePage(routeId, input);
  return parsed && parsed.json !== null ? parsedPage(parsed.json, 'CreativeWork', routeId) : undefined;
}

/** JSON Schemas of `results[].json` by route id, for the routes that have a parser. */
export const OUTPUT_SCHEMAS: Readonly<Record<string, Record<string, unknown>>> = Object.fromEntries(
  ADAPTERS.flatMap((a) => Object.entries(a.outputSchemas ?? {}).filter(([id]) => parserOf.has(id) && adapterOf.get(id) === a)),
);

/** The families' own cross-field rules, in adapter order. */
export const FAMILY_RULES: readonly CrossFieldRule[] = ADAPTERS.flatMap((a) => a.rules ?? []);

/**
 * Problems of a GLEANER_TARGETS file, each naming the file and the token, for the start-up
 * check; and the tokens no family reads (not an error: an operator may keep spares, but a typo
 * should be visible).
 */
export function checkTargets(targets: Readonly<Record<string, TargetConfig>>, file: string): { errors: string[]; unknown: string[] } {
  const owner = new Map<string, TargetAdapter>();
  for (const route of TARGET_ROUTES) owner.set(route.target, adapterOf.get(route.id) as TargetAdapter);
  for (const adapter of ADAPTERS) for (const host of adapter.hosts ?? []) owner.set(host, adapter);
  const errors: string[] = [];
  const unknown: string[] = [];
  for (const [token, cfg] of Object.entries(targets)) {
    const adapter = owner.get(token);
    if (!adapter) {
      unknown.push(token);
      continue;
    }
    if (typeof cfg !== 'object' || cfg === null || typeof cfg.baseUrl !== 'string' || cfg.baseUrl === '') {
      errors.push(`${file}: target "${token}" needs a "baseUrl" string`);
      continue;
    }
    for (const problem of adapter.checkTarget?.(token, cfg) ?? []) errors.push(`${file}: target "${token}": ${problem}`);
  }
  return { errors, unknown };
}

export type { Flow, FetchStep, MediaChoice, MediaSource, MediaStep, Step, Vars, Verdict } from './flow.js';
export type { TargetAdapter } from './adapter.js';
export { pathAfterTarget } from './default.js';
export { checkAssistants } from './assistants/index.js';
