/**
 * The mkt1 parser table: one parser per route. `mkt1` (by URL) picks the parser from the URL
 * path (the vocabulary the planner writes: `/dp/`, `/s`, `/gp/aod/ajax`, `/gp/offer-listing/`,
 * `/sp`, `/gp/bestsellers/`, `/zgbs/`), and from the page's own markers when the path says
 * nothing (a short link, a redirect).
 */
import type { PageInput, PageParser, Parsed } from '../../parsers/types.js';
import { parseBestsellers } from './bestsellers.js';
import { parseOffers } from './offers.js';
import { parseProduct } from './product.js';
import { parseSearch } from './search.js';
import { parseSeller } from './seller.js';
import type { PageKind } from './vocabulary.js';
import { kindOfUrl } from './vocabulary.js';

const BY_KIND: Readonly<Record<PageKind, PageParser>> = {
  product: parseProduct,
  search: parseSearch,
  pricing: parseOffers,
  'offer-listing': parseOffers,
  seller: parseSeller,
  bestsellers: parseBestsellers,
};

/** The page kind from markers only the storefront's page of that kind carries. */
function kindOfContent(html: string): PageKind | undefined {
  if (html.includes('id="productTitle"')) return 'product';
  if (html.includes('data-component-type="s-search-result"')) return 'search';
  if (html.includes('id="aod-offer') || html.includes('olpOffer')) return 'pricing';
  if (html.includes('id="gridItemRoot"') || html.includes('zg-bdg-text')) return 'bestsellers';
  if (html.includes('feedbackTable') || html.includes('id="seller-name"')) return 'seller';
  return undefined;
}

/** `mkt1` by URL: the parser of the URL's page kind, else of the content's. */
export function parseMkt1Url(input: PageInput): Parsed {
  const kind = kindOfUrl(input.url) ?? kindOfContent(input.html) ?? 'product';
  return BY_KIND[kind](input);
}

/** Built-in parsers of the mkt1 routes, by route id. */
export const PARSERS: Readonly<Record<string, PageParser>> = {
  mkt1: parseMkt1Url,
  'mkt1/search': parseSearch,
  'mkt1/product': parseProduct,
  'mkt1/pricing': parseOffers,
  'mkt1/sellers': parseSeller,
  'mkt1/bestsellers': parseBestsellers,
};
