/**
 * URL planning and flows for the mkt1 routes: each parameter maps onto the storefront's own
 * vocabulary (vocabulary.ts); one flow per page; with `location`, the delivery-location setup
 * steps of location.ts run first (once per session).
 *
 * | parameter | on the wire |
 * |---|---|
 * | `domain` | `{domain}` in the base URL (`com` default), else `domain=<tld>` |
 * | `query` (search) | `GET /s?k=<query>`; page N > 1 adds `page=N` |
 * | `query` (product) | `GET /dp/<id>` |
 * | `query` (pricing) | `GET /gp/aod/ajax?asin=<id>&pageno=<N>` (the all-offers fragment) |
 * | `query` (sellers) | `GET /sp?seller=<id>` |
 * | `query` (bestsellers) | `GET /gp/bestsellers/<query>` or `/gp/bestsellers/<query>/<category_id>`; page N > 1 adds `pg=N` |
 * | `url` (`mkt1`) | the URL as given; the parameters below that fit its page kind are set on it |
 * | `category_id` (search) | `rh=n:<id>` |
 * | `min_price`, `max_price` | `rh=p_36:<min>-<max>` in cents as the storefront writes them (`p_36:1500-3000` = 15 to 30; `p_36:-1500`, `p_36:4000-`); whole units for yen |
 * | `refinement` | appended to `rh` as sent (`p_72:1248879011`, comma-separated parts) |
 * | `merchant_id` | `me=<id>` |
 * | `sort_by` | `s=`: `relevance`/`featured` → `relevanceblender`, `price_asc` → `price-asc-rank`, `price_desc` → `price-desc-rank`, `review`/`avg_rating` → `review-rank`, `newest` → `date-desc-rank`, `bestsellers` → `exact-aware-popularity-rank`; the storefront's values pass as they are |
 * | `condition` (pricing) | `filters={"all":true,"new":true}` (`new`, `used`, `used_like_new`, `used_very_good`, `used_good`, `used_acceptable`, `all` = no filter) |
 * | `autoselect_variant` (product) | `th=1&psc=1` |
 * | `locale` | `language=<ll_CC>` (`en-us` → `en_US`) on every page |
 * | `currency` | cookie `i18n-prefs=<ISO>` on every step (the storefront's currency preference) |
 * | `safe_search` (search) | `safe_search=true|false`: the storefront has no such parameter (adult items sit behind an age gate in its own UI), so it is sent under its own name, as for every name an upstream lacks; the simulator hides its adult item unless `false` |
 * | `location` | setup steps: address-selection fragment (CSRF token, session cookies) → `POST` address change; the page then must show that postal code in its delivery line (location.ts) |
 * | `check_empty_geo` | the flow's check fails the request (not charged) when the page does not show the location, or when no location was given |
 * | `pages`, `start_page` | one flow per page number, each a separate fetch and charge |
 *
 * Query parameters are written in the order of the table. Kinds without pages (product,
 * seller) are one flow whatever `pages` says.
 */
import { GleanerError } from '../../errors.js';
import type { RouteSpec } from '../../registry/types.js';
import type { Params, Targets } from '../adapter.js';
import type { Query } from '../base.js';
import { baseFor, buildUrl, int, pageRange, str, withParam } from '../base.js';
import { allChecks, wallCheck, type FetchStep, type Flow } from '../flow.js';
import { isBotWall } from './common.js';
import { locationCheck, locationSteps, SESSION_TTL_MS, stepHeaders } from './location.js';
import { MARKET_FACTS, MKT1_DEFAULT_DOMAIN, domainOfUrl, minorAmount } from './marketplaces.js';
import type { PageKind } from './vocabulary.js';
import { conditionFilter, kindOfUrl, languageParam, PAGE_PARAM, SORT_VALUES } from './vocabulary.js';

const ROUTE_KIND: Readonly<Record<string, PageKind>> = {
  'mkt1/search': 'search',
  'mkt1/product': 'product',
  'mkt1/pricing': 'pricing',
  'mkt1/sellers': 'seller',
  'mkt1/bestsellers': 'bestsellers',
};

const PAGED: ReadonlySet<PageKind> = new Set(['search', 'pricing', 'bestsellers', 'offer-listing']);

/** The `rh` refinement of a search: category, price range, then the caller's own refinement. */
function rhOf(params: Params, domain: string): string | undefined {
  const parts: string[] = [];
  const category = str(params.category_id);
  if (category) parts.push(`n:${category}`);
  const min = typeof params.min_price === 'number' ? minorAmount(params.min_price, domain) : undefined;
  const max = typeof params.max_price === 'number' ? minorAmount(params.max_price, domain) : undefined;
  if (min !== undefined || max !== undefined) parts.push(`p_36:${min ?? ''}-${max ?? ''}`);
  const refinement = str(params.refinement);
  if (refinement) parts.push(refinement.replace(/^rh=/, ''));
  return parts.length > 0 ? parts.join(',') : undefined;
}

/** The page-independent query parameters of a kind, in table order (`language` last). */
function kindQuery(kind: PageKind, params: Params, domain: string): Query {
  const q: Query = [];
  if (kind === 'search') {
    const rh = rhOf(params, domain);
    if (rh) q.push(['rh', rh]);
    const me = str(params.merchant_id);
    if (me) q.push(['me', me]);
    const sort = str(params.sort_by);
    if (sort) q.push(['s', SORT_VALUES[sort] ?? sort]);
    if (typeof params.safe_search === 'boolean') q.push(['safe_search', String(params.safe_search)]);
  }
  if (kind === 'product' && params.autoselect_variant === true) q.push(['th', '1'], ['psc', '1']);
  if (kind === 'pricing') {
    const filters = str(params.condition) ? conditionFilter(str(params.condition) as string) : undefined;
    if (filters) q.push(['filters', filters]);
  }
  return q;
}

function pageParam(kind: PageKind, page: number): [string, string] | undefined {
  if (kind === 'pricing') return ['pageno', String(page)];
  if (page <= 1) return undefined;
  if (kind === 'offer-listing') return ['startIndex', String((page - 1) * 10)];
  const name = PAGE_PARAM[kind];
  return name ? [name, String(page)] : undefined;
}

function requireInput(route: RouteSpec, params: Params, name: 'query' | 'url'): string {
  const v = str(params[name]);
  if (v === undefined) throw new GleanerError('INTERNAL_ERROR', `route ${route.id} was planned without a ${name}`);
  return v;
}

/** Pages of a request: the `start_page..` range for paged kinds, else one. */
function pagesOf(kind: PageKind | undefined, params: Params): number[] {
  return kind !== undefined && PAGED.has(kind) ? pageRange(params) : [Math.max(1, int(params.start_page) ?? 1)];
}

interface Site {
  /** Marketplace root URL, no trailing slash. */
  base: string;
  domain: string;
}

/** The marketplace a `url` request is on: the configured base it starts with, else its origin. */
function siteOfUrl(url: string, targets: Targets): Site {
  // A URL request needs no configured upstream: without one the URL's own origin is the site.
  for (const domain of Object.hasOwn(targets, 'mkt1') ? Object.keys(MARKET_FACTS) : []) {
    const base = baseFor(targets, 'mkt1', { domain }).url;
    if (url.startsWith(`${base}/`)) return { base, domain };
  }
  const domain = domainOfUrl(url) ?? MKT1_DEFAULT_DOMAIN;
  try {
    return { base: new URL(url).origin, domain };
  } catch {
    return { base: url, domain };
  }
}

/** The page URL of a route request for one page number. */
function pageUrl(route: RouteSpec, params: Params, site: Site, kind: PageKind | undefined, page: number, domainInHost: boolean): string {
  const tail: Query = [];
  const locale = str(params.locale);
  if (locale) tail.push(['language', languageParam(locale)]);
  if (!domainInHost && route.input === 'query') tail.push(['domain', site.domain]);
  if (route.input === 'url') {
    let url = requireInput(route, params, 'url');
    if (kind === undefined) return tail.reduce((u, [k, v]) => withParam(u, k, v), url);
    const paging = page > 1 || kind === 'pricing' ? pageParam(kind, page) : undefined;
    const q = kindQuery(kind, params, site.domain);
    // A refinement of the URL's own `rh` is kept: the request's parts are added after it.
    const rh = q.find(([k]) => k === 'rh');
    if (rh) {
      const own = new URL(url).searchParams.get('rh');
      if (own) rh[1] = `${own},${rh[1]}`;
    }
    for (const [k, v] of [...q, ...(paging ? [paging] : []), ...tail]) url = withParam(url, k, v);
    return url;
  }
  const query = requireInput(route, params, 'query');
  const id = encodeURIComponent(query);
  const q: Query = [];
  let path: string;
  switch (kind) {
    case 'search':
      path = '/s';
      q.push(['k', query], ...kindQuery('search', params, site.domain));
      break;
    case 'product':
      path = `/dp/${id}`;
      q.push(...kindQuery('product', params, site.domain));
      break;
    case 'pricing':
      path = '/gp/aod/ajax';
      q.push(['asin', query], ['pageno', String(page)], ...kindQuery('pricing', params, site.domain));
      break;
    case 'seller':
      path = '/sp';
      q.push(['seller', query]);
      break;
    case 'bestsellers': {
      const category = str(params.category_id);
      path = `/gp/bestsellers/${id}${category ? `/${encodeURIComponent(category)}` : ''}`;
      break;
    }
    default:
      throw new GleanerError('INTERNAL_ERROR', `route ${route.id} has no mkt1 page kind`);
  }
  if (kind !== 'pricing') {
    const paging = pageParam(kind, page);
    if (paging) q.push(paging);
  }
  return buildUrl(site.base, path, [...q, ...tail]);
}

/** The page number a storefront URL carries in its kind's page parameter, if any. */
function pageOfUrl(url: string, kind: PageKind): number | undefined {
  const name = PAGE_PARAM[kind];
  if (!name) return undefined;
  try {
    return int(new URL(url).searchParams.get(name) ?? undefined);
  } catch {
    return undefined;
  }
}

/** One flow per page of a validated mkt1 request (see the table above). Pure; may throw GleanerError. */
export function planMkt1(route: RouteSpec, params: Params, targets: Targets): Flow[] {
  let site: Site;
  let kind: PageKind | undefined;
  let domainInHost = true;
  if (route.input === 'url') {
    const url = requireInput(route, params, 'url');
    site = siteOfUrl(url, targets);
    kind = kindOfUrl(url);
    // A URL that names its page (`pageno=2`) starts there unless the request asked for another.
    const own = kind === undefined ? undefined : pageOfUrl(url, kind);
    if (own !== undefined && own > 1 && (int(params.start_page) ?? 1) === 1) params = { ...params, start_page: own };
  } else {
    const base = baseFor(targets, 'mkt1', params, MKT1_DEFAULT_DOMAIN);
    site = { base: base.url, domain: str(params.domain) ?? MKT1_DEFAULT_DOMAIN };
    domainInHost = base.domainInHost;
    kind = ROUTE_KIND[route.id];
    if (kind === undefined) throw new GleanerError('INTERNAL_ERROR', `route ${route.id} is not an mkt1 route`);
  }
  const postal = str(params.location);
  const headers = stepHeaders(str(params.currency));
  const setup = postal ? locationSteps(site.base, headers, kind === 'pricing') : [];
  // A robot check is retried on another proxy first; then the location must be the one asked for.
  const check = allChecks(wallCheck((page) => (isBotWall(page.body) ? { what: 'mkt1 answered with its robot check' } : undefined)), locationCheck(site.domain, postal, params.check_empty_geo === true));
  return pagesOf(kind, params).map((page) => {
    const step: FetchStep = { kind: 'fetch', name: 'page', page: true, url: pageUrl(route, params, site, kind, page, domainInHost), ...(headers ? { headers } : {}) };
    const flow: Flow = { page, steps: [...setup, step] };
    if (postal) {
      flow.vars = { zip: postal };
      // Pricing sessions carry their probe's reading; other kinds read the page itself.
      flow.session = { key: `mkt1|${site.base}|${site.domain}|${postal.toUpperCase().replace(/[\s-]+/g, '')}${kind === 'pricing' ? '|probe' : ''}`, ttlMs: SESSION_TTL_MS };
    }
    if (check) flow.check = check;
    return flow;
  });
}
