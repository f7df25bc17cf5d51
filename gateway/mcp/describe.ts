/**
 * What each MCP tool says about itself. Target tokens (`se1`, `mkt1`, `grocery1`) are neutral
 * names an agent cannot read a site from, so every dedicated tool's description starts with
 * the kind of site the token stands for on this node — "mkt1 — the configured general
 * marketplace (ASIN-style product ids): product page" — then what the route returns and what
 * its input is. Commerce kinds come from the registry's families; the few fixed tokens of the
 * spec are named here.
 */
import { COMMERCE_TARGETS, type RouteSpec } from '../../core/registry/index.js';

/** The spec's fixed tokens (DESIGN.md part 2). */
const FIXED_KINDS: Readonly<Record<string, string>> = {
  se1: 'the configured main web search engine',
  se2: 'the configured second web search engine',
  video: 'the configured video platform',
  llm1: 'the configured AI chat assistant with a web-search switch',
  llm2: 'the configured second AI chat assistant',
  llm3: 'the configured AI answer engine that cites its sources',
  mkt1: 'the configured general marketplace (ASIN-style product ids)',
};

/** The kind of site a target token stands for, or undefined for the generic route. */
export function siteKind(target: string): string | undefined {
  const commerce = COMMERCE_TARGETS[target];
  if (commerce) return `the configured ${commerce.name}`;
  return FIXED_KINDS[target];
}

/** The route's summary without its token and the family name the kind already gives. */
function what(route: RouteSpec): string {
  let s = route.summary.replace(/\.$/, '');
  s = s.replace(new RegExp(`^(Any )?${route.target} `), (_, any: string | undefined) => (any ? 'Any ' : ''));
  s = s.replace(/ \([^)]*\)$/, '');
  return s.charAt(0).toLowerCase() + s.slice(1);
}

/** `<token> — <kind of site>: <what the route returns>.` (the input is described in the schema). */
export function toolDescription(route: RouteSpec, waits: boolean): string {
  const kind = siteKind(route.target);
  const head = kind ? `${route.target} — ${kind}: ${what(route)}.` : route.summary;
  return `${head}${waits ? ' Runs as a job the call waits for.' : ''}`;
}
