/**
 * The storefront's own URL vocabulary (facts as of 2025, checked against the captured pages:
 * the sort menu's `s=` values, the price filter's `rh=p_36:1500-3000` links in cents), and how
 * a URL tells which kind of page it is. Shared by the planner and the `mkt1` (url) parser.
 */

export type PageKind = 'product' | 'search' | 'pricing' | 'offer-listing' | 'seller' | 'bestsellers';

/** `sort_by` → `s=`: Gleaner's names and the storefront's own values (sent as they are). */
export const SORT_VALUES: Readonly<Record<string, string>> = {
  relevance: 'relevanceblender',
  featured: 'relevanceblender',
  price_asc: 'price-asc-rank',
  price_desc: 'price-desc-rank',
  review: 'review-rank',
  avg_rating: 'review-rank',
  newest: 'date-desc-rank',
  bestsellers: 'exact-aware-popularity-rank',
  relevanceblender: 'relevanceblender',
  'price-asc-rank': 'price-asc-rank',
  'price-desc-rank': 'price-desc-rank',
  'review-rank': 'review-rank',
  'date-desc-rank': 'date-desc-rank',
  'exact-aware-popularity-rank': 'exact-aware-popularity-rank',
};

const USED = ['usedLikeNew', 'usedVeryGood', 'usedGood', 'usedAcceptable'] as const;

/**
 * `condition` → the all-offers fragment's `filters` JSON (`{"all":true,"new":true}`): Gleaner's
 * snake-case names and the fragment's own keys.
 */
export const CONDITION_FILTERS: Readonly<Record<string, readonly string[]>> = {
  all: [],
  new: ['new'],
  used: USED,
  used_like_new: ['usedLikeNew'],
  used_very_good: ['usedVeryGood'],
  used_good: ['usedGood'],
  used_acceptable: ['usedAcceptable'],
  usedLikeNew: ['usedLikeNew'],
  usedVeryGood: ['usedVeryGood'],
  usedGood: ['usedGood'],
  usedAcceptable: ['usedAcceptable'],
};

export function conditionFilter(condition: string): string | undefined {
  const keys = CONDITION_FILTERS[condition] ?? CONDITION_FILTERS[condition.toLowerCase()];
  if (keys === undefined || keys.length === 0) return undefined;
  return JSON.stringify(Object.fromEntries([['all', true], ...keys.map((k) => [k, true])]));
}

/**
 * The kind of page a storefront URL names, from its path; undefined for any other page. The
 * storefront's paths are matched wherever they start, so a base URL with a path prefix (a
 * reverse proxy, the simulator's `/mkt1/<domain>`) reads the same.
 */
export function kindOfUrl(url: string): PageKind | undefined {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return undefined;
  }
  if (/\/gp\/aod\/ajax/.test(path)) return 'pricing';
  if (/\/gp\/offer-listing\//.test(path)) return 'offer-listing';
  if (/\/(?:dp|gp\/product|gp\/aw\/d)\/[A-Z0-9]{10}/i.test(path)) return 'product';
  if (/\/(?:gp\/bestsellers|zgbs|Best-Sellers)(?:\/|$)/i.test(path)) return 'bestsellers';
  if (/\/(?:sp|gp\/aag\/main|shops)\/?$/.test(path)) return 'seller';
  if (/\/s\/?$/.test(path)) return 'search';
  return undefined;
}

/** The 10-character product id in a product, offer-listing or all-offers URL. */
export function productIdOfUrl(url: string): string | undefined {
  try {
    const u = new URL(url, 'http://x/');
    const asin = u.searchParams.get('asin');
    if (asin && /^[A-Z0-9]{10}$/i.test(asin)) return asin.toUpperCase();
    const m = /\/(?:dp|gp\/product|gp\/aw\/d|gp\/offer-listing|product-reviews)\/([A-Z0-9]{10})(?:[/?#]|$)/i.exec(u.pathname);
    return m ? (m[1] as string).toUpperCase() : undefined;
  } catch {
    return undefined;
  }
}

/** The query parameter that carries the page number on each paginated kind. */
export const PAGE_PARAM: Partial<Record<PageKind, string>> = { search: 'page', pricing: 'pageno', bestsellers: 'pg', 'offer-listing': 'startIndex' };

/** `en_US`, `en-us`, `de` → `en_US`, `en_US`, `de` (the storefront's `language=` form). */
export function languageParam(locale: string): string {
  const [lang, ...rest] = locale.split(/[-_]/);
  return [(lang as string).toLowerCase(), ...rest.map((r, i) => (i === 0 && r.length === 2 ? r.toUpperCase() : r))].join('_');
}
