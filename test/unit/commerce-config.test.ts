/**
 * Commerce target entries are checked at start: every problem is one message (the caller puts the
 * GLEANER_TARGETS file name and the token in front), and the shipped simulator mapping is clean.
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

  it('an unknown placeholder names the template and the placeholder, with the known ones', () => {
    expect(check('grocery1', { templates: { search: '/s?q={query}&store={stor_id}' } })).toEqual([
      'template "search" names an unknown placeholder {stor_id}; known: brand, delivery_zip, domain, fulfillment_type, location, price_range, query, store_id, subdomain',
    ]);
    expect(check('mkt2', { templates: { product: '/p/{query}?page={page}' } })).toEqual([
      'template "product" names an unknown placeholder {page}; known: domain, location, query, subdomain',
    ]);
    expect(check('mkt2', { baseUrl: 'https://{region}.shop.example' })).toEqual(['baseUrl names an unknown placeholder {region}; known: domain, subdomain']);
  });

  it('cookies and headers may use any parameter of the token; session reads become placeholders', () => {
    expect(check('department1', { cookies: { s: '{store_id}' }, headers: { 'x-z': '{zip}' } })).toEqual([
      'header "x-z" names an unknown placeholder {zip}; known: delivery_zip, domain, fulfillment_type, location, query, store_id, subdomain',
    ]);
    expect(check('department1', { session: { url: '/', read: { vid: { cookie: 'v' } } }, templates: { search: '/api?k={vid}&q={query}' } })).toEqual([]);
  });

  it('templates must belong to a route of the token and be a path or an absolute URL', () => {
    expect(check('pet1', { templates: { product: '/p/{query}', search: 's/{query}' } })).toEqual([
      'templates has "product", which is not a route of pet1; its routes: search',
      'template "search" must be a path starting with / or an absolute URL',
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
      'unknown key "tempaltes"; known: baseUrl, templates, page, cookies, headers, values, session, defaultDomain, defaultSubdomain',
      'session read "v-id" is not a name (letters, digits and _)',
      'session read "t": the pattern needs a capture group for the value',
      'session read "u" must be {"cookie": …}, {"header": …}, {"pattern": …} or {"json": …}',
      'session.ttlMs must be a number of milliseconds',
      'template "search" uses {{…}}; placeholders are written {name}',
      'cookie name "bad name" is not a valid token',
      'values names an unknown parameter "colour"',
      'page.first must be an integer ≥ 0',
      'page.step must be an integer ≥ 1',
    ]);
    expect(check('mkt3', { baseUrl: 'ftp://x' })).toEqual(['baseUrl must be an absolute http(s) URL']);
  });
});
