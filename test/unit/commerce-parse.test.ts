/**
 * The generic commerce parsers on the simulator's pages, one markup style at a time (JSON-LD
 * only, in a @graph, broken, a ProductGroup with variants; microdata only; a state blob only, as
 * __NEXT_DATA__, __PRELOADED_STATE__ and window.__INITIAL_STATE__; plain HTML cards; a JSON API
 * response): exact JSON for each. Every style carries the same catalogue product, so the
 * expectations differ only where a style does not carry a fact.
 */
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { PARSERS } from '../../core/targets/commerce/parsers.js';
import { parseListing } from '../../core/targets/commerce/listing.js';
import { parseProduct } from '../../core/targets/commerce/product.js';
import { OUTPUT_SCHEMAS } from '../../core/targets/commerce/schemas.js';
import { CATALOGUE } from '../sites/commerce-data.js';
import { listingPage, productPage, type PageContext, type Style } from '../sites/commerce-pages.js';

const ORIGIN = 'http://shop.test';
const ctx: PageContext = {
  home: `${ORIGIN}/`,
  link: (id) => `${ORIGIN}/item/${id}`,
  currency: 'USD',
  show: (n) => `$${n.toFixed(2)}`,
  price: (p) => p.price,
  query: 'outdoor',
  page: 1,
  pages: 2,
  total: 6,
  nextUrl: `${ORIGIN}/s?q=outdoor&page=2`,
};
const shoe = CATALOGUE[0]!;
const product = (style: Style) => parseProduct({ html: productPage(style, shoe, ctx), url: `${ORIGIN}/item/P1001`, page: 1, params: {} });
const listing = (style: Style) => parseListing('search')({ html: listingPage(style, CATALOGUE.slice(0, 2), ctx), url: `${ORIGIN}/s?q=outdoor`, page: 1, params: { query: 'outdoor' } });

const PRODUCT = {
  url: `${ORIGIN}/item/P1001`,
  page_type: 'product',
  product_id: 'P1001',
  title: 'Trail Running Shoe',
  brand: 'Northpeak',
  image: 'https://img.shop.test/P1001.jpg',
  images: ['https://img.shop.test/P1001.jpg'],
  description: 'A light outdoor shoe for rough trails.',
  price: 89.99,
  old_price: 109.99,
  currency: 'USD',
  currency_symbol: '$',
  availability: true,
  ids: [{ sku: 'P1001', gtin13: '0001234567895', mpn: 'NP-TRS-1' }],
  additional_properties: [
    { name: 'Weight', value: '280 g' },
    { name: 'Drop', value: '8 mm' },
  ],
  rating: 4.6,
  reviews_count: 128,
  seller: 'Sim Shop',
  breadcrumbs: [
    { name: 'Home', url: `${ORIGIN}/` },
    { name: 'Outdoor', url: null },
  ],
  variants: [],
};

const variant = (size: string) => ({
  product_id: `P1001-${size}`,
  title: `Trail Running Shoe ${size}`,
  url: `${ORIGIN}/item/P1001?size=${size}`,
  image: null,
  price: 89.99,
  currency: 'USD',
  availability: true,
  options: [{ name: 'size', value: size }],
});

/** What a style does not carry (state blobs and APIs have no identifiers list, specs, seller or trail). */
const STATE = { ids: [], additional_properties: [], seller: null, breadcrumbs: [] };

const PRODUCT_BY_STYLE: Record<Style, Record<string, unknown>> = {
  jsonld: PRODUCT,
  'jsonld-graph': PRODUCT,
  'jsonld-broken': { ...PRODUCT, breadcrumbs: [] },
  'jsonld-group': { ...PRODUCT, old_price: null, ids: [{ gtin13: '0001234567895', mpn: 'NP-TRS-1' }], seller: null, variants: [variant('9'), variant('10')] },
  microdata: { ...PRODUCT, description: null, old_price: null, ids: [{ sku: 'P1001', gtin13: '0001234567895' }], additional_properties: [], seller: null, breadcrumbs: [] },
  'next-data': { ...PRODUCT, ...STATE },
  'preloaded-state': { ...PRODUCT, ...STATE },
  'initial-state': { ...PRODUCT, ...STATE },
  cards: {
    ...PRODUCT,
    ids: [],
    seller: null,
    breadcrumbs: [
      { name: 'Home', url: `${ORIGIN}/` },
      { name: 'Outdoor', url: `${ORIGIN}/outdoor` },
    ],
  },
  api: { ...PRODUCT, ...STATE },
};

const item = (pos: number, id: string, title: string, price: number, old: number | null, rating: number, reviews: number) => ({
  pos, title, url: `${ORIGIN}/item/${id}`, product_id: id, price, old_price: old, currency: 'USD', currency_symbol: '$', rating, reviews_count: reviews, image: `https://img.shop.test/${id}.jpg`,
});

const LISTING = {
  url: `${ORIGIN}/s?q=outdoor`,
  page_type: 'search',
  query: 'outdoor',
  page: 1,
  total_results_count: 6,
  next_page_url: `${ORIGIN}/s?q=outdoor&page=2`,
  results: [item(1, 'P1001', 'Trail Running Shoe', 89.99, 109.99, 4.6, 128), item(2, 'P1002', 'Insulated Water Bottle', 24.5, null, 4.8, 2310)],
};

const LISTING_BY_STYLE: Record<Style, Record<string, unknown>> = {
  jsonld: LISTING,
  'jsonld-graph': LISTING,
  'jsonld-broken': LISTING,
  'jsonld-group': LISTING,
  // Microdata offers carry no list price.
  microdata: { ...LISTING, results: [{ ...LISTING.results[0], old_price: null }, LISTING.results[1]] },
  'next-data': LISTING,
  'preloaded-state': LISTING,
  'initial-state': LISTING,
  cards: LISTING,
  // An API response has no next link.
  api: { ...LISTING, next_page_url: null },
};

describe('generic product parser', () => {
  it.each(Object.keys(PRODUCT_BY_STYLE) as Style[])('%s page', (style) => {
    expect(product(style)).toEqual({ json: PRODUCT_BY_STYLE[style], status: 'parsed' });
  });

  it('normalises displayed prices: ISO code with the symbol beside it, locale separators', () => {
    const page = (show: (n: number) => string, currency: string) => ({ ...ctx, show, currency });
    const zl = parseProduct({ html: productPage('cards', CATALOGUE[2]!, page((n) => `${n.toLocaleString('pl-PL', { minimumFractionDigits: 2 })} zł`, 'PLN')), url: `${ORIGIN}/item/P1003`, page: 1, params: {} });
    expect(zl.json).toMatchObject({ price: 1299, currency: 'PLN', currency_symbol: 'zł', availability: false });
    const eur = parseProduct({ html: productPage('cards', CATALOGUE[0]!, page((n) => `${n.toLocaleString('de-DE', { minimumFractionDigits: 2 })} €`, 'EUR')), url: `${ORIGIN}/item/P1001`, page: 1, params: {} });
    expect(eur.json).toMatchObject({ price: 89.99, old_price: 109.99, currency: 'EUR', currency_symbol: '€' });
  });

  it('a page with nothing product-like is unrecognised; the requested id is the last resort', () => {
    const html = '<!doctype html><html><head><title>About us</title></head><body><p>We sell things.</p></body></html>';
    expect(parseProduct({ html, url: `${ORIGIN}/about`, page: 1, params: { query: 'P9' } })).toMatchObject({ status: 'partial', json: { title: 'About us', product_id: 'P9', price: null } });
    expect(parseProduct({ html: '<html><body></body></html>', url: `${ORIGIN}/x`, page: 1, params: {} }).status).toBe('unrecognised');
  });
});

describe('generic listing parser', () => {
  it.each(Object.keys(LISTING_BY_STYLE) as Style[])('%s page', (style) => {
    expect(listing(style)).toEqual({ json: LISTING_BY_STYLE[style], status: 'parsed' });
  });

  it('category routes report their page type; an empty page is unrecognised unless it says it found nothing', () => {
    expect((parseListing('category')({ html: listingPage('cards', CATALOGUE.slice(0, 2), ctx), url: `${ORIGIN}/c/outdoor`, page: 1, params: {} }).json as { page_type: string }).page_type).toBe('category');
    expect(parseListing('search')({ html: '<html><body><h1>Outdoor</h1><p>Free returns</p></body></html>', url: `${ORIGIN}/s`, page: 1, params: {} }).status).toBe('unrecognised');
    // A layout the parser cannot read says nothing of the kind; a search that found nothing does.
    const none = parseListing('search')({ html: '<html><body><h1>No results</h1></body></html>', url: `${ORIGIN}/s`, page: 1, params: {} });
    expect([none.status, (none.json as { total_results_count: number | null }).total_results_count]).toEqual(['parsed', 0]);
    // A mini-cart's "0 items" is not a search that found nothing.
    expect(parseListing('search')({ html: '<html><body><h1>Outdoor</h1><a class="cart"><span>0 items</span></a></body></html>', url: `${ORIGIN}/s`, page: 1, params: {} }).status).toBe('unrecognised');
    // A marketplace's Chinese store: "没有<query>的搜索结果。" with the query in its own span.
    const zh = parseListing('search')({ html: '<html lang="zh-CN"><body><div class="a-row"><span>没有</span><span class="a-text-bold">灯饰 加盟</span><span>的搜索结果。</span></div></body></html>', url: `${ORIGIN}/s`, page: 1, params: {} });
    expect([zh.status, (zh.json as { total_results_count: number | null }).total_results_count]).toEqual(['parsed', 0]);
  });
});

describe('the url route', () => {
  it('tells a product page from a listing, whatever the markup', () => {
    for (const style of Object.keys(PRODUCT_BY_STYLE) as Style[]) {
      const p = PARSERS.mkt2!({ html: productPage(style, shoe, ctx), url: `${ORIGIN}/page`, page: 1, params: {} });
      const l = PARSERS.mkt2!({ html: listingPage(style, CATALOGUE.slice(0, 4), ctx), url: `${ORIGIN}/page`, page: 1, params: {} });
      expect([style, (p.json as { page_type: string }).page_type, (l.json as { page_type: string }).page_type]).toEqual([style, 'product', 'listing']);
    }
  });

  it('every commerce route has a parser', () => {
    expect(Object.keys(PARSERS)).toHaveLength(43);
  });
});

describe('output schemas', () => {
  it('every parsed page validates against its route schema', () => {
    const ajv = new Ajv({ allErrors: true, strict: false });
    const valid = (id: string, json: unknown) => {
      const validate = ajv.compile(OUTPUT_SCHEMAS[id]!);
      return validate(json) ? null : validate.errors;
    };
    expect(Object.keys(OUTPUT_SCHEMAS)).toHaveLength(43);
    for (const style of Object.keys(PRODUCT_BY_STYLE) as Style[]) {
      expect([style, valid('latam1/product', product(style).json), valid('latam1/search', listing(style).json), valid('latam1', product(style).json), valid('latam1', listing(style).json)]).toEqual([style, null, null, null, null]);
    }
  });
});
