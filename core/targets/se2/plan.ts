/**
 * URL planning for the se2 routes.
 *
 * | parameter | on the wire |
 * |---|---|
 * | `query` | `q` |
 * | `domain` | `{domain}` in the base URL, else `domain=<tld>` |
 * | `locale` | `setlang=<lang-REGION>` |
 * | `location` | `cc=<CC>` |
 * | `pages`, `start_page` | one fetch per page, `first=(page-1)*10+1` from page 2 on |
 * | `safe_search` (a string here) | `adlt=<value>` as sent (`strict`, `moderate`, `off`) |
 *
 * `se2` (url) fetches the URL as given, with `setlang` set when `locale` is.
 */
import type { RouteSpec } from '../../registry/types.js';
import type { Params, Query, Targets } from '../base.js';
import { baseFor, buildUrl, languageTag, pageRange, requireUrl, str, withParam } from '../base.js';
import { single, type Flow } from '../flow.js';

export function planSe2(route: RouteSpec, params: Params, targets: Targets): Flow[] {
  const locale = str(params.locale);
  if (route.input === 'url') {
    const url = requireUrl(route, params);
    return [single(locale ? withParam(url, 'setlang', languageTag(locale)) : url)];
  }
  const base = baseFor(targets, 'se2', params);
  const query = str(params.query) ?? '';
  return pageRange(params).map((page) => {
    const q: Query = [['q', query]];
    const domain = str(params.domain);
    if (domain && !base.domainInHost) q.push(['domain', domain]);
    if (locale) q.push(['setlang', languageTag(locale)]);
    const location = str(params.location);
    if (location) q.push(['cc', location.toUpperCase()]);
    if (page > 1) q.push(['first', String((page - 1) * 10 + 1)]);
    const safe = params.safe_search;
    if (typeof safe === 'string' && safe !== '') q.push(['adlt', safe]);
    else if (typeof safe === 'boolean') q.push(['adlt', safe ? 'strict' : 'off']);
    return single(buildUrl(base.url, '/search', q), page);
  });
}
