/**
 * Commerce target entries are checked at start: every problem is one message naming the token
 * (the caller adds the GLEANER_TARGETS file name), and the shipped simulator mapping is clean.
 */
import { describe, expect, it } from 'vitest';
import type { TargetConfig } from '../../core/config.js';
import { checkTarget } from '../../core/targets/commerce/config.js';
import { SIM_TARGETS } from '../sites/commerce.js';

const BASE = 'https://www.shop.example';
const check = (token: string, extra: Record<string, unknown>): string[] => checkTarget(token, { baseUrl: BASE, ...extra } as TargetConfig);

describe('commerce target entries', () => {
  it('the shipped simulator mapping and a bare baseUrl pass', () => {
    for (const [token, cfg] of Object.entries(SIM_TARGETS)) expect([token, checkTarget(token, cfg as TargetConfig)]).toEqual([token, []]);
    expect(checkTarget('mkt2', { baseUrl: 'https://www.shop.example.{domain}' })).toEqual([]);
  });

  it('tokens that are not commerce targets are not checked here', () => {
    expect(checkTarget('se1', { baseUrl: 'nonsense', templates: 1 } as unknown as TargetConfig)).toEqual([]);
  });

  it('an unknown placeholder names the token, the template and the placeholder, with the known ones', () => {
    expect(check('grocery1', { templates: { search: '/s?q={query}&store={stor_id}' } })).toEqual([
      'grocery1: template "search" names an unknown placeholder {stor_id}; known: brand, delivery_zip, domain, fulfillment_type, location, price_range, query, store_id, subdomain',
    ]);
    expect(check('mkt2', { templates: { product: '/p/{query}?page={page}' } })).toEqual([
      'mkt2: template "product" names an unknown placeholder {page}; known: domain, location, query, subdomain',
    ]);
    expect(check('mkt2', { baseUrl: 'https://{region}.shop.example' })).toEqual(['mkt2: baseUrl names an unknown placeholder {region}; known: domain, subdomain']);
  });

  it('cookies and headers may use any parameter of the token; session reads become placeholders', () => {
    expect(check('department1', { cookies: { s: '{store_id}' }, headers: { 'x-z': '{zip}' } })).toEqual([
      'department1: header "x-z" names an unknown placeholder {zip}; known: delivery_zip, domain, fulfillment_type, location, query, store_id, subdomain',
    ]);
    expect(check('department1', { session: { url: '/', read: { vid: { cookie: 'v' } } }, templates: { search: '/api?k={vid}&q={query}' } })).toEqual([]);
  });

  it('templates must belong to a route of the token and be a path or an absolute URL', () => {
    expect(check('pet1', { templates: { product: '/p/{query}', search: 's/{query}' } })).toEqual([
      'pet1: templates has "product", which is not a route of pet1; its routes: search',
      'pet1: template "search" must be a path starting with / or an absolute URL',
    ]);
    expect(check('social1', { templates: { 'shop/search': 'https://shop.example/s?q={query}&c={country}' } })).toEqual([]);
  });

  it('shapes: unknown keys, page numbering, value maps, session reads, names, {{…}}', () => {
    expect(
      check('mkt3', {
        tempaltes: {},
        page: { first: -1, step: 0 },
        values: { colour: { red: '1' } },
        cookies: { 'bad name': '{domain}' },
        session: { url: '/', read: { 'v-id': { cookie: 'v' }, t: { pattern: 'token=\\w+' }, u: { query: 'x' } }, ttlMs: -5 },
        templates: { search: '/s?q={{query}}' },
      }),
    ).toEqual([
      'mkt3: unknown key "tempaltes"; known: baseUrl, templates, page, cookies, headers, values, session, defaultDomain, defaultSubdomain',
      'mkt3: session read "v-id" is not a name (letters, digits and _)',
      'mkt3: session read "t": the pattern needs a capture group for the value',
      'mkt3: session read "u" must be {"cookie": …}, {"header": …}, {"pattern": …} or {"json": …}',
      'mkt3: session.ttlMs must be a number of milliseconds',
      'mkt3: template "search" uses {{…}}; placeholders are written {name}',
      'mkt3: cookie name "bad name" is not a valid token',
      'mkt3: values names an unknown parameter "colour"',
      'mkt3: page.first must be an integer ≥ 0',
      'mkt3: page.step must be an integer ≥ 1',
    ]);
    expect(check('mkt3', { baseUrl: 'ftp://x' })).toEqual(['mkt3: baseUrl must be an absolute http(s) URL']);
  });
});
