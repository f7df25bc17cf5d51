/**
 * How a registry data file states a route: the facts that vary (path, target, params, modes)
 * are written out; the facts that follow from them (id, source, product, input, required) are
 * derived here, once, so that every family file reads the same way.
 */
import type { Family, LocationKind, Mode, ParamSpec, Product, RouteSpec } from './types.js';

export const ALL_MODES: readonly Mode[] = ['sync', 'async', 'batch'];
export const SYNC_ASYNC: readonly Mode[] = ['sync', 'async'];
export const ASYNC_BATCH: readonly Mode[] = ['async', 'batch'];

export interface RouteDraft {
  /** Path below `/v1/scrape/`; empty for the generic route. */
  path: string;
  target: string;
  family: Family;
  modes: readonly Mode[];
  /** Route-specific params; must contain `url` or `query` (the input). */
  params: Record<string, ParamSpec>;
  summary: string;
  /**
   * The spec gives the route no built-in parser and requires `json` (with `output` containing
   * `json`) on it: se1/maps, media/video/subtitles.
   */
  requiresJson?: boolean;
  /** Defaults to `country`. */
  location?: LocationKind;
  requiresRunJs?: boolean;
  outputKind?: 'document' | 'media' | 'answer';
  /** Extra required params besides the input. */
  alsoRequired?: readonly string[];
}

/** Billing product of a family (spec 4.6 `product`). */
export function productOf(family: Family): Product {
  if (family === 'search_engine') return 'serp_scraper_api';
  if (family === 'commerce') return 'ecommerce_scraper_api';
  return 'web_scraper_api';
}

/** Job API source name: `universal` for the generic route, else the path with `/` → `_`. */
export function sourceOf(path: string): string {
  return path === '' ? 'universal' : path.replaceAll('/', '_');
}

export function defineRoute(d: RouteDraft): RouteSpec {
  const input = 'url' in d.params ? 'url' : 'query';
  if (!(input in d.params)) throw new Error(`registry: route ${d.path} has neither url nor query`);
  const route: RouteSpec = {
    id: d.path === '' ? 'universal' : d.path,
    path: d.path,
    target: d.target,
    family: d.family,
    product: productOf(d.family),
    modes: d.modes,
    input,
    params: d.params,
    required: [input, ...(d.alsoRequired ?? [])],
    // Derived when the adapters are assembled (core/targets/index.ts): a route has a built-in
    // parser exactly when its adapter's parser table has one.
    parser: 'none',
    location: d.location ?? 'country',
    // Search engines geo-target through their own URL parameters (core/targets/se1.ts, se2.ts).
    geo: d.family === 'search_engine' ? 'url' : 'proxy',
    source: sourceOf(d.path),
    summary: d.summary,
    ...(d.requiresRunJs ? { requiresRunJs: true } : {}),
    ...(d.requiresJson ? { requiresJson: true } : {}),
    ...(d.outputKind ? { outputKind: d.outputKind } : {}),
  };
  return Object.freeze(route);
}

/** A copy of a param with a different description (same bounds). */
export function describe(p: ParamSpec, description: string): ParamSpec {
  return { ...p, description };
}

/** Picks named params from a dictionary, in the order given; unknown names are a programming error. */
export function pick(dict: Readonly<Record<string, ParamSpec>>, names: readonly string[]): Record<string, ParamSpec> {
  const out: Record<string, ParamSpec> = {};
  for (const name of names) {
    const p = dict[name];
    if (!p) throw new Error(`registry: unknown parameter ${name}`);
    out[name] = p;
  }
  return out;
}
