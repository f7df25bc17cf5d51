/**
 * The se1 parser table: one parser per route; `se1` (any se1 URL) reads the page kind from the
 * URL path — the same paths plan.ts builds — defaulting to the web results parser.
 */
import type { PageInput, PageParser, Parsed } from '../../parsers/types.js';
import { parseSe1AiMode } from './parse/aimode.js';
import { parseSe1Hotels } from './parse/hotels.js';
import { parseSe1Lens } from './parse/lens.js';
import { parseSe1Ads, parseSe1Search } from './parse/search.js';
import { parseSe1ShoppingProduct, parseSe1ShoppingSearch } from './parse/shopping.js';
import { parseSe1Trends } from './parse/trends.js';

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

export const SE1_PARSERS: Readonly<Record<string, PageParser>> = {
  'se1/search': parseSe1Search,
  'se1/ads': parseSe1Ads,
  'se1/aimode': parseSe1AiMode,
  'se1/shopping/search': parseSe1ShoppingSearch,
  'se1/shopping/product': parseSe1ShoppingProduct,
  'se1/travel/hotels': parseSe1Hotels,
  'se1/lens': parseSe1Lens,
  'se1/trends/explore': parseSe1Trends,
  se1: parseSe1Url,
};
