/**
 * Registry facts: paths per mode, lookups, modes per family, every commerce token with the
 * routes and parameters of its family row (spec 4.3, written out here independently of the
 * registry's family templates), discovery lists.
 */
import { describe, expect, test } from 'vitest';
import {
  groupedByJsonSupport,
  matchScrapePath,
  MODES,
  pathFor,
  ROUTES,
  routeById,
  routeBySource,
  scrapePaths,
  SEARCH,
} from '../../core/registry/index.js';
import type { ParamSpec, RouteSpec } from '../../core/registry/types.js';
import { hasBuiltinParser, OUTPUT_SCHEMAS } from '../../core/targets/index.js';

const route = (id: string): RouteSpec => {
  const r = routeById(id);
  if (!r) throw new Error(`no route ${id}`);
  return r;
};

const ids = (pred: (r: RouteSpec) => boolean): string[] => ROUTES.filter(pred).map((r) => r.id);

describe('paths', () => {
  test('generic route: /v1/scrape, /v1/async/scrape, /v1/async/scrape/batch', () => {
    const u = route('universal');
    expect([pathFor(u, 'sync'), pathFor(u, 'async'), pathFor(u, 'batch')]).toEqual(['/v1/scrape', '/v1/async/scrape', '/v1/async/scrape/batch']);
    expect(u.path).toBe('');
    expect(u.source).toBe('universal');
  });

  test('dedicated route paths per mode', () => {
    const r = route('se1/shopping/search');
    expect([pathFor(r, 'sync'), pathFor(r, 'async'), pathFor(r, 'batch')]).toEqual([
      '/v1/scrape/se1/shopping/search',
      '/v1/async/scrape/se1/shopping/search',
      '/v1/async/scrape/batch/se1/shopping/search',
    ]);
  });

  test('assistants and video download have no sync path; sync+async routes have no batch path', () => {
    for (const id of ['llm1', 'llm2', 'llm3', 'media/video/download']) {
      expect(pathFor(route(id), 'sync')).toBeUndefined();
      expect(route(id).modes).toEqual(['async', 'batch']);
    }
    expect(pathFor(route('llm1'), 'async')).toBe('/v1/async/scrape/llm1');
    expect(pathFor(route('mkt2/search'), 'batch')).toBeUndefined();
    expect(pathFor(route('media/video/search/max'), 'batch')).toBeUndefined();
  });

  test('matchScrapePath finds route and mode; non-scrape paths miss', () => {
    const hit = (p: string) => {
      const m = matchScrapePath(p);
      return m && [m.route.id, m.mode];
    };
    expect(hit('/v1/scrape')).toEqual(['universal', 'sync']);
    expect(hit('/v1/async/scrape')).toEqual(['universal', 'async']);
    expect(hit('/v1/async/scrape/batch')).toEqual(['universal', 'batch']);
    expect(hit('/v1/scrape/se1')).toEqual(['se1', 'sync']);
    expect(hit('/v1/async/scrape/batch/mkt1/product')).toEqual(['mkt1/product', 'batch']);
    expect(hit('/v1/async/scrape/media/video/video/trainability')).toEqual(['media/video/video/trainability', 'async']);
    expect(hit('/v1/scrape/social1/shop/search/')).toEqual(['social1/shop/search', 'sync']);
    expect(hit('/v1/scrape/batch')).toBeUndefined();
    expect(hit('/v1/scrape/llm1')).toBeUndefined();
    expect(hit('/v1/scrape/media/video/download')).toBeUndefined();
    expect(hit('/v1/async/scrape/1712345678901000001')).toBeUndefined();
    expect(hit('/v1/search')).toBeUndefined();
    expect(hit('/v1/scrape/nope')).toBeUndefined();
  });

  test('scrapePaths: sorted, unique, one per (route, mode), each matching back', () => {
    const paths = scrapePaths();
    expect(paths).toEqual([...paths].sort());
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths.length).toBe(ROUTES.reduce((n, r) => n + r.modes.length, 0));
    expect(paths.length).toBe(167);
    for (const p of paths) expect(pathFor(matchScrapePath(p)!.route, matchScrapePath(p)!.mode)).toBe(p);
    expect(paths.slice(0, 3)).toEqual(['/v1/async/scrape', '/v1/async/scrape/batch', '/v1/async/scrape/batch/llm1']);
  });
});

describe('routes', () => {
  test('counts per family', () => {
    const counts: Record<string, number> = {};
    for (const r of ROUTES) counts[r.family] = (counts[r.family] ?? 0) + 1;
    expect(counts).toEqual({ universal: 1, search_engine: 12, video: 8, assistant: 3, commerce: 49 });
  });

  test('search engine and video routes', () => {
    expect(ids((r) => r.family === 'search_engine')).toEqual([
      'se1/search', 'se1/ads', 'se1/aimode', 'se1/shopping/search', 'se1/shopping/product', 'se1/maps',
      'se1/travel/hotels', 'se1/lens', 'se1/trends/explore', 'se1', 'se2/search', 'se2',
    ]);
    expect(ids((r) => r.family === 'video')).toEqual([
      'media/video/metadata', 'media/video/subtitles', 'media/video/download', 'media/video/channel',
      'media/video/search', 'media/video/search/max', 'media/video/autocomplete', 'media/video/video/trainability',
    ]);
    expect(ROUTES.filter((r) => r.family === 'video').map((r) => r.modes.join('+'))).toEqual([
      'sync+async+batch', 'sync+async+batch', 'async+batch', 'sync+async', 'sync+async', 'sync+async', 'sync+async', 'sync+async',
    ]);
    expect(Object.keys(route('se2').params)).toEqual(['url', 'locale']);
    expect(Object.keys(route('se1').params)).toEqual(['url']);
  });

  test('sources and products', () => {
    expect(routeBySource('se1_search')?.id).toBe('se1/search');
    expect(routeBySource('mkt1_product')?.id).toBe('mkt1/product');
    expect(routeBySource('media_video_metadata')?.id).toBe('media/video/metadata');
    expect(routeBySource('social1_shop_product')?.id).toBe('social1/shop/product');
    expect(routeBySource('universal')?.id).toBe('universal');
    expect(routeBySource('nope')).toBeUndefined();
    const products = Object.fromEntries(['universal', 'se1/search', 'se2', 'media/video/metadata', 'llm3', 'mkt1', 'pet1/search'].map((id) => [id, route(id).product]));
    expect(products).toEqual({
      universal: 'web_scraper_api',
      'se1/search': 'serp_scraper_api',
      se2: 'serp_scraper_api',
      'media/video/metadata': 'web_scraper_api',
      llm3: 'web_scraper_api',
      mkt1: 'ecommerce_scraper_api',
      'pet1/search': 'ecommerce_scraper_api',
    });
  });

  test('special facts: parsers, run_js, verbatim, postal location, media output', () => {
    // Every route has a built-in parser except these (families whose parsers are not built yet, and
    // the spec's parser-less routes).
    expect(ids((r) => r.parser === 'none')).toEqual([
      'universal', 'se1/maps', 'media/video/download',
    ]);
    expect(ids((r) => r.requiresJson === true)).toEqual(['se1/maps', 'media/video/subtitles']);
    expect(ids((r) => r.requiresRunJs === true)).toEqual(['se1/aimode']);
    expect(ids((r) => r.outputKind === 'media')).toEqual(['media/video/download']);
    expect(ids((r) => r.location === 'postal')).toEqual(['mkt1', 'mkt1/bestsellers', 'mkt1/pricing', 'mkt1/product', 'mkt1/search', 'mkt1/sellers']);
    const verbatim = Object.entries(route('se1/search').params).filter(([, p]) => p.verbatim).map(([n]) => n);
    expect(verbatim.sort()).toEqual(['aomd', 'cr', 'filter', 'fpstate', 'nfpr', 'tbm', 'tbs', 'udm']);
    expect(route('se1/shopping/search').params.sort_by).toEqual({
      type: 'string',
      description: 'Order: r relevance, rv rating high to low, p price low to high, pd price high to low.',
      enum: ['r', 'rv', 'p', 'pd'],
      default: 'r',
    });
  });

  test('mkt1 routes: all modes, spec parameters', () => {
    const mkt1 = ROUTES.filter((r) => r.target === 'mkt1');
    expect(Object.fromEntries(mkt1.map((r) => [r.id, [r.modes.join('+'), ...Object.keys(r.params)]]))).toEqual({
      mkt1: ['sync+async+batch', 'url', 'autoselect_variant', 'category_id', 'check_empty_geo', 'condition', 'currency', 'locale', 'max_price', 'merchant_id', 'min_price', 'pages', 'refinement', 'safe_search', 'sort_by', 'start_page'],
      'mkt1/bestsellers': ['sync+async+batch', 'query', 'category_id', 'check_empty_geo', 'currency', 'domain', 'locale', 'pages', 'safe_search', 'start_page'],
      'mkt1/pricing': ['sync+async+batch', 'query', 'check_empty_geo', 'condition', 'currency', 'domain', 'locale', 'pages', 'safe_search', 'start_page'],
      'mkt1/product': ['sync+async+batch', 'query', 'autoselect_variant', 'check_empty_geo', 'currency', 'domain', 'locale', 'safe_search'],
      'mkt1/search': ['sync+async+batch', 'query', 'category_id', 'check_empty_geo', 'currency', 'domain', 'locale', 'max_price', 'merchant_id', 'min_price', 'pages', 'refinement', 'safe_search', 'sort_by', 'start_page'],
      'mkt1/sellers': ['sync+async+batch', 'query', 'check_empty_geo', 'currency', 'domain', 'locale', 'safe_search'],
    });
  });

  test('every commerce token has exactly its family routes and parameters (sync+async)', () => {
    const commerce = ROUTES.filter((r) => r.family === 'commerce' && r.target !== 'mkt1');
    for (const r of commerce) expect(r.modes).toEqual(['sync', 'async']);
    expect(Object.fromEntries(commerce.map((r) => [r.id, Object.keys(r.params)]))).toEqual({
      mkt2: ['url'],
      'mkt2/product': ['query', 'domain'],
      'mkt2/search': ['query', 'domain', 'start_page'],
      mkt3: ['url'],
      'mkt3/product': ['query', 'domain', 'subdomain'],
      'mkt3/search': ['query', 'domain', 'start_page'],
      grocery1: ['url', 'delivery_zip', 'fulfillment_type', 'store_id'],
      'grocery1/product': ['query', 'delivery_zip', 'fulfillment_type', 'store_id'],
      'grocery1/search': ['query', 'brand', 'delivery_zip', 'fulfillment_type', 'price_range', 'store_id'],
      electronics1: ['url', 'delivery_zip', 'store_id'],
      'electronics1/product': ['query', 'delivery_zip', 'domain', 'store_id'],
      'electronics1/search': ['query', 'delivery_zip', 'domain', 'fulfillment_type', 'start_page', 'store_id'],
      mxgrocery1: ['url', 'delivery_zip', 'store_id'],
      'mxgrocery1/product': ['query', 'delivery_zip', 'domain', 'fulfillment_type', 'store_id', 'subdomain'],
      'mxgrocery1/search': ['query', 'delivery_zip', 'domain', 'fulfillment_type', 'store_id', 'subdomain'],
      bigbox1: ['url', 'fulfillment_type', 'store_id'],
      'bigbox1/product': ['query', 'domain', 'fulfillment_type', 'store_id'],
      'bigbox1/search': ['query', 'domain', 'fulfillment_speed', 'fulfillment_type', 'max_price', 'min_price', 'sort_by', 'start_page', 'store_id'],
      homeimprovement1: ['url'],
      'homeimprovement1/product': ['query', 'domain', 'store_id'],
      'homeimprovement1/search': ['query', 'delivery_eligible', 'domain', 'fulfillment_center', 'in_stock_today', 'pickup_at_store_eligible', 'start_page', 'store_id'],
      'mkt4/product': ['query'],
      'mkt4/search': ['query', 'delivery_time', 'domain', 'shipping_from', 'start_page', 'store_city', 'store_region'],
      pet1: ['url', 'store_id'],
      'pet1/search': ['query', 'domain', 'fulfillment_type', 'start_page', 'store_id'],
      supermarket1: ['url', 'store_id'],
      'supermarket1/product': ['query', 'store_id'],
      'supermarket1/search': ['query', 'store_id'],
      'supermarket2/product': ['query', 'zip_code'],
      'supermarket2/search': ['query', 'zip_code'],
      'supermarket2/category': ['query', 'zip_code', 'zip_code_url'],
      department1: ['url', 'delivery_zip', 'fulfillment_type', 'store_id'],
      'department1/product': ['query', 'delivery_zip', 'fulfillment_type', 'store_id'],
      'department1/search': ['query', 'delivery_zip', 'fulfillment_type', 'store_id'],
      'department1/category': ['query', 'delivery_zip', 'fulfillment_type', 'store_id'],
      'fashion1/search': ['query', 'domain', 'start_page', 'subdomain'],
      social1: ['url'],
      'social1/shop/product': ['query', 'country', 'uuid'],
      'social1/shop/search': ['query', 'country'],
      'forum1/search': ['query', 'domain'],
      latam1: ['url'],
      'latam1/product': ['query', 'domain'],
      'latam1/search': ['query', 'domain'],
    });
  });

  test('input and required: url on page routes, query elsewhere', () => {
    for (const r of ROUTES) {
      expect(r.required).toEqual([r.input]);
      // Input first; JavaScript orders integer-like keys (video search's `360`) before all others.
      expect(Object.keys(r.params).filter((k) => !/^[0-9]+$/.test(k))[0]).toBe(r.input);
    }
    expect(ids((r) => r.input === 'url')).toEqual([
      'universal', 'se1', 'se2', 'mkt1', 'mkt2', 'mkt3', 'grocery1', 'electronics1', 'mxgrocery1', 'bigbox1',
      'homeimprovement1', 'pet1', 'supermarket1', 'department1', 'social1', 'latam1',
    ]);
  });

  test('every parameter has a one-line description', () => {
    const check = (where: string, p: ParamSpec): void => {
      expect(p.description.length > 3 && !p.description.includes('\n'), where).toBe(true);
      if (p.items) check(`${where}[]`, p.items);
      for (const [k, v] of Object.entries(p.properties ?? {})) check(`${where}.${k}`, v);
    };
    for (const r of ROUTES) for (const [name, p] of Object.entries(r.params)) check(`${r.id}.${name}`, p);
    for (const [name, p] of Object.entries(SEARCH.params)) check(`search.${name}`, p);
  });

  test('search spec', () => {
    expect(SEARCH.required).toEqual(['query']);
    expect(SEARCH.params.query).toMatchObject({ type: 'string', minLength: 1, maxLength: 2048 });
    expect(SEARCH.params.max_results).toMatchObject({ type: 'integer', minimum: 1, maximum: 20, default: 10 });
    expect(SEARCH.params.location).toMatchObject({ type: 'string', format: 'country' });
  });
});

describe('groupedByJsonSupport', () => {
  test('groups every path once; only routes with a built-in parser are listed as supporting json', () => {
    const g = groupedByJsonSupport();
    expect(g.json_not_supported).toEqual(['/v1/async/scrape/batch/media/video/download', '/v1/async/scrape/media/video/download']);
    const supported = ROUTES.filter((r) => r.parser === 'builtin').flatMap((r) => MODES.map((m) => pathFor(r, m)).filter((p): p is string => !!p));
    expect(g.json_supported).toEqual(supported.sort());
    expect([...g.json_supported, ...g.json_not_supported, ...g.json_supported_only_with_prompt_or_schema].sort()).toEqual(scrapePaths());
    expect(g.json_supported).toContain('/v1/scrape/se1/search');
    expect(g.json_supported_only_with_prompt_or_schema).toContain('/v1/scrape/se1/maps');
  });

  test('a route claims a built-in parser exactly when its adapter has one, with an output schema', () => {
    for (const r of ROUTES) {
      expect([r.id, r.parser === 'builtin']).toEqual([r.id, hasBuiltinParser(r.id)]);
      if (r.parser === 'builtin') expect([r.id, typeof OUTPUT_SCHEMAS[r.id]]).toEqual([r.id, 'object']);
    }
    for (const id of Object.keys(OUTPUT_SCHEMAS)) expect([id, routeById(id)?.parser]).toEqual([id, 'builtin']);
  });
});
