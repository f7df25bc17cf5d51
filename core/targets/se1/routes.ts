/**
 * Search engine `se1` (spec 4.3). Billed as serp_scraper_api; every route has all
 * three modes. Parameters marked `verbatim` are forwarded to the upstream exactly as sent.
 */
import { ALL_MODES, defineRoute, describe, pick, type RouteDraft } from '../../registry/define.js';
import { bool, COMMON, int, PAGES_MAX, query, START_PAGE_MAX, str, strEnum, url, verbatim } from '../../registry/params.js';
import type { ParamSpec, RouteSpec } from '../../registry/types.js';

const SE1_PARAMS: Readonly<Record<string, ParamSpec>> = {
  ...COMMON,
  query: query('Search terms.'),
  aomd: verbatim('Forwarded to the engine as sent.'),
  cr: verbatim('Country restriction of results, forwarded as sent.'),
  disable_scripts: bool('Fetch the result page with scripts disabled in the upstream page.'),
  expand_aio: bool('Expand the AI overview block before capture.'),
  filter: { type: 'integer', description: '0 turns off the duplicate-content filter; forwarded as sent.', enum: [0, 1], verbatim: true },
  fpstate: verbatim('Forwarded to the engine as sent.'),
  limit_per_page: {
    type: 'array',
    description: 'Results per page for individual pages: a list of {page, limit}.',
    minItems: 1,
    maxItems: PAGES_MAX,
    items: {
      type: 'object',
      description: 'Result limit for one page.',
      properties: {
        page: int('Page number (1-based).', 1, START_PAGE_MAX),
        limit: int('Results wanted on that page.', 1, 100),
      },
      required: ['page', 'limit'],
    },
  },
  nfpr: verbatim('Suppresses spelling auto-correction; forwarded as sent.'),
  results_language: str('Restricts results to a language (does not translate).', 32),
  tbm: verbatim('Result vertical, forwarded as sent.'),
  tbs: verbatim('Time and tool filters, forwarded as sent.'),
  udm: verbatim('Result mode, forwarded as sent.'),
  adstest: bool('Query the test ad network.'),
  limit: int('Products per page.', 1, 100),
  // Integers on se1 shopping (spec 4.3), unlike the commerce prices of COMMON.
  max_price: int('Highest price (storefront currency).', 0, 1_000_000_000),
  min_price: int('Lowest price (storefront currency).', 0, 1_000_000_000),
  sort_by: strEnum('Order: r relevance, rv rating high to low, p price low to high, pd price high to low.', ['r', 'rv', 'p', 'pd'], 'r'),
  hotel_dates: str('Stay dates, as the engine writes them.', 64),
  hotel_occupancy: int('Number of guests.', 1, 30),
  adults: int('Adult guests.', 1, 30),
  children: int('Child guests.', 0, 30),
  hotel_classes: {
    type: 'array',
    description: 'Star ratings to include.',
    minItems: 1,
    maxItems: 5,
    uniqueItems: true,
    items: int('Star rating.', 1, 5),
  },
  keywords: str('Text hint that narrows the image search.', 2048),
};

const se1 = (path: string, names: string[], summary: string, extra: Partial<RouteDraft> = {}): RouteSpec => {
  const params = pick(SE1_PARAMS, names);
  return defineRoute({ path, target: 'se1', family: 'search_engine', modes: ALL_MODES, params, summary, ...extra });
};

const SE1_SEARCH = [
  'query', 'aomd', 'cr', 'disable_scripts', 'domain', 'expand_aio', 'filter', 'fpstate', 'limit_per_page',
  'locale', 'nfpr', 'pages', 'results_language', 'safe_search', 'start_page', 'tbm', 'tbs', 'udm',
];

export const SE1_ROUTES: readonly RouteSpec[] = [
  se1('se1/search', SE1_SEARCH, 'se1 web search results, parsed.'),
  se1('se1/ads', ['query', 'adstest', 'disable_scripts', 'domain', 'expand_aio', 'locale', 'pages', 'start_page'], 'se1 paid results block only.'),
  se1('se1/aimode', ['query'], 'se1 AI Mode answer; needs run_js: true. Answers may differ between identical requests.', { requiresRunJs: true }),
  se1(
    'se1/shopping/search',
    ['query', 'domain', 'limit', 'locale', 'max_price', 'min_price', 'pages', 'sort_by', 'start_page', 'tbs'],
    'se1 shopping search results.',
  ),
  defineRoute({
    path: 'se1/shopping/product',
    target: 'se1',
    family: 'search_engine',
    modes: ALL_MODES,
    params: { query: describe(SE1_PARAMS.query, 'Shopping product ID.'), ...pick(SE1_PARAMS, ['domain', 'locale']) },
    summary: 'se1 shopping product page.',
  }),
  se1('se1/maps', ['query', 'domain', 'hotel_dates', 'hotel_occupancy', 'locale', 'pages', 'start_page'], 'se1 maps results; no built-in parser (json required).', {
    requiresJson: true,
  }),
  defineRoute({
    path: 'se1/travel/hotels',
    target: 'se1',
    family: 'search_engine',
    modes: ALL_MODES,
    params: {
      query: describe(SE1_PARAMS.query, 'Hotel name or destination.'),
      ...pick(SE1_PARAMS, ['adults', 'children', 'domain', 'hotel_classes', 'hotel_dates', 'hotel_occupancy', 'locale', 'pages', 'start_page']),
    },
    summary: 'se1 hotel search results.',
  }),
  defineRoute({
    path: 'se1/lens',
    target: 'se1',
    family: 'search_engine',
    modes: ALL_MODES,
    // The query is an image address, so it gets URL bounds, not text bounds.
    params: { query: url('Address of the image to search with (absolute http/https URL).'), keywords: SE1_PARAMS.keywords },
    summary: 'se1 reverse image search.',
  }),
  // Parameters of trends/explore are not shown by the spec: the search term and the interface language.
  se1('se1/trends/explore', ['query', 'locale'], 'se1 trends for a search term.'),
  defineRoute({
    path: 'se1',
    target: 'se1',
    family: 'search_engine',
    modes: ALL_MODES,
    params: { url: url('Any se1 result page address (absolute http/https URL).') },
    summary: 'Any se1 page by URL, parsed by its page type.',
  }),
];
