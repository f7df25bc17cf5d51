/**
 * Built-in parsers. `parsePage` returns undefined when the route has no built-in parser;
 * otherwise the parsed JSON and whether the page was recognised (`parsed`, `partial` when some
 * blocks failed, `unrecognised` when nothing known was found). Parsers are pure functions of
 * the page; they run in farm workers.
 */
import type { PageInput, PageParser, Parsed } from './types.js';
import { parseSe1Ads, parseSe1Search } from './se1/search.js';
import { parseSe1AiMode } from './se1/aimode.js';
import { parseSe1ShoppingProduct, parseSe1ShoppingSearch } from './se1/shopping.js';
import { parseSe1Hotels } from './se1/hotels.js';
import { parseSe1Lens } from './se1/lens.js';
import { parseSe1Trends } from './se1/trends.js';
import { parseSe2Search } from './se2/search.js';

export type { PageInput, Parsed, PageParser } from './types.js';

const BY_ROUTE: Readonly<Record<string, PageParser>> = {
  'se1/search': parseSe1Search,
  'se1/ads': parseSe1Ads,
  'se1/aimode': parseSe1AiMode,
  'se1/shopping/search': parseSe1ShoppingSearch,
  'se1/shopping/product': parseSe1ShoppingProduct,
  'se1/travel/hotels': parseSe1Hotels,
  'se1/lens': parseSe1Lens,
  'se1/trends/explore': parseSe1Trends,
  se1: parseSe1Url,
  'se2/search': parseSe2Search,
  se2: parseSe2Search,
};

/**
 * `se1` takes any se1 URL: the page kind is read from the URL path (the same paths the planner
 * builds in core/targets/se1.ts), defaulting to the web results parser.
 */
function parseSe1Url(input: PageInput): Parsed {
  let path = '';
  let params: URLSearchParams | null = null;
  try {
    const u = new URL(input.url);
    path = u.pathname;
    params = u.searchParams;
  } catch {
    // Not a URL: fall through to the web results parser.
  }
  if (/\/shopping\/product\//.test(path)) return parseSe1ShoppingProduct(input);
  if (/\/travel\//.test(path)) return parseSe1Hotels(input);
  if (/\/lens|\/uploadbyurl/.test(path)) return parseSe1Lens(input);
  if (/\/trends\//.test(path)) return parseSe1Trends(input);
  if (params?.get('tbm') === 'shop' || params?.get('udm') === '28') return parseSe1ShoppingSearch(input);
  if (params?.get('udm') === '50') return parseSe1AiMode(input);
  return parseSe1Search(input);
}

export function hasBuiltinParser(routeId: string): boolean {
  return Object.prototype.hasOwnProperty.call(BY_ROUTE, routeId);
}

export function parsePage(routeId: string, input: PageInput): Parsed | undefined {
  const parser = hasBuiltinParser(routeId) ? BY_ROUTE[routeId] : undefined;
  return parser ? parser(input) : undefined;
}
