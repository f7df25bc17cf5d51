/**
 * The marketplace mkt1 through the HTTP API, with the real farm (Chromium for run_js) and the
 * simulator as the storefront: each of the six routes in sync, async and batch mode with the
 * exact upstream requests and the catalogue's JSON; pages and start_page (one result, one fetch
 * and one charge per page); the delivery-location flow (handshake, the postal code shown, the
 * session reused, run_js), check_empty_geo failures that are not charged, a postal code of
 * another marketplace, currency, locale, and a robot check retried then returned as blocked.
 *
 * Tests that run concurrently use upstream URLs no other test uses; the location tests, whose
 * handshake requests look alike, run one at a time and read the log from where they started.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADDRESS_CHANGE_PATH, FRAGMENT_PATH } from '../../core/targets/mkt1/location.js';
import { bestsellerCard, deskLampPage, lumenSellerPage, offer, searchCard } from '../helpers/mkt1-expected.js';
import { call, postJson, startGateway, type HttpAnswer, type TestGateway } from '../helpers/gateway.js';
import { convert } from '../sites/mkt1-data.js';
import { startSimulator, type Simulator } from '../sites/server.js';
import { until } from '../helpers/wait.js';

type J = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let sim: Simulator;
let gw: TestGateway;

beforeAll(async () => {
  sim = await startSimulator();
  gw = await startGateway({ targets: { mkt1: { baseUrl: `${sim.origin}/mkt1/{domain}` } } });
});
afterAll(async () => {
  await gw?.close();
  await sim?.close();
});

const handshake = (domain = 'com') => [`GET /mkt1/${domain}${FRAGMENT_PATH}`, `POST /mkt1/${domain}${ADDRESS_CHANGE_PATH}`];

/** The simulator's log lines that are one of `lines`, in arrival order. */
const logged = (...lines: string[]) => sim.log.filter((l) => lines.includes(l));

/** The storefront requests logged since `from` (a length of the log). */
const since = (from: number) => sim.log.slice(from).filter((l) => / \/mkt1\//.test(l));

const meta = (url: string, page = 1, extra: J = {}) => ({ page, run_js: false, url, status_code: 200, json_source: 'builtin', parse_status: 'parsed', ...extra });

async function collect(id: string): Promise<J> {
  return until(async () => {
    const job = (await call(`${gw.url}/v1/async/scrape/${id}`, { headers: gw.auth })).body as J;
    return job.status !== 'pending' && job;
  }, `job ${id} to finish`, 30_000);
}

/** An account of its own (Web API key and Job API user), so that its charges can be counted exactly. */
async function account(name: string) {
  const acct = await gw.server.store.accounts.createAccount({ name });
  const { key } = await gw.server.store.accounts.createKey(acct.clientId);
  await gw.server.store.accounts.createUser(acct.clientId, name, `${name}-password`);
  return {
    auth: { authorization: `Bearer ${key}` },
    /** Pages charged today, once they reach `n` (charging is committed just after the answer leaves). */
    async charged(n: number): Promise<number> {
      // Waits for at least `n`, then returns what is charged (more than `n` fails the caller's assertion).
      await until(() => gw.server.store.quotas.usageOf(acct.clientId).pages_day >= n, `${n} pages charged to ${name}`, 10_000, 10);
      return gw.server.store.quotas.usageOf(acct.clientId).pages_day;
    },
    /** `/v2/stats` of the account: pages per source. */
    async sources(): Promise<Record<string, number>> {
      const s = await call(`${gw.server.dataUrl}/v2/stats`, { headers: { authorization: `Basic ${Buffer.from(`${name}:${name}-password`).toString('base64')}` } });
      return Object.fromEntries((s.body as J).data.products.flatMap((p: J) => p.sources.map((x: J) => [x.title, x.all_count])));
    },
  };
}

describe.concurrent('the six routes', () => {
  test('mkt1/product: GET /dp/<id>, the product page with every field', async () => {
    const a = await postJson(gw, '/v1/scrape/mkt1/product', { query: 'B0SIMLMP01', output: ['json'] });
    const url = `${sim.origin}/mkt1/com/dp/B0SIMLMP01`;
    expect(logged('GET /mkt1/com/dp/B0SIMLMP01')).toHaveLength(1);
    expect(a.body).toEqual({
      status: 200,
      results: [{ html: null, markdown: null, screenshot: null, json: deskLampPage(url), metadata: meta(url) }],
      params: { query: 'B0SIMLMP01', domain: 'com', output: ['json'], json: null, location: null, device: 'desktop', run_js: false },
      metadata: { timestamp: expect.any(Number), request_id: expect.stringMatching(/^\d{19}$/) },
    });
  });

  test('mkt1/search: category, price range in cents, refinement, merchant, sort and safe_search on the wire, and their effect', async () => {
    const a = await postJson(gw, '/v1/scrape/mkt1/search', {
      query: 'lamp', category_id: '1000001', min_price: 10, max_price: 30, refinement: 'p_123:lumen', merchant_id: 'A1SIMSELLER01', sort_by: 'price_asc', safe_search: false, output: ['json'],
    });
    const path = '/mkt1/com/s?k=lamp&rh=n%3A1000001%2Cp_36%3A1000-3000%2Cp_123%3Alumen&me=A1SIMSELLER01&s=price-asc-rank&safe_search=false';
    expect(logged(`GET ${path}`)).toHaveLength(1);
    const [r] = a.body.results;
    expect(r.metadata).toEqual(meta(sim.origin + path));
    expect([r.json.query, r.json.page, r.json.pages, r.json.last_visible_page, r.json.total_results_count]).toEqual(['lamp', 1, 1, 1, 2]);
    // Lumen's lamps of that node between 10 and 30 dollars sold by Lumen Goods, cheapest first; the sponsored card on top.
    expect(r.json.results).toEqual({
      paid: [searchCard('B0SIMLMP01', 1, 'lamp', { paid: true })],
      organic: [searchCard('B0SIMLMP05', 1, 'lamp'), searchCard('B0SIMLMP01', 2, 'lamp')],
      suggested: [],
      choice_picks: [],
      instant_recommendations: [],
    });
  });

  test('mkt1/pricing: the all-offers fragment, filtered by condition', async () => {
    const a = await postJson(gw, '/v1/scrape/mkt1/pricing', { query: 'B0SIMLMP01', condition: 'new', output: ['json'] });
    const path = `/mkt1/com/gp/aod/ajax?asin=B0SIMLMP01&pageno=1&filters=${encodeURIComponent('{"all":true,"new":true}')}`;
    expect(logged(`GET ${path}`)).toHaveLength(1);
    expect(a.body.results[0].json).toEqual({
      url: sim.origin + path, title: 'Lumen Desk Lamp with USB Charging Port, Warm White', product_id: 'B0SIMLMP01', product_id_in_url: 'B0SIMLMP01', page: 1, review_count: 1234, rating: 4.5,
      pricing: [
        offer('B0SIMLMP01', 29.99, 0, 'Lumen Goods', 'A1SIMSELLER01', 1, 1200, 'New', 'Amazon'),
        offer('B0SIMLMP01', 30.99, 4.99, 'Kettle Corner', 'A2SIMSELLER02', 2, 310, 'New', 'Kettle Corner'),
      ],
      parse_status_code: 12000,
    });
  });

  test('mkt1/sellers: GET /sp?seller=<id>, the whole profile', async () => {
    const a = await postJson(gw, '/v1/scrape/mkt1/sellers', { query: 'A1SIMSELLER01', output: ['json'] });
    const url = `${sim.origin}/mkt1/com/sp?seller=A1SIMSELLER01`;
    expect(logged('GET /mkt1/com/sp?seller=A1SIMSELLER01')).toHaveLength(1);
    expect(a.body.results).toEqual([{ html: null, markdown: null, screenshot: null, json: lumenSellerPage(url), metadata: meta(url) }]);
  });

  test('mkt1/bestsellers: a category, and a browse node of it', async () => {
    const [cat, node] = await Promise.all([
      postJson(gw, '/v1/scrape/mkt1/bestsellers', { query: 'lighting', output: ['json'] }),
      postJson(gw, '/v1/scrape/mkt1/bestsellers', { query: 'lighting', category_id: '1000001', output: ['json'] }),
    ]);
    expect(logged('GET /mkt1/com/gp/bestsellers/lighting', 'GET /mkt1/com/gp/bestsellers/lighting/1000001').sort()).toEqual([
      'GET /mkt1/com/gp/bestsellers/lighting',
      'GET /mkt1/com/gp/bestsellers/lighting/1000001',
    ]);
    const top = [bestsellerCard('B0SIMLMP05', 1, 'lighting'), bestsellerCard('B0SIMLMP01', 2, 'lighting'), bestsellerCard('B0SIMLMP03', 3, 'lighting')];
    const page = (path: string, title: string) => ({ url: sim.origin + path, query: 'lighting', page: 1, page_type: 'Bestsellers', title, results: top, parse_status_code: 12000 });
    expect(cat.body.results[0].json).toEqual(page('/mkt1/com/gp/bestsellers/lighting', 'Best Sellers in Lighting'));
    expect(node.body.results[0].json).toEqual(page('/mkt1/com/gp/bestsellers/lighting/1000001', 'Best Sellers in Desk Lamps'));
  });

  test('mkt1 by URL: the URL as given, parsed by the parser its path names (a batch of five kinds, and async)', async () => {
    const o = `${sim.origin}/mkt1/com`;
    const urls = [`${o}/Lumen-Floor-Lamp/dp/B0SIMLMP02`, `${o}/s?k=kettle`, `${o}/gp/aod/ajax?asin=B0SIMKTL01`, `${o}/sp?seller=A2SIMSELLER02`, `${o}/zgbs/kitchen`];
    const a = await postJson(gw, '/v1/async/scrape/batch/mkt1', { url: urls, output: ['json'] });
    expect(a.status).toBe(202);
    const jobs = await Promise.all(a.body.data.map((d: J) => collect(d.metadata.request_id)));
    expect(jobs.map((j) => [j.status, j.results[0].metadata.parse_status])).toEqual(urls.map(() => ['done', 'parsed']));
    const [prod, search, pricing, seller, best] = jobs.map((j) => j.results[0].json);
    expect([prod.page_type, prod.product_id, prod.title, prod.price]).toEqual(['Product', 'B0SIMLMP02', 'Lumen Floor Lamp, Dimmable, Black', 59.5]);
    expect(search.results).toEqual({ paid: [], organic: [searchCard('B0SIMKTL01', 1, 'kettle')], suggested: [], choice_picks: [], instant_recommendations: [] });
    // The fragment's page number is set on the URL; the buybox offer is pinned on page 1.
    expect(pricing.url).toBe(`${o}/gp/aod/ajax?asin=B0SIMKTL01&pageno=1`);
    expect(pricing.pricing.map((x: J) => [x.seller, x.price, x.condition])).toEqual([['Kettle Corner', 34, 'New'], ['Lumen Goods', 35, 'New'], ['Trail Outfitters', 23.8, 'Used - Like New']]);
    expect([seller.page_type, seller.seller_name, seller.business_name]).toEqual(['Seller', 'Kettle Corner', 'Kettle Corner GmbH']);
    expect([best.page_type, best.title, best.results]).toEqual(['Bestsellers', 'Best Sellers in Kitchen', [bestsellerCard('B0SIMKTL01', 1, 'kitchen')]]);
    const paths = ['/Lumen-Floor-Lamp/dp/B0SIMLMP02', '/s?k=kettle', '/gp/aod/ajax?asin=B0SIMKTL01&pageno=1', '/sp?seller=A2SIMSELLER02', '/zgbs/kitchen'].map((p) => `GET /mkt1/com${p}`);
    expect(logged(...paths).sort()).toEqual([...paths].sort());

    const body = { url: `${o}/sp?seller=A3SIMSELLER03`, output: ['json'] };
    const sync = await postJson(gw, '/v1/scrape/mkt1', body);
    const job = await collect((await postJson(gw, '/v1/async/scrape/mkt1', body)).body.metadata.request_id);
    expect([job.status, job.results, sync.body.results[0].json.seller_name]).toEqual(['done', sync.body.results, 'Trail Outfitters']);
  });
});

describe.concurrent('async and batch give what sync gives', () => {
  // `language=en_CA` marks these requests: the English storefront, URLs no other test asks for.
  const cases = [
    ['mkt1/product', 'B0SIMLMP05', 'B0SIMLMP06', 'product_id', (q: string) => `/dp/${q}?language=en_CA`],
    ['mkt1/search', 'desk', 'kettle', 'query', (q: string) => `/s?k=${q}&language=en_CA`],
    ['mkt1/pricing', 'B0SIMLMP02', 'B0SIMKTL01', 'product_id', (q: string) => `/gp/aod/ajax?asin=${q}&pageno=1&language=en_CA`],
    ['mkt1/sellers', 'A2SIMSELLER02', 'A3SIMSELLER03', 'query', (q: string) => `/sp?seller=${q}&language=en_CA`],
    ['mkt1/bestsellers', 'kitchen', 'sports', 'query', (q: string) => `/gp/bestsellers/${q}?language=en_CA`],
  ] as const;

  test.each(cases)('%s', async (route, first, second, field, path) => {
    const body = { query: first, locale: 'en_CA', output: ['json'] };
    const sync = await postJson(gw, `/v1/scrape/${route}`, body);
    expect(sync.body.results[0].metadata).toEqual(meta(`${sim.origin}/mkt1/com${path(first)}`));
    const submitted = await postJson(gw, `/v1/async/scrape/${route}`, body);
    expect(submitted.status).toBe(202);
    const job = await collect(submitted.body.metadata.request_id);
    expect([job.status, job.results]).toEqual(['done', sync.body.results]);

    const batch = await postJson(gw, `/v1/async/scrape/batch/${route}`, { ...body, query: [first, second] });
    expect([batch.status, batch.body.data.map((d: J) => d.params.query)]).toEqual([202, [first, second]]);
    const [one, two] = await Promise.all(batch.body.data.map((d: J) => collect(d.metadata.request_id)));
    expect([one.status, one.results]).toEqual(['done', sync.body.results]);
    expect([two.status, two.results[0].metadata, two.results[0].json[field]]).toEqual(['done', meta(`${sim.origin}/mkt1/com${path(second)}`), second]);
    expect(logged(`GET /mkt1/com${path(first)}`)).toHaveLength(3);
    expect(logged(`GET /mkt1/com${path(second)}`)).toHaveLength(1);
  });
});

describe.concurrent('pages and parameters', () => {
  test('pages and start_page: one fetch, one result and one charged page per page', async () => {
    const acct = await account('pages');
    const [search, later, pricing, best] = await Promise.all([
      postJson(gw, '/v1/scrape/mkt1/search', { query: 'lamp', pages: 2, output: ['json'] }, acct.auth),
      postJson(gw, '/v1/scrape/mkt1/search', { query: 'light', start_page: 2, output: ['json'] }, acct.auth),
      postJson(gw, '/v1/scrape/mkt1/pricing', { query: 'B0SIMLMP01', pages: 3, output: ['json'] }, acct.auth),
      postJson(gw, '/v1/scrape/mkt1/bestsellers', { query: 'lighting', start_page: 2, output: ['json'] }, acct.auth),
    ]);
    expect(logged('GET /mkt1/com/s?k=lamp', 'GET /mkt1/com/s?k=lamp&page=2', 'GET /mkt1/com/s?k=light&page=2', 'GET /mkt1/com/gp/bestsellers/lighting?pg=2').sort()).toEqual([
      'GET /mkt1/com/gp/bestsellers/lighting?pg=2', 'GET /mkt1/com/s?k=lamp', 'GET /mkt1/com/s?k=lamp&page=2', 'GET /mkt1/com/s?k=light&page=2',
    ]);
    const aod = [1, 2, 3].map((n) => `/mkt1/com/gp/aod/ajax?asin=B0SIMLMP01&pageno=${n}`);
    expect(logged(...aod.map((p) => `GET ${p}`))).toHaveLength(3);

    expect(search.body.results.map((r: J) => [r.metadata.page, r.json.page, r.json.results.paid.map((c: J) => c.product_id), r.json.results.organic.map((c: J) => [c.pos, c.product_id])])).toEqual([
      [1, 1, ['B0SIMLMP01'], [[1, 'B0SIMLMP01'], [2, 'B0SIMLMP02'], [3, 'B0SIMLMP03'], [4, 'B0SIMLMP05']]],
      // `pos` counts on each page (the card's link names its place in the whole list, sr_1_5).
      [2, 2, [], [[1, 'B0SIMLMP06']]],
    ]);
    expect(later.body.results.map((r: J) => [r.metadata.page, r.json.results.organic])).toEqual([[2, [searchCard('B0SIMLMP06', 1, 'light', { rank: 5 })]]]);
    expect(best.body.results.map((r: J) => [r.metadata.page, r.json.results])).toEqual([[2, [bestsellerCard('B0SIMLMP02', 4, 'lighting'), bestsellerCard('B0SIMLMP06', 5, 'lighting')]]]);
    const [p1, p2, p3] = pricing.body.results as J[];
    expect(pricing.body.results.map((r: J) => r.metadata)).toEqual(aod.map((p, i) => meta(sim.origin + p, i + 1)));
    expect(p1!.json.pricing).toEqual([
      offer('B0SIMLMP01', 29.99, 0, 'Lumen Goods', 'A1SIMSELLER01', 0, 1200, 'New', 'Amazon'),
      offer('B0SIMLMP01', 30.99, 4.99, 'Kettle Corner', 'A2SIMSELLER02', 1, 310, 'New', 'Kettle Corner'),
      offer('B0SIMLMP01', 20.99, 0, 'Trail Outfitters', 'A3SIMSELLER03', 2, 58, 'Used - Like New', 'Trail Outfitters'),
    ]);
    expect(p2!.json.pricing).toEqual([offer('B0SIMLMP01', 17.99, 2.5, 'Lumen Goods', 'A1SIMSELLER01', 3, 1200, 'Used - Good', 'Amazon')]);
    // Past the last offer: an empty list with the reference service's warning.
    expect([p3!.json.product_id, p3!.json.pricing, p3!.json._warnings]).toEqual([null, [], ['Could not parse pricing information, because there are no available items.']]);

    expect(await acct.charged(7)).toBe(7);
    expect(await acct.sources()).toEqual({ mkt1_search: 3, mkt1_pricing: 3, mkt1_bestsellers: 1 });
  });

  test('a postal code of another marketplace is a 400 naming the field and the marketplace; nothing is fetched', async () => {
    const cases = [
      [{ query: 'B0SIMLMP04', domain: 'de', location: 'SW1A 1AA' }, 'must be a postal code of the de marketplace: a German postal code (5 digits), e.g. 10115 (got "SW1A 1AA")'],
      [{ query: 'B0SIMLMP04', location: 'K1A 0B1' }, 'must be a postal code of the com marketplace: a US ZIP code (5 digits, optionally -4 more), e.g. 10001 (got "K1A 0B1")'],
      [{ query: 'B0SIMLMP04', domain: 'co.uk', location: '10001' }, 'must be a postal code of the co.uk marketplace: a UK postcode (such as SW1A 1AA), e.g. SW1A 1AA (got "10001")'],
    ] as const;
    for (const [body, detail] of cases) {
      const a = await postJson(gw, '/v1/scrape/mkt1/product', body);
      expect([a.status, a.body.title, a.body.errors]).toEqual([400, 'VALIDATION_ERROR', [{ pointer: '#/location', detail }]]);
    }
    expect(sim.log.filter((l) => l.includes('B0SIMLMP04'))).toEqual([]);
  });

  test('currency: the i18n-prefs cookie, prices shown and parsed in that currency', async () => {
    const a = await postJson(gw, '/v1/scrape/mkt1/product', { query: 'B0SIMLMP02', currency: 'EUR', output: ['json'] });
    expect(logged('GET /mkt1/com/dp/B0SIMLMP02')).toHaveLength(1);
    expect([a.body.results[0].json.price, a.body.results[0].json.currency]).toEqual([convert(59.5, 'EUR'), 'EUR']);
  });

  test('locale: language=<ll_CC> on the wire; the de storefront then speaks English', async () => {
    const [en, de] = await Promise.all([
      postJson(gw, '/v1/scrape/mkt1/product', { query: 'B0SIMKTL01', domain: 'de', locale: 'en_GB', output: ['json'] }),
      postJson(gw, '/v1/scrape/mkt1/product', { query: 'B0SIMKTL01', domain: 'de', output: ['json'] }),
    ]);
    expect(logged('GET /mkt1/de/dp/B0SIMKTL01?language=en_GB', 'GET /mkt1/de/dp/B0SIMKTL01').sort()).toEqual(['GET /mkt1/de/dp/B0SIMKTL01', 'GET /mkt1/de/dp/B0SIMKTL01?language=en_GB']);
    const facts = (a: HttpAnswer) => [a.body.results[0].json.price, a.body.results[0].json.currency, a.body.results[0].json.stock, a.body.results[0].json.delivery[0].type];
    expect(facts(en)).toEqual([30.6, 'EUR', 'In Stock', 'FREE delivery']);
    expect(facts(de)).toEqual([30.6, 'EUR', 'Auf Lager', 'GRATIS Lieferung']);
  });

  test('a robot check is retried, then once in the browser (mkt1 escalates), then returned with parse_status blocked, and not charged', async () => {
    const acct = await account('walled');
    const a = await postJson(gw, '/v1/scrape/mkt1/search', { query: '__captcha__ lamp', output: ['json'] }, acct.auth);
    const path = '/mkt1/com/s?k=__captcha__%20lamp';
    // Three plain attempts, then the browser's: the wall it met is what is returned.
    expect(logged(`GET ${path}`)).toHaveLength(4);
    expect([a.status, a.body.results]).toEqual([200, [{ html: null, markdown: null, screenshot: null, json: null, metadata: meta(sim.origin + path, 1, { parse_status: 'blocked', run_js: true }) }]]);
    // The next request is charged; the wall was not.
    const good = await postJson(gw, '/v1/scrape/mkt1/search', { query: 'lamp' }, acct.auth);
    expect(good.status).toBe(200);
    expect(await acct.charged(1)).toBe(1);
  });
});

describe('layout drift', () => {
  test('a results page whose cards the parser does not know: partial, the missing section named, counted in /metrics and /v1/status', async () => {
    const a = await postJson(gw, '/v1/scrape/mkt1/search', { query: '__drift__ lamp', output: ['json'] });
    const path = '/mkt1/com/s?k=__drift__%20lamp';
    expect(a.body.results.map((r: J) => [r.metadata, r.json.results.organic, r.json.parse_status_code])).toEqual([
      [meta(sim.origin + path, 1, { parse_status: 'partial', missing_sections: ['results'] }), [], 12004],
    ]);
    const m = await call(`${gw.url}/metrics`, { headers: gw.auth });
    expect(m.text).toMatch(/^gleaner_parse_status_total\{route="mkt1\/search",status="partial"\} [1-9]\d*$/m);
    expect(m.text).toMatch(/^gleaner_parse_status_total\{route="mkt1\/search",status="parsed"\} [1-9]\d*$/m);
    const status = (await call(`${gw.url}/v1/status`, { headers: gw.auth })).body as J;
    const row = (status.parse_status as J[]).find((r) => r.route === 'mkt1/search');
    expect(row?.partial).toBeGreaterThanOrEqual(1);
    expect(row?.parsed).toBeGreaterThanOrEqual(1);
  });
});

describe('the delivery location', () => {
  test('the handshake, then the page shows the postal code and the regional buybox', async () => {
    const before = await postJson(gw, '/v1/scrape/mkt1/product', { query: 'B0SIMLMP03', output: ['json'] });
    expect([before.body.results[0].json.price, before.body.results[0].json.price_buybox, before.body.results[0].json.stock]).toEqual([0, -1, '']);
    const from = sim.log.length;
    const a = await postJson(gw, '/v1/scrape/mkt1/product', { query: 'B0SIMLMP03', location: '10001', output: ['json', 'html'] });
    expect(since(from)).toEqual([...handshake(), 'GET /mkt1/com/dp/B0SIMLMP03']);
    const [r] = a.body.results;
    expect([r.json.price, r.json.price_buybox, r.json.stock]).toEqual([15.25, 15.25, 'In Stock']);
    expect(r.html).toContain('<span class="nav-line-1 nav-progressive-content" id="glow-ingress-line1"> Delivering to New York 10001 </span>');
    expect(a.body.params.location).toBe('10001');
  });

  test('the session is reused across pages and requests of the same marketplace and postal code', async () => {
    const from = sim.log.length;
    const search = await postJson(gw, '/v1/scrape/mkt1/search', { query: 'reading', location: '10001', pages: 2, output: ['json'] });
    const product = await postJson(gw, '/v1/scrape/mkt1/product', { query: 'B0SIMLMP03', location: '10001', output: ['json'] });
    expect(since(from)).toEqual(['GET /mkt1/com/s?k=reading', 'GET /mkt1/com/s?k=reading&page=2', 'GET /mkt1/com/dp/B0SIMLMP03']);
    expect(search.body.results.map((r: J) => [r.metadata.page, r.json.results.organic])).toEqual([[1, [searchCard('B0SIMLMP03', 1, 'reading')]], [2, []]]);
    expect(product.body.results[0].json.price).toBe(15.25);
  });

  test('another marketplace: its own session, its delivery line', async () => {
    const from = sim.log.length;
    const a = await postJson(gw, '/v1/scrape/mkt1/product', { query: 'B0SIMLMP03', domain: 'de', location: '10115', output: ['json', 'html'] });
    expect(since(from)).toEqual([...handshake('de'), 'GET /mkt1/de/dp/B0SIMLMP03']);
    expect([a.body.results[0].json.price, a.body.results[0].json.currency, a.body.results[0].json.stock]).toEqual([convert(15.25, 'EUR'), 'EUR', 'Auf Lager']);
    expect(a.body.results[0].html).toContain('id="glow-ingress-line2"> Berlin 10115 </span>');
  });

  test('pricing: the all-offers fragment has no header, so the session reads the delivery line once from the home page', async () => {
    const from = sim.log.length;
    const a = await postJson(gw, '/v1/scrape/mkt1/pricing', { query: 'B0SIMLMP05', location: '10002', check_empty_geo: true, output: ['json'] });
    expect(since(from)).toEqual([...handshake(), 'GET /mkt1/com/', 'GET /mkt1/com/gp/aod/ajax?asin=B0SIMLMP05&pageno=1']);
    expect([a.status, a.body.results[0].json.pricing.length]).toEqual([200, 3]);
  });

  test('run_js: the session and the currency cookie reach the browser', async () => {
    const from = sim.log.length;
    const a = await postJson(gw, '/v1/scrape/mkt1/product', { query: 'B0SIMLMP06', location: '10003', currency: 'EUR', run_js: true, output: ['json', 'html'] });
    expect(since(from)).toEqual([...handshake(), 'GET /mkt1/com/dp/B0SIMLMP06']);
    const [r] = a.body.results;
    expect([r.metadata.run_js, r.metadata.parse_status, r.json.price, r.json.currency]).toEqual([true, 'parsed', convert(19.99, 'EUR'), 'EUR']);
    expect(r.html).toContain('Delivering to New York 10003');
  });

  test('check_empty_geo: a location the page does not show, or none at all, fails naming both, and is not charged', async () => {
    const acct = await account('geo');
    let from = sim.log.length;
    // An all-zero code is the storefront's false success: "updated", not applied. Each attempt starts a fresh session.
    const wrong = await postJson(gw, '/v1/scrape/mkt1/product', { query: 'B0SIMKTL01', location: '00000', check_empty_geo: true }, acct.auth);
    expect(since(from)).toEqual([1, 2, 3].flatMap(() => [...handshake(), 'GET /mkt1/com/dp/B0SIMKTL01']));
    expect([wrong.status, wrong.headers.get('content-type'), wrong.body.title, wrong.body.detail]).toEqual([
      500, 'application/problem+json', 'REQUEST_FAILED_AFTER_MANY_RETRIES',
      'The location was not applied: wanted delivery to 00000 (com), the page shows "Deliver to United States" although the address change answered isAddressUpdated 1',
    ]);
    from = sim.log.length;
    const none = await postJson(gw, '/v1/scrape/mkt1/product', { query: 'B0SIMKTL01', check_empty_geo: true }, acct.auth);
    expect(since(from)).toEqual(['GET /mkt1/com/dp/B0SIMKTL01']);
    expect([none.status, none.body.title, none.body.detail]).toEqual([
      500, 'REQUEST_FAILED_AFTER_MANY_RETRIES', 'check_empty_geo is set but no location was given: the page shows "Deliver to United States"; give location (a postal code of the com marketplace)',
    ]);
    const good = await postJson(gw, '/v1/scrape/mkt1/product', { query: 'B0SIMKTL01', location: '10004', check_empty_geo: true, output: ['json'] }, acct.auth);
    expect([good.status, good.body.results[0].json.price]).toEqual([200, 34]);
    // Only the good request is charged.
    expect(await acct.charged(1)).toBe(1);
    expect(await acct.sources()).toEqual({ mkt1_product: 1 });
  });

  test('without check_empty_geo, a location that never applies is retried, then the page is returned as shown', async () => {
    const from = sim.log.length;
    const a = await postJson(gw, '/v1/scrape/mkt1/sellers', { query: 'A3SIMSELLER03', location: '00000', output: ['json', 'html'] });
    expect(since(from)).toEqual([1, 2, 3].flatMap(() => [...handshake(), 'GET /mkt1/com/sp?seller=A3SIMSELLER03']));
    expect([a.status, a.body.results[0].metadata.parse_status, a.body.results[0].json.seller_name]).toEqual([200, 'parsed', 'Trail Outfitters']);
    expect(a.body.results[0].html).toContain('id="glow-ingress-line1"> Deliver to </span>');
  });
});
