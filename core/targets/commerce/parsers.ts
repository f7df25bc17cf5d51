/**
 * The parser of every commerce route, by route id: product routes (`/product`,
 * `/shop/product`) take the product parser, search and category routes the listing parser, and
 * the url route (`/{token}`, any page of the target) decides from the page which one it is.
 * Per-family quirks would be listed here by route id; none is needed so far (see README.md).
 */
import type { PageInput, PageParser, Parsed } from '../../parsers/types.js';
import { COMMERCE_ROUTES } from '../../registry/commerce.js';
import type { RouteSpec } from '../../registry/types.js';
import { parseListing, parseListingWith } from './listing.js';
import { loadPage, parseProduct, parseProductWith } from './product.js';
import { bodyJson } from './state.js';

/** The route kind below `/{token}`: `` (url route), `product`, `search`, `category`, `shop/product`, `shop/search`. */
export function routeKind(route: Pick<RouteSpec, 'path' | 'target'>): string {
  return route.path === route.target ? '' : route.path.slice(route.target.length + 1);
}

const LISTING_URL = /[/?&](s|search|q|query|k|keyword|searchTerm|st)=|\/(search|s|category|categories|c|browse|shop|catalog|collections?|b|l|list|bestsellers?)(\/|$|\?)/i;
const PRODUCT_URL = /\/(dp|p|product|products|ip|item|itm|pd|sku)\/|-p\d{5,}|\/A-\d{5,}/i;

/**
 * `/{token}`: a product page or a listing? Structured data decides when it speaks (a top-level
 * Product without an ItemList, or an ItemList), then the URL's shape, then whichever parser
 * recognises more.
 */
export function parseAnyPage(input: PageInput): Parsed {
  if (bodyJson(input.html) !== undefined) {
    const listing = parseListingWith(input, 'listing', null);
    const results = (listing.json as { results: unknown[] }).results.length;
    return results >= 2 ? listing : parseProductWith(input, null);
  }
  const page = loadPage(input);
  const types = new Set(page.sd.entities.filter((e) => e.topLevel).flatMap((e) => e.types));
  const hasProduct = ['Product', 'ProductGroup', 'IndividualProduct'].some((t) => types.has(t));
  if (types.has('ItemList') && !hasProduct) return parseListingWith(input, 'listing', page);
  if (hasProduct && !types.has('ItemList')) return parseProductWith(input, page);
  let path = '';
  try {
    const u = new URL(input.url);
    path = u.pathname + u.search;
  } catch {
    // Not a URL: decide from the page.
  }
  if (PRODUCT_URL.test(path)) return parseProductWith(input, page);
  if (LISTING_URL.test(path)) return parseListingWith(input, 'listing', page);
  const listing = parseListingWith(input, 'listing', page);
  return (listing.json as { results: unknown[] }).results.length >= 3 ? listing : parseProductWith(input, page);
}

function parserFor(route: RouteSpec): PageParser {
  switch (routeKind(route)) {
    case '':
      return parseAnyPage;
    case 'product':
    case 'shop/product':
      return parseProduct;
    case 'category':
      return parseListing('category');
    default:
      return parseListing('search');
  }
}

/** Built-in parsers of every commerce route, by route id. */
export const PARSERS: Readonly<Record<string, PageParser>> = Object.fromEntries(
  COMMERCE_ROUTES.map((r) => [r.id, parserFor(r)]),
);
