/**
 * The parser of every commerce route, by route id: product routes (`/product`,
 * `/shop/product`) take the product parser, search and category routes the listing parser, and
 * the url route (`/{token}`, any page of the target) decides from the page which one it is.
 * Per-family quirks would be listed here by route id; none is needed so far (see README.md).
 */
import type { PageInput, PageParser, Parsed } from '../../parsers/types.js';
import { COMMERCE_ROUTES } from './routes.js';
import type { RouteSpec } from '../../registry/types.js';
import { parseListing, parseListingWith, saysNoResults } from './listing.js';
import { productInJson } from './json-product.js';
import { loadPage, parseProduct, parseProductWith } from './product.js';
import { findCards } from './cards.js';
import { kindOf } from './config.js';
import { bodyJson, stateBlobs } from './state.js';
import { PRODUCT_TYPES } from './structured.js';

const LISTING_URL = /[/?&](s|search|q|query|k|keyword|searchTerm|st)=|\/(search|s|category|categories|c|browse|catalog|collections?|b|l|list|bestsellers?|zgbs)(\/|$|\?)/i;
const PRODUCT_URL = /\/(dp|p|product|products|ip|item|itm|pd|sku)\/|-p\d{5,}|\/A-\d{5,}/i;

function pathOf(url: string | null | undefined): string {
  if (!url) return '';
  try {
    const u = new URL(url);
    return u.pathname + u.search;
  } catch {
    return '';
  }
}

/**
 * `/{token}`: a product page or a listing? Structured data decides when it speaks (one top-level
 * Product and no ItemList, or an ItemList or several Products), then the shape of the page's URL or of its
 * canonical URL, then the page itself: one or two add-to-cart controls and a product title make
 * a product page; several priced cards a listing.
 */
export function parseAnyPage(input: PageInput): Parsed {
  const json = bodyJson(input.html);
  if (json !== undefined) {
    const one = productInJson(json, input.url, null, true);
    return one && !one.inList ? parseProductWith(input, null) : parseListingWith(input, 'listing', null);
  }
  const page = loadPage(input);
  const top = page.sd.entities.filter((e) => e.topLevel);
  const products = top.filter((e) => e.types.some((t) => PRODUCT_TYPES.has(t))).length;
  const lists = top.some((e) => e.types.includes('ItemList'));
  if ((lists && products === 0) || products >= 2) return parseListingWith(input, 'listing', page);
  if (products === 1 && !lists) return parseProductWith(input, page);
  const canonical = page.sd.candidates.find((c) => (c.origin === 'link' && c.path[0] === 'canonical') || c.path.join(':') === 'og:url')?.value;
  for (const path of [pathOf(input.url), pathOf(typeof canonical === 'string' ? canonical : null)]) {
    if (PRODUCT_URL.test(path)) return parseProductWith(input, page);
    if (LISTING_URL.test(path)) return parseListingWith(input, 'listing', page);
  }
  for (const blob of stateBlobs(input.html)) {
    const one = productInJson(blob, input.url, null, true);
    if (one) return one.inList ? parseListingWith(input, 'listing', page) : parseProductWith(input, page);
  }
  const { cards, aside } = findCards(page.doc, null);
  if (cards.length >= 3 && !aside) return parseListingWith(input, 'listing', page);
  // A search that found nothing shows no cards but says so: still a listing, not a product.
  return cards.length === 0 && saysNoResults(page.doc) ? parseListingWith(input, 'listing', page) : parseProductWith(input, page);
}

function parserFor(route: RouteSpec): PageParser {
  switch (kindOf(route)) {
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
