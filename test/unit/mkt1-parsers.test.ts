/**
 * mkt1 parsers on pages served by the simulator (port 0): exact JSON per page kind, the
 * storefront parameters' effects as the parsers see them, the `mkt1` (url) dispatch, strange
 * pages (never a throw: `blocked` or `unrecognised`), and every output against its schema.
 */
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PARSERS } from '../../core/targets/mkt1/parsers.js';
import { brandOf } from '../../core/targets/mkt1/product.js';
import { OUTPUT_SCHEMAS } from '../../core/targets/mkt1/schemas.js';
import { deskLampPage } from '../helpers/mkt1-expected.js';
import { mulberry32 } from '../helpers/random.js';
import { startSimulator, type Simulator } from '../sites/server.js';

type J = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());

const seen: { route: string; json: unknown }[] = [];

async function fetchPage(path: string, cookie?: string) {
  const res = await fetch(sim.origin + path, { headers: cookie ? { cookie } : {} });
  return { status: res.status, html: await res.text(), url: sim.origin + path };
}

async function parse(route: string, path: string, params: Record<string, unknown> = {}, cookie?: string) {
  const page = await fetchPage(path, cookie);
  const parsed = PARSERS[route]!({ html: page.html, url: page.url, page: Number(params.page ?? 1), params });
  seen.push({ route, json: parsed.json });
  return { status: page.status, parsed, json: parsed.json as J };
}

const ids = (items: J[]) => items.map((i) => i.product_id);

describe('product page', () => {
  it('every field of the reference shape, exactly', async () => {
    const { parsed } = await parse('mkt1/product', '/mkt1/com/dp/B0SIMLMP01');
    expect(parsed).toEqual({ status: 'parsed', json: deskLampPage(`${sim.origin}/mkt1/com/dp/B0SIMLMP01`) });
  });

  it('a parent shows its variations and no buybox; th=1&psc=1 selects the default variation', async () => {
    const parent = (await parse('mkt1/product', '/mkt1/com/dp/B0SIMCMP00')).json;
    const matrix = [['B0SIMCMP01', 'Small', 'Brass'], ['B0SIMCMP02', 'Large', 'Brass'], ['B0SIMCMP03', 'Large', 'Silver']];
    expect([parent.product_id, parent.parent_product_id, parent.price, parent.price_buybox, parent.buybox, parent.featured_merchant]).toEqual(['B0SIMCMP00', 'B0SIMCMP00', 0, -1, [], []]);
    expect(parent.variation).toEqual(matrix.map(([id, size, color]) => ({ product_id: id, selected: false, dimensions: { Size: size, Color: color } })));
    expect(parent.pricing_url).toBe('/gp/offer-listing/B0SIMCMP00/ref=dp_olp_unknown_mbc');
    const chosen = (await parse('mkt1/product', '/mkt1/com/dp/B0SIMCMP00?th=1&psc=1')).json;
    expect([chosen.product_id, chosen.parent_product_id, chosen.price, chosen.price_buybox]).toEqual(['B0SIMCMP01', 'B0SIMCMP00', 9.5, 9.5]);
    expect(chosen.variation.map((v: J) => v.selected)).toEqual([true, false, false]);
  });

  it('a regional product has no buybox before a delivery postal code is set', async () => {
    const { json } = await parse('mkt1/product', '/mkt1/com/dp/B0SIMLMP03');
    expect([json.price, json.price_buybox, json.stock, json.delivery, json.pricing_count, json.pricing_url]).toEqual([0, -1, '', [], 0, '/gp/offer-listing/B0SIMLMP03/ref=dp_olp_unknown_mbc']);
  });

  it('German words and euro prices of the de marketplace; English words with language=en_GB', async () => {
    const de = (await parse('mkt1/product', '/mkt1/de/dp/B0SIMKTL01', { domain: 'de' })).json;
    expect([de.price, de.price_strikethrough, de.currency, de.stock, de.rating, de.reviews_count, de.delivery[0].type]).toEqual([30.6, null, 'EUR', 'Auf Lager', 4.3, 5136, 'GRATIS Lieferung']);
    const en = (await parse('mkt1/product', '/mkt1/de/dp/B0SIMKTL01?language=en_GB', { domain: 'de' })).json;
    expect([en.price, en.currency, en.stock, en.reviews_count]).toEqual([30.6, 'EUR', 'In Stock', 5136]);
  });

  it('an unknown product is the 404 page, not a product', async () => {
    const { status, parsed } = await parse('mkt1/product', '/mkt1/com/dp/B000000000');
    expect([status, parsed.status, (parsed.json as J).parse_status_code]).toEqual([404, 'unrecognised', 12002]);
  });
});

describe('search page', () => {
  it('paid and organic cards, count, last page and refinements, exactly', async () => {
    const { json, parsed } = await parse('mkt1/search', '/mkt1/com/s?k=lamp');
    expect(parsed.status).toBe('parsed');
    const item = {
      pos: 1, url: '/Lumen-Desk-Lamp-with-USB-Charging-Port/dp/B0SIMLMP01/ref=sr_1_1?keywords=lamp&qid=1700000000&sr=8-1', product_id: 'B0SIMLMP01',
      title: 'Lumen Desk Lamp with USB Charging Port, Warm White', price: 29.99, price_upper: 29.99, price_strikethrough: 39.99, currency: 'USD', rating: 4.5, reviews_count: 1234,
      url_image: 'https://images.sim.example/images/I/B0SIMLMP01-1._AC_UY218_.jpg', is_prime: false, is_sponsored: false, is_choice: false, best_seller: false, manufacturer: '',
      pricing_count: 0, sales_volume: '1K+ bought in past month', shipping_information: 'FREE delivery Fri, Jun 27', coupon_discount: null, coupon_discount_type: null,
      no_price_reason: null, variations: [],
    };
    expect(json.results.organic[0]).toEqual(item);
    expect(json.results.paid).toEqual([{ ...item, url: '/sspa/click?ie=UTF8&spc=SIM1&url=%2FLumen-Desk-Lamp-with-USB-Charging-Port%2Fdp%2FB0SIMLMP01%2Fref%3Dsr_1_1_sspa', is_sponsored: true, rel_pos: 1, is_video: false }]);
    expect(json.results.organic.map((i: J) => [i.pos, i.product_id, i.price])).toEqual([[1, 'B0SIMLMP01', 29.99], [2, 'B0SIMLMP02', 59.5], [3, 'B0SIMLMP03', 15.25], [4, 'B0SIMLMP05', 12.99]]);
    expect([json.url, json.query, json.page, json.pages, json.last_visible_page, json.total_results_count, json.parse_status_code]).toEqual([`${sim.origin}/mkt1/com/s?k=lamp`, 'lamp', 1, 1, 2, 5, 12000]);
    expect([json.results.suggested, json.results.choice_picks, json.results.instant_recommendations]).toEqual([[], [], []]);
    expect(json.refinements.price).toEqual([
      ['p_36:-1500', 'Up to 15'], ['p_36:1500-3000', '15 to 30'], ['p_36:3000-', '30 & above'],
    ].map(([value, name]) => ({ link: `/mkt1/com/s?k=lamp&rh=${encodeURIComponent(value!)}`, name, value, refinement_display_name: 'Price' })));
    expect(json.refinements.brands.map((r: J) => r.value)).toEqual(['p_123:lumen', 'p_123:brightly', 'p_123:nightowl', 'p_123:kettle-corner', 'p_123:trail-outfitters']);
  });

  it('page 2, sort, price refinement in cents, merchant, category, safe_search', async () => {
    const page2 = (await parse('mkt1/search', '/mkt1/com/s?k=lamp&page=2', { page: 2 })).json;
    expect([ids(page2.results.organic), page2.results.paid, page2.page, page2.last_visible_page]).toEqual([['B0SIMLMP06'], [], 2, 2]);
    expect(ids((await parse('mkt1/search', '/mkt1/com/s?k=lamp&s=price-asc-rank')).json.results.organic)).toEqual(['B0SIMLMP05', 'B0SIMLMP03', 'B0SIMLMP06', 'B0SIMLMP01']);
    expect(ids((await parse('mkt1/search', '/mkt1/com/s?k=lamp&rh=p_36%3A-1525')).json.results.organic)).toEqual(['B0SIMLMP03', 'B0SIMLMP05']);
    expect(ids((await parse('mkt1/search', '/mkt1/com/s?k=lamp&me=A3SIMSELLER03')).json.results.organic)).toEqual(['B0SIMLMP03', 'B0SIMLMP06']);
    expect(ids((await parse('mkt1/search', '/mkt1/com/s?k=lamp&safe_search=false&me=A3SIMSELLER03')).json.results.organic)).toEqual(['B0SIMLMP03', 'B0SIMLMP04', 'B0SIMLMP06']);
    const kettles = (await parse('mkt1/search', '/mkt1/com/s?k=kettle&rh=n%3A2000002')).json;
    expect([ids(kettles.results.organic), kettles.total_results_count, kettles.last_visible_page]).toEqual([['B0SIMKTL01'], 1, 1]);
  });

  it('German counts and euro prices; a preferred currency; no results', async () => {
    const de = (await parse('mkt1/search', '/mkt1/de/s?k=kettle', { domain: 'de' })).json;
    expect([de.total_results_count, de.results.organic[0].price, de.results.organic[0].currency, de.results.organic[0].reviews_count, de.results.organic[0].rating]).toEqual([1, 30.6, 'EUR', 5136, 4.3]);
    const gbp = (await parse('mkt1/search', '/mkt1/com/s?k=kettle', { currency: 'GBP' }, 'i18n-prefs=GBP')).json;
    expect([gbp.results.organic[0].price, gbp.results.organic[0].currency]).toEqual([27.2, 'GBP']);
    const none = await parse('mkt1/search', '/mkt1/com/s?k=teapot');
    expect([none.parsed.status, none.json.total_results_count, none.json.results.organic]).toEqual(['parsed', 0, []]);
  });
});

describe('offers (all-offers fragment)', () => {
  const offer = (price: number, shipping: number, seller: string, id: string, n: number, ratings: number, condition: string, from: string) => ({
    price, price_shipping: shipping, currency: 'USD', seller, seller_id: id, seller_link: `/gp/aag/main?ie=UTF8&seller=${id}&asin=B0SIMLMP01&ref_=olp_merch_name_${n}`,
    rating_count: ratings, condition, delivery: `Ships from ${from}`,
    delivery_options: [{ type: shipping === 0 ? 'FREE delivery' : `$${shipping.toFixed(2)} delivery`, date: { by: 'Monday, June 30' } }],
  });

  it('page 1: the pinned buybox offer and the first list offers, exactly', async () => {
    const { parsed } = await parse('mkt1/pricing', '/mkt1/com/gp/aod/ajax?asin=B0SIMLMP01&pageno=1', { query: 'B0SIMLMP01' });
    expect(parsed).toEqual({
      status: 'parsed',
      json: {
        url: `${sim.origin}/mkt1/com/gp/aod/ajax?asin=B0SIMLMP01&pageno=1`, title: 'Lumen Desk Lamp with USB Charging Port, Warm White', product_id: 'B0SIMLMP01', product_id_in_url: 'B0SIMLMP01',
        page: 1, review_count: 1234, rating: 4.5,
        pricing: [
          offer(29.99, 0, 'Lumen Goods', 'A1SIMSELLER01', 0, 1200, 'New', 'Amazon'),
          offer(30.99, 4.99, 'Kettle Corner', 'A2SIMSELLER02', 1, 310, 'New', 'Kettle Corner'),
          offer(20.99, 0, 'Trail Outfitters', 'A3SIMSELLER03', 2, 58, 'Used - Like New', 'Trail Outfitters'),
        ],
        parse_status_code: 12000,
      },
    });
  });

  it('later pages, the condition filter, and a page past the last offer', async () => {
    const p2 = (await parse('mkt1/pricing', '/mkt1/com/gp/aod/ajax?asin=B0SIMLMP01&pageno=2', { query: 'B0SIMLMP01', page: 2 })).json;
    expect(p2.pricing.map((o: J) => [o.seller, o.condition, o.price, o.price_shipping])).toEqual([['Lumen Goods', 'Used - Good', 17.99, 2.5]]);
    const filters = encodeURIComponent('{"all":true,"new":true}');
    const onlyNew = (await parse('mkt1/pricing', `/mkt1/com/gp/aod/ajax?asin=B0SIMLMP01&pageno=1&filters=${filters}`, { query: 'B0SIMLMP01' })).json;
    expect(onlyNew.pricing.map((o: J) => o.condition)).toEqual(['New', 'New']);
    const past = await parse('mkt1/pricing', '/mkt1/com/gp/aod/ajax?asin=B0SIMLMP01&pageno=3', { query: 'B0SIMLMP01', page: 3 });
    expect([past.parsed.status, past.json.product_id, past.json.pricing, past.json._warnings]).toEqual(['parsed', null, [], ['Could not parse pricing information, because there are no available items.']]);
  });
});

describe('seller profile and bestsellers', () => {
  it('seller profile, exactly', async () => {
    const { parsed } = await parse('mkt1/sellers', '/mkt1/com/sp?seller=A1SIMSELLER01', { query: 'A1SIMSELLER01' });
    const pct = (a: number[]) => Object.fromEntries(['30_days', '90_days', '12_months', 'all_time'].map((k, i) => [k, `${a[i]}%`]));
    expect(parsed).toEqual({
      status: 'parsed',
      json: {
        url: `${sim.origin}/mkt1/com/sp?seller=A1SIMSELLER01`, query: 'A1SIMSELLER01', page_type: 'Seller', seller_name: 'Lumen Goods', business_name: 'Lumen Goods Ltd',
        business_address: '1 Harbour Road, Leeds, LS1 1AA, GB', description: 'Lamps and lights since 1999.', rating: 95,
        recent_feedback: [
          { feedback: 'Fast and as described', rated_by: 'By Cara on 2 June 2025.', rating_stars: 5 },
          { feedback: 'Arrived late', rated_by: 'By Dev on 30 May 2025.', rating_stars: 2 },
        ],
        feedback_summary_data: {},
        feedback_summary_table: { counts: { '30_days': 20, '90_days': 61, '12_months': 1200, all_time: 4321 }, positive: pct([90, 92, 95, 96]), neutral: pct([5, 3, 2, 2]), negative: pct([5, 5, 3, 2]) },
        products: [],
        parse_status_code: 12000,
      },
    });
  });

  it('a 2021+ seller page with its storefront grid: the products, sponsored cards left out', async () => {
    const { parsed } = await parse('mkt1/sellers', '/mkt1/com/sp?seller=A4SIMSELLER04', { query: 'A4SIMSELLER04' });
    const json = parsed.json as J;
    expect([parsed.status, json.seller_name, json.business_name, json.business_address, json.description, json.rating]).toEqual([
      'parsed', 'Brightside Home', 'Brightside Home LLC', '9 Canal Street, Portland, 97209, US', 'Home goods, shipped fast.', 93,
    ]);
    const product = (pos: number, id: string, title: string, slug: string, price: number, rating: number, reviews: number, strike: number | null = null) => ({
      pos, product_id: id, title, url: `/${slug}/dp/${id}/ref=sr_1_${pos}?keywords=&qid=1700000000&sr=8-${pos}`, price, price_strikethrough: strike, currency: 'USD',
      rating, reviews_count: reviews, url_image: `https://images.sim.example/images/I/${id}-1._AC_UY218_.jpg`, is_prime: false,
    });
    expect(json.products).toEqual([
      product(1, 'B0SIMKTL01', 'Kettle Corner Electric Kettle 1.7 L, Stainless Steel', 'Kettle-Corner-Electric-Kettle-1-7-L', 34, 4.3, 5136),
      product(2, 'B0SIMLMP02', 'Lumen Floor Lamp, Dimmable, Black', 'Lumen-Floor-Lamp', 59.5, 4.1, 87),
      product(3, 'B0SIMLMP05', 'Lumen Desk Lamp Mini, Battery Powered', 'Lumen-Desk-Lamp-Mini', 12.99, 4.7, 3021),
      product(4, 'B0SIMLMP06', 'Nightowl Bedside Lamp with Timer', 'Nightowl-Bedside-Lamp-with-Timer', 19.99, 4, 56),
    ]);
  });

  it('a store grid of id-carrying cards (no search-result cards) gives the products too', () => {
    const html =
      '<html><body><h1 id="seller-name">Grid Shop</h1><div id="seller-info-feedback-summary">88% positive in the last 12 months</div><ul class="grid">' +
      ['B0GRID0001', 'B0GRID0002'].map((id, i) =>
        `<li data-csa-c-item-id="amzn1.asin.1.${id}"><div class="ProductGridItem"><a href="/dp/${id}?ref=st"><img src="https://img.example/${id}.jpg" alt="Grid item ${i + 1}"></a>` +
        `<a href="/dp/${id}?ref=st" title="Grid item ${i + 1}, blue"><span>Grid item ${i + 1}</span></a><span class="a-price"><span class="a-offscreen">$${i + 1}9.99</span></span>` +
        `<i class="a-icon a-icon-star"><span class="a-icon-alt">4.${i} out of 5 stars</span></i></div></li>`).join('') +
      '</ul></body></html>';
    const json = PARSERS['mkt1/sellers']!({ html, url: 'https://www.amazon.com/sp?seller=A9GRID', page: 1, params: {} }).json as J;
    expect(json.products.map((p: J) => [p.pos, p.product_id, p.title, p.url, p.price, p.currency, p.rating])).toEqual([
      [1, 'B0GRID0001', 'Grid item 1, blue', '/dp/B0GRID0001?ref=st', 19.99, 'USD', 4],
      [2, 'B0GRID0002', 'Grid item 2, blue', '/dp/B0GRID0002?ref=st', 29.99, 'USD', 4.1],
    ]);
  });

  it("a storefront's product list names its seller with me=", () => {
    const json = PARSERS['mkt1/sellers']!({ html: '<html><body><div id="search"></div></body></html>', url: 'https://www.amazon.com/s?i=merchant-items&me=A2DP2EEPU3VU45', page: 1, params: {} }).json as J;
    expect(json.query).toBe('A2DP2EEPU3VU45');
  });

  it('bestsellers page 1 exactly; page 2; past the end 404; an unknown category', async () => {
    const { parsed } = await parse('mkt1/bestsellers', '/mkt1/com/gp/bestsellers/lighting', { query: 'lighting' });
    const item = (pos: number, id: string, title: string, slug: string, price: number, rating: number, count: number) => ({
      pos, product_id: id, title, url: `/${slug}/dp/${id}/ref=zg_bs_g_lighting_d_sccl_${pos}?psc=1`, price, price_upper: price, currency: 'USD', rating, ratings_count: count, is_prime: false,
      images: [`https://images.sim.example/images/I/${id}-1._AC_UL300_SR300,200_.jpg`],
    });
    expect(parsed).toEqual({
      status: 'parsed',
      json: {
        url: `${sim.origin}/mkt1/com/gp/bestsellers/lighting`, query: 'lighting', page: 1, page_type: 'Bestsellers', title: 'Best Sellers in Lighting',
        results: [
          item(1, 'B0SIMLMP05', 'Lumen Desk Lamp Mini, Battery Powered', 'Lumen-Desk-Lamp-Mini', 12.99, 4.7, 3021),
          item(2, 'B0SIMLMP01', 'Lumen Desk Lamp with USB Charging Port, Warm White', 'Lumen-Desk-Lamp-with-USB-Charging-Port', 29.99, 4.5, 1234),
          item(3, 'B0SIMLMP03', 'Reading Lamp Clip-On LED, 2 Pack', 'Reading-Lamp-Clip-On-LED', 15.25, 3.9, 410),
        ],
        parse_status_code: 12000,
      },
    });
    const p2 = (await parse('mkt1/bestsellers', '/mkt1/com/gp/bestsellers/lighting?pg=2', { page: 2 })).json;
    expect(p2.results.map((r: J) => [r.pos, r.product_id])).toEqual([[4, 'B0SIMLMP02'], [5, 'B0SIMLMP06']]);
    expect((await fetchPage('/mkt1/com/gp/bestsellers/lighting?pg=3')).status).toBe(404);
    const zgbs = (await parse('mkt1/bestsellers', '/mkt1/com/zgbs/lighting/1000001')).json;
    expect(zgbs.title).toBe('Best Sellers in Desk Lamps');
    const unknown = await parse('mkt1/bestsellers', '/mkt1/com/gp/bestsellers/nothing-here');
    expect([unknown.status, unknown.parsed.status, unknown.json.title, unknown.json.results]).toEqual([200, 'parsed', 'Best Sellers in undefined', []]);
  });
});

describe('the byline as a brand, in the storefronts\' languages', () => {
  it('strips the "visit the store" phrase and the brand label', () => {
    const lines = ['Brand: Versuni', 'Visit the UGREEN Store', 'Visita la tienda de Cecotec', 'Besuche den Anker-Store', 'by Mat Follas (Author)', 'ブランド: Anker', 'Ankerのストアを表示', 'Besök Anker-butiken', 'Anker Mağazasını ziyaret edin', 'Bezoek de Anker-winkel', 'Bestore'];
    expect(lines.map(brandOf)).toEqual(['Versuni', 'UGREEN', 'Cecotec', 'Anker', 'Mat Follas', 'Anker', 'Anker', 'Anker', 'Anker', 'Anker', 'Bestore']);
  });
});

describe('mkt1 by URL', () => {
  it('parses each page kind with the parser its URL names', async () => {
    for (const [route, path] of [
      ['mkt1/product', '/mkt1/com/Lumen-Desk-Lamp/dp/B0SIMLMP01/ref=sr_1_1'],
      ['mkt1/search', '/mkt1/com/s?k=lamp'],
      ['mkt1/pricing', '/mkt1/com/gp/aod/ajax?asin=B0SIMLMP01&pageno=1'],
      ['mkt1/sellers', '/mkt1/com/sp?seller=A1SIMSELLER01'],
      ['mkt1/bestsellers', '/mkt1/com/zgbs/lighting'],
    ] as const) {
      const page = await fetchPage(path);
      const input = { html: page.html, url: page.url, page: 1, params: {} };
      expect(PARSERS.mkt1!(input)).toEqual(PARSERS[route]!(input));
    }
  });

  it('a URL that names no page kind is parsed by what the page holds', async () => {
    const page = await fetchPage('/mkt1/com/s?k=lamp');
    const parsed = PARSERS.mkt1!({ html: page.html, url: 'https://short.example/abc', page: 1, params: {} });
    expect((parsed.json as J).results.organic.length).toBe(4);
  });
});

describe('strange pages', () => {
  const routes = Object.keys(PARSERS);

  it('the robot check is blocked on every route', async () => {
    const page = await fetchPage('/mkt1/com/s?k=__captcha__');
    for (const route of routes) expect(PARSERS[route]!({ html: page.html, url: page.url, page: 1, params: {} })).toEqual({ json: null, status: 'blocked' });
  });

  it('empty, non-HTML, foreign and cut pages are unrecognised or partial, never a throw', async () => {
    const product = (await fetchPage('/mkt1/com/dp/B0SIMLMP01')).html;
    const random = mulberry32(42);
    const cuts = Array.from({ length: 12 }, () => product.slice(0, Math.floor(random() * product.length)));
    const pages = ['', '   ', '{"items":[1,2]}', '<html><body><h1>Hello</h1></body></html>', '<div id="productTitle"', '\u0000\u0001<<<>>>', product.slice(0, product.indexOf('<div id="a-page">')), ...cuts];
    for (const route of routes) {
      for (const html of pages) {
        const out = PARSERS[route]!({ html, url: 'not a url', page: 1, params: {} });
        expect(['parsed', 'partial', 'unrecognised']).toContain(out.status);
        seen.push({ route, json: out.json });
      }
      for (const html of pages.slice(0, 7)) expect(PARSERS[route]!({ html, url: 'not a url', page: 1, params: {} }).status).toBe('unrecognised');
    }
  });
});

describe('output schemas', () => {
  it('every parsed output of this file validates against its route schema', () => {
    const ajv = new Ajv({ allErrors: true, strict: false });
    expect(seen.length).toBeGreaterThan(40);
    for (const { route, json } of seen) {
      const validate = ajv.compile(OUTPUT_SCHEMAS[route]!);
      expect(validate(json) ? null : { route, errors: validate.errors?.slice(0, 3) }).toBeNull();
    }
  });
});
