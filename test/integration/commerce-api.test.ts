/**
 * The 43 commerce routes through the HTTP API, against the simulator mapped by the shipped
 * test/sites/targets.json, with the real farm: for each route a request carrying all of its
 * parameters gives the exact upstream request (URL, cookies, mapped headers as the simulator
 * received them) and the parsed JSON of the catalogue. Then the entry's templates at work (page
 * base and offset, a session step reused), rendered pages (run_js), a blocked page retried on
 * the other proxy of a country pool, the default convention of a token with only a `baseUrl`
 * (after a reload), and the start-up check of the targets file.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TargetConfig } from '../../core/config.js';
import { COMMERCE_ROUTES } from '../../core/targets/commerce/routes.js';
import type { RouteSpec } from '../../core/registry/types.js';
import { listingJson, nextPage, productJson, type Where } from '../helpers/commerce-expected.js';
import { call, postJson, startGateway, type TestGateway } from '../helpers/gateway.js';
import { startProxy, type TestProxy } from '../helpers/proxy.js';
import { simTargets } from '../sites/commerce.js';
import { startSimulator, type Simulator } from '../sites/server.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
let sim: Simulator;
let gw: TestGateway;
let proxies: TestProxy[];
let targets: Record<string, TargetConfig>;

beforeAll(async () => {
  [sim, ...proxies] = await Promise.all([startSimulator(), startProxy(), startProxy()]);
  targets = simTargets(sim.origin) as unknown as Record<string, TargetConfig>;
  // Only requests with location GB go through the two proxies: the rest stay direct, so that
  // sessions (kept per proxy) are deterministic.
  gw = await startGateway({ targets, proxies: { gb: proxies.map((p) => p.url) } });
});
afterAll(async () => {
  await gw?.close();
  await Promise.all([sim?.close(), ...(proxies ?? []).map((p) => p.close())]);
});

/** A commerce request as the simulator saw it. */
interface Seen {
  token: string;
  url: string;
  cookie: string | null;
  /** The headers the token's entry maps (empty string when absent). */
  headers: Record<string, string>;
}

async function seen(): Promise<Seen[]> {
  return (await call(`${sim.origin}/commerce/_requests`)).body as Seen[];
}

/** The requests the simulator saw at these paths (without the token), in the order of `paths`'s sort. */
async function seenAt(paths: readonly string[]): Promise<Omit<Seen, 'token'>[]> {
  return (await seen()).filter((s) => paths.includes(s.url)).map(({ token, ...rest }) => (void token, rest)).sort((a, b) => a.url.localeCompare(b.url));
}

/** Every family parameter with a value (non-ASCII and reserved characters included). */
const ALL: Record<string, unknown> = {
  domain: 'de', subdomain: 'shop', start_page: 2, store_id: 'S2', delivery_zip: '10001', zip_code: '94107', fulfillment_type: 'pickup',
  fulfillment_speed: 'today', price_range: '10-50', brand: 'Northpeak', min_price: 5, max_price: 99.5, sort_by: 'price_low', delivery_time: '1d',
  shipping_from: 'PL', store_city: 'Kraków', store_region: 'Małopolska', country: 'GB', uuid: 'u-1', delivery_eligible: true, in_stock_today: false,
  pickup_at_store_eligible: true, fulfillment_center: 'FC1', zip_code_url: 'https://shop.example/c/fruit?zip=94107',
};

const kindOf = (r: RouteSpec): string => r.path.slice(r.target.length + 1);

/** The request of a route: all of its parameters, a catalogue product or `outdoor` (six products, two pages). */
function requestFor(r: RouteSpec): Record<string, unknown> {
  const body: Record<string, unknown> = Object.fromEntries(Object.keys(r.params).filter((k) => k in ALL).map((k) => [k, ALL[k]]));
  if (r.input === 'url') body.url = `${sim.origin}/${r.target}/item/P1001`;
  else body.query = /product$/.test(r.path) ? 'P1001' : 'outdoor';
  return { ...body, output: ['json'] };
}

const up = (url: string, cookie: string | null = null, headers: Record<string, string> = {}) => ({ url, cookie, headers });
const grocery = ['store=S2; zip=10001', { 'x-fulfillment': 'pickup' }] as const;
const visitor = 'visitorId=V-department1';
const dept = 'store=S2&zip=10001&fulfillment=pickup';

/** The upstream request of every route for requestFor(route), as the simulator receives it. */
const UPSTREAM: Record<string, ReturnType<typeof up>> = {
  mkt2: up('/mkt2/item/P1001'),
  'mkt2/product': up('/mkt2/de/item/P1001'),
  'mkt2/search': up('/mkt2/de/s?k=outdoor&pg=2'),
  mkt3: up('/mkt3/item/P1001'),
  'mkt3/product': up('/mkt3/shop/de/p/P1001'),
  'mkt3/search': up('/mkt3/de/search?q=outdoor&offset=4'),
  grocery1: up('/grocery1/item/P1001', ...grocery),
  'grocery1/product': up('/grocery1/products/P1001', ...grocery),
  'grocery1/search': up('/grocery1/search?q=outdoor&brand=Northpeak&price=10-50', ...grocery),
  electronics1: up('/electronics1/item/P1001', 'storeId=S2; zip=10001'),
  'electronics1/product': up('/electronics1/site/P1001.p?skuId=P1001&domain=de', 'storeId=S2; zip=10001'),
  'electronics1/search': up('/electronics1/site/searchpage.jsp?st=outdoor&cp=2&fulfillment=pickup&domain=de', 'storeId=S2; zip=10001'),
  mxgrocery1: up('/mxgrocery1/item/P1001', 'tienda=S2; cp=10001'),
  'mxgrocery1/product': up('/mxgrocery1/shop/de/p/P1001?fulfillment_type=pickup', 'tienda=S2; cp=10001'),
  'mxgrocery1/search': up('/mxgrocery1/shop/de/buscar?q=outdoor&entrega=pickup', 'tienda=S2; cp=10001'),
  bigbox1: up('/bigbox1/item/P1001?fulfillment_type=pickup', 'assortmentStoreId=S2'),
  'bigbox1/product': up('/bigbox1/ip/P1001?fulfillment=pickup&domain=de', 'assortmentStoreId=S2'),
  'bigbox1/search': up('/bigbox1/search?q=outdoor&page=2&sort=price_low&min_price=5&max_price=99.5&speed=today&facet=fulfillment_method:pickup&domain=de', 'assortmentStoreId=S2'),
  homeimprovement1: up('/homeimprovement1/item/P1001'),
  'homeimprovement1/product': up('/homeimprovement1/p/P1001?domain=de', 'THD_LOCALIZER=S2'),
  'homeimprovement1/search': up('/homeimprovement1/s/outdoor?Nao=24&instock=0&delivery=1&pickup=1&fc=FC1&domain=de', 'THD_LOCALIZER=S2'),
  'mkt4/product': up('/mkt4/oferta/P1001'),
  'mkt4/search': up('/mkt4/listing?string=outdoor&p=2&delivery=1d&from=PL&city=Krak%C3%B3w&region=Ma%C5%82opolska&domain=de'),
  pet1: up('/pet1/item/P1001', 'store=S2'),
  'pet1/search': up('/pet1/s/outdoor?page=2&fulfillment=pickup&domain=de', 'store=S2'),
  supermarket1: up('/supermarket1/item/P1001', 'storeId=S2'),
  'supermarket1/product': up('/supermarket1/p/P1001', 'storeId=S2'),
  'supermarket1/search': up('/supermarket1/search?q=outdoor', 'storeId=S2'),
  'supermarket2/product': up('/supermarket2/product/P1001', 'zip=94107'),
  'supermarket2/search': up('/supermarket2/search?q=outdoor', 'zip=94107'),
  'supermarket2/category': up('/supermarket2/category/outdoor?zipUrl=https%3A%2F%2Fshop.example%2Fc%2Ffruit%3Fzip%3D94107', 'zip=94107'),
  department1: up('/department1/item/P1001?delivery_zip=10001&fulfillment_type=pickup&store_id=S2', visitor),
  'department1/product': up(`/department1/api/product?tcin=P1001&key=V-department1&${dept}`, visitor),
  'department1/search': up(`/department1/api/search?keyword=outdoor&key=V-department1&${dept}`, visitor),
  'department1/category': up(`/department1/api/category?category=outdoor&key=V-department1&${dept}`, visitor),
  'fashion1/search': up('/fashion1/shop/de/search?q=outdoor&page=1'),
  social1: up('/social1/item/P1001', null, { 'x-shop-region': '' }),
  'social1/shop/product': up('/social1/shop/api/product?id=P1001&uuid=u-1', null, { 'x-shop-region': 'GB' }),
  'social1/shop/search': up('/social1/shop/api/search?keyword=outdoor', null, { 'x-shop-region': 'GB' }),
  'forum1/search': up('/forum1/search?q=outdoor&domain=de'),
  latam1: up('/latam1/item/P1001'),
  'latam1/product': up('/latam1/de/MLA-P1001'),
  'latam1/search': up('/latam1/de/listado?q=outdoor'),
};

/** The parsed JSON of a route's answer to requestFor(route), from the catalogue. */
function expectedJson(r: RouteSpec, url: string): Record<string, unknown> {
  const w: Where = { origin: sim.origin, token: r.target, url, ...('store_id' in r.params ? { store: 'S2' } : {}) };
  if (r.target === 'social1' && r.input === 'query') Object.assign(w, { currency: 'GBP', ...(kindOf(r) === 'shop/product' ? { style: 'api' } : {}) });
  const kind = kindOf(r);
  if (r.input === 'url' || kind.endsWith('product')) return productJson(w);
  const page = 'start_page' in r.params ? 2 : 1;
  // Six results, four a page: page 1 links page 2 (`page=2`: these tokens' templates do not place it).
  return listingJson(w, 'outdoor', page, kind === 'category' ? 'category' : 'search', page === 1 ? nextPage(url, 'page', 2) : null);
}

describe('a session step (department1)', () => {
  test('the first request fetches the home page for the visitor cookie; later ones reuse the session', async () => {
    const a = await postJson(gw, '/v1/scrape/department1/product', { query: 'P1002', output: ['json'] });
    expect([a.status, a.body.results[0].metadata.parse_status, a.body.results[0].json.title]).toEqual([200, 'parsed', 'Insulated Water Bottle']);
    const b = await postJson(gw, '/v1/scrape/department1/search', { query: 'socks', output: ['json'] });
    expect(b.body.results[0].json.results.map((i: { product_id: string }) => i.product_id)).toEqual(['P1005']);
    expect((await seen()).filter((s) => s.token === 'department1').map(({ token, ...rest }) => (void token, rest))).toEqual([
      up('/department1/'),
      // The page reads the cookie's value into its URL (`key`) and carries the cookie itself.
      up('/department1/api/product?tcin=P1002&key=V-department1', visitor),
      up('/department1/api/search?keyword=socks&key=V-department1', visitor),
    ]);
  });
});

describe.concurrent('every commerce route with all of its parameters', () => {
  test('there are 43', () => {
    expect(COMMERCE_ROUTES.map((r) => r.id).sort()).toEqual(Object.keys(UPSTREAM).sort());
  });

  test.each(COMMERCE_ROUTES.map((r) => [r.id, r] as const))('%s', async (id, r) => {
    const a = await postJson(gw, `/v1/scrape/${id}`, requestFor(r));
    expect(a.status).toBe(200);
    const [result] = a.body.results;
    const want = UPSTREAM[id]!;
    expect((await seen()).filter((s) => s.url === want.url)).toEqual([{ token: r.target, ...want }]);
    expect(result.metadata).toEqual({ page: 'start_page' in r.params ? 2 : 1, run_js: false, url: sim.origin + want.url, status_code: 200, json_source: 'builtin', parse_status: 'parsed' });
    expect(result.json).toEqual(expectedJson(r, sim.origin + want.url));
  });
});

describe.concurrent('templates, rendering, blocked pages', () => {
  test('page base and step: start_page 1 and 2 as offsets, as pages counted from 0, as a step of 24', async () => {
    const cases = [
      ['mkt3/search', { query: 'outdoor' }, ['/mkt3/com/search?q=outdoor&offset=0', '/mkt3/com/search?q=outdoor&offset=4'], 'offset', 4],
      ['fashion1/search', { query: 'outdoor', domain: 'fr', subdomain: 'm' }, ['/fashion1/m/fr/search?q=outdoor&page=0', '/fashion1/m/fr/search?q=outdoor&page=1'], 'page', 1],
      ['homeimprovement1/search', { query: 'outdoor', in_stock_today: true }, ['/homeimprovement1/s/outdoor?Nao=0&instock=1', '/homeimprovement1/s/outdoor?Nao=24&instock=1'], 'Nao', 24],
    ] as const;
    await Promise.all(
      cases.map(async ([id, body, urls, key, second]) => {
        const answers = await Promise.all([1, 2].map((n) => postJson(gw, `/v1/scrape/${id}`, { ...body, start_page: n, output: ['json'] })));
        const token = id.split('/')[0]!;
        expect(await seenAt(urls)).toEqual([...urls].sort().map((u) => up(u)));
        expect(answers.map((a) => a.body.results.map((x: { metadata: { page: number } }) => x.metadata.page))).toEqual([[1], [2]]);
        expect(answers.map((a) => a.body.results[0].json)).toEqual(
          urls.map((u, i) => listingJson({ origin: sim.origin, token, url: sim.origin + u }, 'outdoor', i + 1, 'search', i === 0 ? nextPage(sim.origin + u, key, second) : null)),
        );
      }),
    );
  });

  test('run_js: cookies and headers of the entry reach the rendered page; a rendered JSON API parses like the raw one', async () => {
    const g = await postJson(gw, '/v1/scrape/grocery1/product', { query: 'P1004', store_id: 'S2', delivery_zip: '94107', fulfillment_type: 'delivery', run_js: true, output: ['json'] });
    const gUrl = `${sim.origin}/grocery1/products/P1004`;
    expect(await seenAt(['/grocery1/products/P1004'])).toEqual([up('/grocery1/products/P1004', 'store=S2; zip=94107', { 'x-fulfillment': 'delivery' })]);
    expect([g.body.results[0].metadata.run_js, g.body.results[0].json]).toEqual([true, productJson({ origin: sim.origin, token: 'grocery1', url: gUrl, store: 'S2' }, 'P1004')]);
    const s = await postJson(gw, '/v1/scrape/social1/shop/product', { query: 'P1006', country: 'GB', run_js: true, output: ['json'] });
    const sUrl = `${sim.origin}/social1/shop/api/product?id=P1006`;
    expect([s.body.results[0].metadata.parse_status, s.body.results[0].json]).toEqual(['parsed', productJson({ origin: sim.origin, token: 'social1', url: sUrl, currency: 'GBP', style: 'api' }, 'P1006')]);
  });

  test('a blocked page is retried on the other proxy of the pool, then once in the browser, then returned as blocked', async () => {
    const a = await postJson(gw, '/v1/scrape/grocery1/search', { query: 'blocked', location: 'GB', output: ['json'] });
    const url = `${sim.origin}/grocery1/search?q=blocked`;
    expect(a.status).toBe(200);
    // The browser's attempt (commerce escalates, test/integration/escalation.test.ts) met the wall too.
    expect(a.body.results[0].metadata).toEqual({ page: 1, run_js: true, url, status_code: 200, json_source: 'builtin', parse_status: 'blocked' });
    expect(a.body.results[0].json).toEqual({ url, page_type: 'search', query: 'blocked', page: 1, total_results_count: null, next_page_url: null, results: [] });
    // Three plain attempts and the browser's, alternating between the two proxies of the GB pool.
    const through = proxies.map((p) => p.served.filter((s) => s === `GET ${url}`).length).sort();
    expect(through).toEqual([2, 2]);
    expect(sim.log.filter((l) => l === 'GET /grocery1/search?q=blocked')).toHaveLength(4);
  });

  test('a page blocked once is fetched again through the other proxy and parsed', async () => {
    const a = await postJson(gw, '/v1/scrape/grocery1/search', { query: 'blocked-once outdoor', location: 'GB', output: ['json'] });
    const url = `${sim.origin}/grocery1/search?q=blocked-once%20outdoor`;
    expect(proxies.map((p) => p.served.filter((s) => s === `GET ${url}`).length)).toEqual([1, 1]);
    expect(a.body.results[0].metadata.parse_status).toBe('parsed');
    expect(a.body.results[0].json).toEqual(listingJson({ origin: sim.origin, token: 'grocery1', url }, 'blocked-once outdoor', 1, 'search', nextPage(url, 'page', 2)));
  });

  test('gleaner serve refuses a targets file with an unknown placeholder, naming the file and the token', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gleaner-targets-'));
    try {
      const file = join(dir, 'targets.json');
      writeFileSync(file, JSON.stringify({ ...targets, grocery1: { baseUrl: `${sim.origin}/grocery1`, templates: { search: '/search?q={query}&store={stor_id}' } } }));
      const r = await new Promise<{ code: number | null; stderr: string }>((done) =>
        execFile(
          process.execPath,
          ['--import', 'tsx', join(root, 'gateway/cli.ts'), 'serve'],
          { cwd: root, env: { ...process.env, GLEANER_DATA_DIR: join(dir, 'data'), GLEANER_PORT: '0', GLEANER_TARGETS: file }, encoding: 'utf8', timeout: 30_000 },
          (err, _stdout, stderr) => done({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stderr }),
        ),
      );
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        'gleaner: the targets file has problems:\n' +
          `  ${file}: target "grocery1": template "search" names an unknown placeholder {stor_id}; known: brand, delivery_zip, domain, fulfillment_type, location, price_range, query, store_id, subdomain\n`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 40_000);
});

describe('the default convention', () => {
  test('a token with only a baseUrl: {base}/{route}?query=... with the other parameters sorted, page=N', async () => {
    await gw.server.reload({ targets: { ...targets, mkt2: { baseUrl: `${sim.origin}/mkt2` }, bigbox1: { baseUrl: `${sim.origin}/bigbox1` } }, proxies: {}, storage: {} });
    const search = await postJson(gw, '/v1/scrape/bigbox1/search', { query: 'outdoor', store_id: 'S2', sort_by: 'price_low', min_price: 5, domain: 'de', start_page: 2, output: ['json'] });
    const product = await postJson(gw, '/v1/scrape/mkt2/product', { query: 'P1003', domain: 'fr', output: ['json'] });
    const page = await postJson(gw, '/v1/scrape/mkt2', { url: `${sim.origin}/mkt2/item/P1002?ref=x`, output: ['json'] });
    const url = '/bigbox1/search?query=outdoor&domain=de&min_price=5&sort_by=price_low&store_id=S2&page=2';
    const expected = [url, '/mkt2/product?query=P1003&domain=fr', '/mkt2/item/P1002?ref=x'];
    expect(await seenAt(expected)).toEqual(expected.sort().map((u) => up(u)));
    expect(search.body.results[0].json).toEqual(listingJson({ origin: sim.origin, token: 'bigbox1', url: sim.origin + url, store: 'S2' }, 'outdoor', 2, 'search', null));
    expect(product.body.results[0].json).toEqual(productJson({ origin: sim.origin, token: 'mkt2', url: `${sim.origin}/mkt2/product?query=P1003&domain=fr` }, 'P1003'));
    expect(page.body.results[0].json).toEqual(productJson({ origin: sim.origin, token: 'mkt2', url: `${sim.origin}/mkt2/item/P1002?ref=x` }, 'P1002'));
  });
});
