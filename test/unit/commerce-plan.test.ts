/**
 * Commerce fetch planning: the exact upstream request of every one of the 43 commerce routes for
 * a request carrying all of its parameters (the simulator's mapping, test/sites/targets.json),
 * the default convention for tokens with only a baseUrl, page numbering, sessions, value maps,
 * and header safety.
 */
import { describe, expect, it } from 'vitest';
import type { TargetConfig } from '../../core/config.js';
import { COMMERCE_ROUTES } from '../../core/targets/commerce/routes.js';
import { routeById } from '../../core/registry/index.js';
import type { RouteSpec } from '../../core/registry/types.js';
import { planDefault } from '../../core/targets/default.js';
import { planCommerce } from '../../core/targets/commerce/plan.js';
import { pageUrl } from '../../core/targets/flow.js';
import type { FetchStep } from '../../core/targets/flow.js';
import { SIM_TARGETS } from '../sites/commerce.js';

const SIM = 'http://127.0.0.1:8090';
const TARGETS = SIM_TARGETS as unknown as Record<string, TargetConfig>;

function route(id: string): RouteSpec {
  const r = routeById(id);
  if (!r) throw new Error(`no route ${id}`);
  return r;
}

/** Every family parameter with a value (non-ASCII and reserved characters included). */
const ALL: Record<string, unknown> = {
  domain: 'de', subdomain: 'shop', start_page: 2, store_id: 'S2', delivery_zip: '10001', zip_code: '94107', fulfillment_type: 'pickup',
  fulfillment_speed: 'today', price_range: '10-50', brand: 'Northpeak', min_price: 5, max_price: 99.5, sort_by: 'price_low', delivery_time: '1d',
  shipping_from: 'PL', store_city: 'Kraków', store_region: 'Małopolska', country: 'GB', uuid: 'u-1', delivery_eligible: true, in_stock_today: false,
  pickup_at_store_eligible: true, fulfillment_center: 'FC1', zip_code_url: 'https://shop.example/c/fruit?zip=94107',
};

/** The route's own parameters from ALL, and its input. */
function requestFor(r: RouteSpec): Record<string, unknown> {
  const params: Record<string, unknown> = Object.fromEntries(Object.keys(r.params).filter((k) => k in ALL).map((k) => [k, ALL[k]]));
  if (r.input === 'url') params.url = 'https://shop.example/item/P1?x=1';
  else params.query = 'trail shoe';
  return params;
}

const stepsOf = (id: string, targets: Record<string, TargetConfig> = TARGETS) =>
  planCommerce(route(id), requestFor(route(id)), targets).map((f) => (f.steps as FetchStep[]).map((s) => [s.name, s.url, s.headers ?? null]));

const EXPECTED: Record<string, [string, string, Record<string, string> | null][]> = {
  mkt2: [['page', 'https://shop.example/item/P1?x=1', null]],
  'mkt2/product': [['page', `${SIM}/mkt2/de/item/trail%20shoe`, null]],
  'mkt2/search': [['page', `${SIM}/mkt2/de/s?k=trail%20shoe&pg=2`, null]],
  mkt3: [['page', 'https://shop.example/item/P1?x=1', null]],
  'mkt3/product': [['page', `${SIM}/mkt3/shop/de/p/trail%20shoe`, null]],
  'mkt3/search': [['page', `${SIM}/mkt3/de/search?q=trail%20shoe&offset=4`, null]],
  grocery1: [['page', 'https://shop.example/item/P1?x=1', { 'x-fulfillment': 'pickup', cookie: 'store=S2; zip=10001' }]],
  'grocery1/product': [['page', `${SIM}/grocery1/products/trail%20shoe`, { 'x-fulfillment': 'pickup', cookie: 'store=S2; zip=10001' }]],
  'grocery1/search': [['page', `${SIM}/grocery1/search?q=trail%20shoe&brand=Northpeak&price=10-50`, { 'x-fulfillment': 'pickup', cookie: 'store=S2; zip=10001' }]],
  electronics1: [['page', 'https://shop.example/item/P1?x=1', { cookie: 'storeId=S2; zip=10001' }]],
  'electronics1/product': [['page', `${SIM}/electronics1/site/trail%20shoe.p?skuId=trail%20shoe&domain=de`, { cookie: 'storeId=S2; zip=10001' }]],
  'electronics1/search': [['page', `${SIM}/electronics1/site/searchpage.jsp?st=trail%20shoe&cp=2&fulfillment=pickup&domain=de`, { cookie: 'storeId=S2; zip=10001' }]],
  mxgrocery1: [['page', 'https://shop.example/item/P1?x=1', { cookie: 'tienda=S2; cp=10001' }]],
  'mxgrocery1/product': [['page', `${SIM}/mxgrocery1/shop/de/p/trail%20shoe?fulfillment_type=pickup`, { cookie: 'tienda=S2; cp=10001' }]],
  'mxgrocery1/search': [['page', `${SIM}/mxgrocery1/shop/de/buscar?q=trail%20shoe&entrega=pickup`, { cookie: 'tienda=S2; cp=10001' }]],
  bigbox1: [['page', 'https://shop.example/item/P1?x=1&fulfillment_type=pickup', { cookie: 'assortmentStoreId=S2' }]],
  'bigbox1/product': [['page', `${SIM}/bigbox1/ip/trail%20shoe?fulfillment=pickup&domain=de`, { cookie: 'assortmentStoreId=S2' }]],
  'bigbox1/search': [['page', `${SIM}/bigbox1/search?q=trail%20shoe&page=2&sort=price_low&min_price=5&max_price=99.5&speed=today&facet=fulfillment_method:pickup&domain=de`, { cookie: 'assortmentStoreId=S2' }]],
  homeimprovement1: [['page', 'https://shop.example/item/P1?x=1', null]],
  'homeimprovement1/product': [['page', `${SIM}/homeimprovement1/p/trail%20shoe?domain=de`, { cookie: 'THD_LOCALIZER=S2' }]],
  'homeimprovement1/search': [['page', `${SIM}/homeimprovement1/s/trail%20shoe?Nao=24&instock=0&delivery=1&pickup=1&fc=FC1&domain=de`, { cookie: 'THD_LOCALIZER=S2' }]],
  'mkt4/product': [['page', `${SIM}/mkt4/oferta/trail%20shoe`, null]],
  'mkt4/search': [['page', `${SIM}/mkt4/listing?string=trail%20shoe&p=2&delivery=1d&from=PL&city=Krak%C3%B3w&region=Ma%C5%82opolska&domain=de`, null]],
  pet1: [['page', 'https://shop.example/item/P1?x=1', { cookie: 'store=S2' }]],
  'pet1/search': [['page', `${SIM}/pet1/s/trail%20shoe?page=2&fulfillment=pickup&domain=de`, { cookie: 'store=S2' }]],
  supermarket1: [['page', 'https://shop.example/item/P1?x=1', { cookie: 'storeId=S2' }]],
  'supermarket1/product': [['page', `${SIM}/supermarket1/p/trail%20shoe`, { cookie: 'storeId=S2' }]],
  'supermarket1/search': [['page', `${SIM}/supermarket1/search?q=trail%20shoe`, { cookie: 'storeId=S2' }]],
  'supermarket2/product': [['page', `${SIM}/supermarket2/product/trail%20shoe`, { cookie: 'zip=94107' }]],
  'supermarket2/search': [['page', `${SIM}/supermarket2/search?q=trail%20shoe`, { cookie: 'zip=94107' }]],
  'supermarket2/category': [['page', `${SIM}/supermarket2/category/trail%20shoe?zipUrl=https%3A%2F%2Fshop.example%2Fc%2Ffruit%3Fzip%3D94107`, { cookie: 'zip=94107' }]],
  department1: [['session', `${SIM}/department1/`, null], ['page', 'https://shop.example/item/P1?x=1&delivery_zip=10001&fulfillment_type=pickup&store_id=S2', null]],
  'department1/product': [['session', `${SIM}/department1/`, null], ['page', `${SIM}/department1/api/product?tcin=trail%20shoe&key={{visitor_id}}&store=S2&zip=10001&fulfillment=pickup`, null]],
  'department1/search': [['session', `${SIM}/department1/`, null], ['page', `${SIM}/department1/api/search?keyword=trail%20shoe&key={{visitor_id}}&store=S2&zip=10001&fulfillment=pickup`, null]],
  'department1/category': [['session', `${SIM}/department1/`, null], ['page', `${SIM}/department1/api/category?category=trail%20shoe&key={{visitor_id}}&store=S2&zip=10001&fulfillment=pickup`, null]],
  'fashion1/search': [['page', `${SIM}/fashion1/shop/de/search?q=trail%20shoe&page=1`, null]],
  social1: [['page', 'https://shop.example/item/P1?x=1', null]],
  'social1/shop/product': [['page', `${SIM}/social1/shop/api/product?id=trail%20shoe&uuid=u-1`, { 'x-shop-region': 'GB' }]],
  'social1/shop/search': [['page', `${SIM}/social1/shop/api/search?keyword=trail%20shoe`, { 'x-shop-region': 'GB' }]],
  'forum1/search': [['page', `${SIM}/forum1/search?q=trail%20shoe&domain=de`, null]],
  latam1: [['page', 'https://shop.example/item/P1?x=1', null]],
  'latam1/product': [['page', `${SIM}/latam1/de/MLA-trail%20shoe`, null]],
  'latam1/search': [['page', `${SIM}/latam1/de/listado?q=trail%20shoe`, null]],
};

describe('commerce planning with the simulator mapping', () => {
  it('covers the 43 commerce routes', () => {
    expect(COMMERCE_ROUTES.map((r) => r.id).sort()).toEqual(Object.keys(EXPECTED).sort());
    expect(COMMERCE_ROUTES).toHaveLength(43);
  });

  it.each(Object.keys(EXPECTED))('%s: every parameter reaches the upstream', (id) => {
    expect(stepsOf(id)).toEqual([EXPECTED[id]]);
  });
});

describe('commerce planning details', () => {
  const only = (token: string, extra: Record<string, unknown> = {}): Record<string, TargetConfig> => ({ [token]: { baseUrl: `${SIM}/${token}`, ...extra } });

  it('a token with only a baseUrl keeps the default convention exactly', () => {
    for (const r of COMMERCE_ROUTES.filter((x) => x.input === 'query')) {
      const targets = only(r.target);
      const params = requestFor(r);
      expect(planCommerce(r, params, targets).map((f) => [f.page, pageUrl(f)])).toEqual(planDefault(r, params, targets).map((p) => [p.page, pageUrl(p)]));
    }
    expect(stepsOf('bigbox1/search', only('bigbox1'))).toEqual([
      [['page', `${SIM}/bigbox1/search?query=trail%20shoe&domain=de&fulfillment_speed=today&fulfillment_type=pickup&max_price=99.5&min_price=5&sort_by=price_low&store_id=S2&page=2`, null]],
    ]);
  });

  it('the url route needs no GLEANER_TARGETS entry: the URL names its upstream', () => {
    expect(pageUrl(planCommerce(route('pet1'), { url: 'https://shop.example/a', store_id: '7' }, {})[0])).toBe('https://shop.example/a?store_id=7');
  });

  it('the url route fetches the URL as given, with the family parameters appended when the request has them', () => {
    expect(stepsOf('department1', only('department1'))).toEqual([[['page', 'https://shop.example/item/P1?x=1&delivery_zip=10001&fulfillment_type=pickup&store_id=S2', null]]]);
    expect(pageUrl(planCommerce(route('mkt2'), { url: 'https://shop.example/a#top' }, only('mkt2'))[0])).toBe('https://shop.example/a#top');
    expect(pageUrl(planCommerce(route('pet1'), { url: 'https://shop.example/a#top', store_id: '7' }, only('pet1'))[0])).toBe('https://shop.example/a?store_id=7#top');
  });

  it('{page} counts from page.first by page.step; start_page is the request page', () => {
    const t = only('mkt3', { templates: { search: '/s?q={query}&o={page}' }, page: { first: 0, step: 24 } });
    const flows = planCommerce(route('mkt3/search'), { query: 'x', start_page: 3 }, t);
    expect(flows.map((f) => [f.page, pageUrl(f)])).toEqual([[3, `${SIM}/mkt3/s?q=x&o=48`]]);
    const noPage = only('mkt3', { templates: { search: '/s?q={query}' }, page: { first: 0 } });
    expect(pageUrl(planCommerce(route('mkt3/search'), { query: 'x', start_page: 1 }, noPage)[0])).toBe(`${SIM}/mkt3/s?q=x&page=0`);
  });

  it('optional parameters leave their query pair out; path placeholders render empty', () => {
    const t = only('grocery1', { templates: { search: '/{store_id}/search?q={query}&brand={brand}&price={price_range}' } });
    expect(pageUrl(planCommerce(route('grocery1/search'), { query: 'milk', brand: 'Rivo' }, t)[0])).toBe(`${SIM}/grocery1/search?q=milk&brand=Rivo`);
  });

  it('a session step comes first, marked setup, its reads become flow variables, and the session is keyed by token and site', () => {
    const flows = planCommerce(route('department1/search'), { query: 'tent', store_id: 'S2' }, TARGETS);
    expect(flows).toEqual([
      {
        page: 1,
        steps: [
          { kind: 'fetch', name: 'session', url: `${SIM}/department1/`, setup: true, read: { visitor_id: { from: 'cookie', name: 'visitorId' } } },
          { kind: 'fetch', name: 'page', url: `${SIM}/department1/api/search?keyword=tent&key={{visitor_id}}&store=S2`, page: true },
        ],
        session: { key: `department1|${SIM}/department1`, ttlMs: 600000 },
        // Every commerce flow retries a bot wall on another proxy before returning it.
        check: expect.any(Function),
      },
    ]);
    const read = only('social1', { session: { url: '/start', read: { token: { pattern: 'token="(\\w+)"' }, region: { json: 'data.regions.0.code' }, ab: { header: 'x-ab' } } } });
    expect((planCommerce(route('social1/shop/search'), { query: 'mug' }, read)[0]?.steps[0] as FetchStep | undefined)?.read).toEqual({
      token: { from: 'body', pattern: /token="(\w+)"/ },
      region: { from: 'json', path: ['data', 'regions', 0, 'code'] },
      ab: { from: 'header', name: 'x-ab' },
    });
  });

  it('a kind without a template keeps the default URL, less the parameters sent as cookies', () => {
    const t = only('supermarket2', { cookies: { zip: '{zip_code}' }, templates: { product: '/p/{query}' } });
    expect(planCommerce(route('supermarket2/search'), { query: 'kale', zip_code: '94107' }, t).map((f) => f.steps[0])).toEqual([
      { kind: 'fetch', name: 'page', url: `${SIM}/supermarket2/search?query=kale`, headers: { cookie: 'zip=94107' } },
    ]);
  });

  it('header and cookie values cannot inject a header line or a flow variable', () => {
    const t = only('grocery1', { headers: { 'x-store': '{store_id}' }, cookies: { s: '{store_id}' } });
    const step = planCommerce(route('grocery1/product'), { query: 'p', store_id: 'a\r\nx: {{y}}' }, t)[0]?.steps[0] as FetchStep | undefined;
    expect(step?.headers).toEqual({ 'x-store': 'a%0D%0Ax: %7B%7By%7D%7D', cookie: 's=a%0D%0Ax%3A%20%7B%7By%7D%7D' });
  });

  it('a missing target is an internal error naming GLEANER_TARGETS', () => {
    expect(() => planCommerce(route('mkt2/search'), { query: 'a' }, {})).toThrow(/GLEANER_TARGETS/);
  });
});

describe('the README example', () => {
  it('plans what core/targets/commerce/README.md says it plans', () => {
    const targets = {
      electronics1: {
        baseUrl: 'https://www.volt.{domain}',
        defaultDomain: 'com',
        templates: { product: '/p/{query}', search: '/s/{query}?p={page}&fulfillment={fulfillment_type}' },
        page: { first: 0 },
        cookies: { store: '{store_id}', zip: '{delivery_zip}' },
      },
    };
    expect(planCommerce(route('electronics1/search'), { query: 'usb c cable', store_id: '42', domain: 'ca', start_page: 2 }, targets)).toEqual([
      { page: 2, steps: [{ kind: 'fetch', name: 'page', url: 'https://www.volt.ca/s/usb%20c%20cable?p=1', headers: { cookie: 'store=42' } }], check: expect.any(Function) },
    ]);
  });
});
