/**
 * URL planning for the se1 routes. Each parameter of spec 4.3 maps onto the engine's own query
 * vocabulary; parameters the engine has no name for are sent under their own name so an
 * upstream (and the simulator) can honour them:
 *
 * | parameter | on the wire |
 * |---|---|
 * | `query` | `q` (shopping product: path `/shopping/product/{id}`; lens: `url`) |
 * | `domain` | `{domain}` in the base URL, else `domain=<tld>` |
 * | `locale` | `hl=<lang-REGION>` (`en_US` → `en-US`) |
 * | `results_language` | `lr=lang_<lang>` |
 * | `location` | `gl=<cc>` — the country the results are for, independent of `domain` |
 * | `pages`, `start_page` | one fetch per page, `start=(page-1)*num` |
 * | `limit_per_page` | one fetch per listed page with `num=<limit>`, `start=(page-1)*limit` |
 * | `limit` (shopping) | `num=<limit>` |
 * | `safe_search` | `safe=active` / `safe=off` |
 * | `tbm`, `tbs`, `udm`, `cr`, `nfpr`, `filter`, `aomd`, `fpstate` | forwarded exactly as sent |
 * | `disable_scripts` | `gbv=1` (the basic, script-free results page) |
 * | `expand_aio` | `expand_aio=1` |
 * | `adstest` | `adtest=on` |
 * | `min_price`, `max_price`, `sort_by` (shopping) | `tbs=mr:1,price:1,ppr_min:N,ppr_max:N,p_ord:<sort>` after any `tbs` sent |
 * | hotels `adults`, `children`, `hotel_classes`, `hotel_dates`, `hotel_occupancy` | `adults`, `children`, `hotel_class=3,4`, `dates`, `occupancy` |
 * | lens `keywords` | `q` |
 */
import type { RouteSpec } from '../../registry/types.js';
import { GleanerError } from '../../errors.js';
import type { Params, Query, Targets } from '../base.js';
import { baseFor, buildUrl, int, languageTag, pageRange, requireUrl, str, wire } from '../base.js';
import { single, type Flow } from '../flow.js';

const VERBATIM = ['tbm', 'tbs', 'udm', 'cr', 'nfpr', 'filter', 'aomd', 'fpstate'] as const;

function common(q: Query, params: Params, domainInHost: boolean): void {
  const domain = str(params.domain);
  if (domain && !domainInHost) q.push(['domain', domain]);
  const locale = str(params.locale);
  if (locale) q.push(['hl', languageTag(locale)]);
  const lang = str(params.results_language);
  if (lang) q.push(['lr', `lang_${resultsLanguage(lang)}`]);
  const location = str(params.location);
  if (location) q.push(['gl', location.toLowerCase()]);
}

function resultsLanguage(value: string): string {
  const [lang, region] = value.split(/[_-]/);
  // Chinese is restricted by script region; every other language by the bare code.
  return lang.toLowerCase() === 'zh' && region ? `zh-${region.toUpperCase()}` : lang.toLowerCase();
}

function flags(q: Query, params: Params, route: RouteSpec): void {
  if (typeof params.safe_search === 'boolean') q.push(['safe', params.safe_search ? 'active' : 'off']);
  for (const key of VERBATIM) {
    if (route.id === 'se1/shopping/search' && key === 'tbs') continue; // merged into the shopping tbs
    const v = wire(params[key]);
    if (v !== undefined && v !== '') q.push([key, v]);
  }
  if (params.disable_scripts === true) q.push(['gbv', '1']);
  if (params.expand_aio === true) q.push(['expand_aio', '1']);
  if (params.adstest === true) q.push(['adtest', 'on']);
}

/** `(page, num)` pairs: from `limit_per_page` when given, else the consecutive page range. */
function pagesOf(params: Params): { page: number; num: number | undefined }[] {
  const lpp = params.limit_per_page;
  if (Array.isArray(lpp) && lpp.length > 0) {
    const seen = new Set<number>();
    const out: { page: number; num: number | undefined }[] = [];
    for (const entry of lpp) {
      const page = int((entry as Record<string, unknown>)?.page);
      const limit = int((entry as Record<string, unknown>)?.limit);
      if (page === undefined || page < 1 || seen.has(page)) continue;
      seen.add(page);
      out.push({ page, num: limit !== undefined && limit > 0 ? limit : undefined });
    }
    if (out.length > 0) return out;
  }
  const num = int(params.limit);
  return pageRange(params).map((page) => ({ page, num: num !== undefined && num > 0 ? num : undefined }));
}

function shoppingTbs(params: Params): string | undefined {
  const parts: string[] = [];
  const user = str(params.tbs);
  if (user) parts.push(user);
  const min = int(params.min_price);
  const max = int(params.max_price);
  if (min !== undefined || max !== undefined) {
    parts.push('mr:1', 'price:1');
    if (min !== undefined) parts.push(`ppr_min:${min}`);
    if (max !== undefined) parts.push(`ppr_max:${max}`);
  }
  const sort = str(params.sort_by);
  if (sort) parts.push(`p_ord:${sort}`);
  // A part the caller already sent in `tbs` is not repeated.
  return parts.length > 0 ? [...new Set(parts.join(',').split(','))].join(',') : undefined;
}

function requireQuery(route: RouteSpec, params: Params): string {
  const q = str(params.query);
  if (q === undefined) throw new GleanerError('INTERNAL_ERROR', `route ${route.id} was planned without a query`);
  return q;
}

export function planSe1(route: RouteSpec, params: Params, targets: Targets): Flow[] {
  if (route.input === 'url') return [single(requireUrl(route, params))];
  const query = requireQuery(route, params);
  const base = baseFor(targets, 'se1', params);
  const one = (path: string, q: Query): Flow[] => [single(buildUrl(base.url, path, q))];

  switch (route.id) {
    case 'se1/shopping/product': {
      const q: Query = [];
      common(q, params, base.domainInHost);
      return one(`/shopping/product/${encodeURIComponent(query)}`, q);
    }
    case 'se1/lens': {
      const q: Query = [['url', query]];
      const kw = str(params.keywords);
      if (kw) q.push(['q', kw]);
      common(q, params, base.domainInHost);
      return one('/lens/uploadbyurl', q);
    }
    case 'se1/trends/explore': {
      const q: Query = [['q', query]];
      common(q, params, base.domainInHost);
      return one('/trends/explore', q);
    }
    case 'se1/aimode': {
      const q: Query = [['q', query]];
      common(q, params, base.domainInHost);
      q.push(['udm', '50']);
      return one('/search', q);
    }
    default:
      break;
  }

  return pagesOf(params).map(({ page, num }) => {
    const q: Query = [];
    let path = '/search';
    if (route.id === 'se1/maps') path = `/maps/search/${encodeURIComponent(query)}`;
    else q.push(['q', query]);
    if (route.id === 'se1/travel/hotels') path = '/travel/search';
    common(q, params, base.domainInHost);
    if (route.id === 'se1/shopping/search') q.push(['tbm', 'shop']);
    const perPage = num ?? (route.id === 'se1/maps' || route.id === 'se1/travel/hotels' ? 20 : 10);
    if (num !== undefined) q.push(['num', String(num)]);
    if (page > 1) q.push(['start', String((page - 1) * perPage)]);
    hotelParams(q, params);
    flags(q, params, route);
    if (route.id === 'se1/shopping/search') {
      const tbs = shoppingTbs(params);
      if (tbs) q.push(['tbs', tbs]);
    }
    return single(buildUrl(base.url, path, q), page);
  });
}

function hotelParams(q: Query, params: Params): void {
  const pairs: [string, string][] = [
    ['adults', 'adults'],
    ['children', 'children'],
    ['hotel_classes', 'hotel_class'],
    ['hotel_dates', 'dates'],
    ['hotel_occupancy', 'occupancy'],
  ];
  for (const [key, name] of pairs) {
    const v = wire(params[key]);
    if (v !== undefined && v !== '') q.push([name, v]);
  }
}
