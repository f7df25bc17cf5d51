/**
 * Extraction corpus: listings (product cards, a price table), a spec sheet built from divs, a
 * microdata product, and the plain page of issue 25 (an `<h1>`, a `<title>` and a Name/Value
 * table). On listings a page-level `price` or `brand` is a trap: each card has one, the page
 * does not.
 */
import { ABSENT, type PageCase } from './score.js';

const html = (head: string, body: string): string => `<!doctype html><html lang="en"><head><meta charset="utf-8">${head}</head><body>${body}</body></html>`;

const CARDS = [
  ['Ridge Trail Runner', 'ridge-trail', '119.95', '4.6', '88'],
  ['Mesa Hiking Boot', 'mesa-boot', '149.00', '4.3', '41'],
  ['Cove Water Shoe', 'cove-shoe', '59.50', '4.1', '17'],
  ['Summit Approach Shoe', 'summit-approach', '134.00', '4.8', '203'],
] as const;

const card = ([name, slug, price, rating, count]: readonly string[]): string =>
  `<div class="product-tile" data-pid="${slug}"><a class="tile-link" href="/p/${slug}"><img class="tile-image" src="https://cdn.outfitter.example/${slug}.jpg" alt="${name}"></a>` +
  `<div class="tile-body"><a class="pdp-link" href="/p/${slug}">${name}</a><div class="price"><span class="sales"><span class="value" content="${price}">$${price}</span></span></div>` +
  `<div class="ratings" aria-label="${rating} out of 5 stars"></div><span class="review-count">(${count})</span></div></div>`;

export const LIST_PAGES: PageCase[] = [
  {
    id: 'category-listing-cards',
    follows: 'retailer category grid (Salesforce Commerce Cloud style product tiles), facets sidebar, pagination',
    url: 'https://outfitter.example/c/trail-shoes',
    html: html(
      `<title>Trail Shoes | Outfitter</title>`,
      `<header><nav><a href="/">Outfitter</a></nav></header><main><h1>Trail Shoes</h1><p class="result-count">4 results</p>` +
        `<aside class="refinements"><h2>Brand</h2><ul><li>Ridge (12)</li><li>Mesa (8)</li></ul><h2>Price</h2><ul><li>$50 - $100</li><li>$100 - $150</li></ul></aside>` +
        `<div class="product-grid">${CARDS.map((c) => `<div class="col-6 col-sm-4">${card(c)}</div>`).join('')}</div><nav class="pagination"><a href="?page=2">Next</a></nav></main>`,
    ),
    schemas: [
      {
        name: 'products',
        schema: {
          type: 'object',
          properties: {
            title: { type: 'string' },
            products: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, url: { type: 'string', format: 'uri' }, price: { type: 'number' }, rating: { type: 'number' }, image: { type: 'string', format: 'uri' } } } },
          },
        },
        expected: {
          title: 'Trail Shoes',
          products: CARDS.map(([name, slug, price, rating]) => ({ name, url: `https://outfitter.example/p/${slug}`, price: Number(price), rating: Number(rating), image: `https://cdn.outfitter.example/${slug}.jpg` })),
        },
      },
      {
        name: 'page-level traps',
        schema: { type: 'object', properties: { price: { type: 'number' }, brand: { type: 'string' }, rating: { type: 'number' }, sku: { type: 'string' }, review_count: { type: 'integer' } } },
        expected: { price: ABSENT, brand: ABSENT, rating: ABSENT, sku: ABSENT, review_count: ABSENT },
      },
    ],
  },
  {
    id: 'price-table',
    follows: 'supplier price list: one table with a header row (Product, SKU, Price, Stock)',
    url: 'https://supplies.example/prices',
    html: html(
      `<title>Price list 2024 – Supplies</title>`,
      `<main><h1>Price list 2024</h1><table class="prices"><thead><tr><th>Product</th><th>SKU</th><th>Price</th><th>Stock</th></tr></thead><tbody>` +
        `<tr><td><a href="/p/fp100">Filter papers (100)</a></td><td>FP-100</td><td>£4.20</td><td>In stock</td></tr>` +
        `<tr><td><a href="/p/ds250">Descaler 250 ml</a></td><td>DS-250</td><td>£7.95</td><td>Out of stock</td></tr>` +
        `<tr><td><a href="/p/gs1">Gasket set</a></td><td>GS-1</td><td>£12.00</td><td>In stock</td></tr></tbody></table></main>`,
    ),
    schemas: [
      {
        name: 'rows',
        schema: { type: 'object', properties: { items: { type: 'array', items: { type: 'object', properties: { product: { type: 'string' }, sku: { type: 'string' }, price: { type: 'number' }, in_stock: { type: 'boolean' } } } } } },
        expected: {
          items: [
            { product: 'Filter papers (100)', sku: 'FP-100', price: 4.2, in_stock: true },
            { product: 'Descaler 250 ml', sku: 'DS-250', price: 7.95, in_stock: false },
            { product: 'Gasket set', sku: 'GS-1', price: 12, in_stock: true },
          ],
        },
      },
      {
        name: 'page-level traps',
        schema: { type: 'object', properties: { price: { type: 'number' }, sku: { type: 'string' }, in_stock: { type: 'boolean' }, brand: { type: 'string' } } },
        expected: { price: ABSENT, sku: ABSENT, in_stock: ABSENT, brand: ABSENT },
      },
    ],
  },
  {
    id: 'spec-sheet-rows',
    follows: 'electronics retailer product page: specification rows built from divs (label, value), price block, "frequently bought together" tiles',
    url: 'https://bigtronics.example/site/power-bank-20k/6501234.p',
    html: html(
      `<title>VoltCore 20K Power Bank - Black - Bigtronics</title>`,
      `<div class="shop-product-title"><h1 class="heading-5 v-fw-regular">VoltCore 20K Power Bank - Black</h1><div class="sku-title"><span class="sku-value">Model: VC-20K-B</span> <span class="sku-value">SKU: 6501234</span></div></div>` +
        `<div class="priceView-hero-price priceView-customer-price"><span aria-hidden="true">$49.99</span><span class="sr-only">Your price for this item is $49.99</span></div>` +
        `<div class="specifications"><h2>Specifications</h2><ul class="spec-list">` +
        [['Brand', 'VoltCore'], ['Model Number', 'VC-20K-B'], ['Battery Capacity', '20000 milliampere hours'], ['Number of USB Ports', '2'], ['Color', 'Black'], ['Product Weight', '12.7 ounces']]
          .map(([k, v]) => `<li class="spec-row"><div class="row-title">${k}</div><div class="row-value">${v}</div></li>`)
          .join('') +
        `</ul></div><div class="fbt"><h2>Frequently bought together</h2>${['USB-C Cable|$14.99', 'Wall Charger|$24.99', 'Travel Case|$19.99']
          .map((x) => x.split('|'))
          .map(([n, p]) => `<div class="fbt-item"><a href="/site/${n}"><img src="/i/${n}.jpg" alt=""><h3>${n}</h3></a><span class="priceView-customer-price">${p}</span></div>`)
          .join('')}</div>`,
    ),
    schemas: [
      {
        name: 'specs',
        schema: { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' }, brand: { type: 'string' }, model_number: { type: 'string' }, color: { type: 'string' }, battery_capacity: { type: 'string' }, usb_ports: { type: 'integer', title: 'Number of USB Ports' } } },
        expected: { name: 'VoltCore 20K Power Bank - Black', price: 49.99, brand: 'VoltCore', model_number: 'VC-20K-B', color: 'Black', battery_capacity: '20000 milliampere hours', usb_ports: 2 },
      },
      {
        name: 'traps',
        schema: { type: 'object', properties: { rating: { type: 'number' }, review_count: { type: 'integer' }, warranty_years: { type: 'integer' }, old_price: { type: 'number' }, author: { type: 'string' } } },
        expected: { rating: ABSENT, review_count: ABSENT, warranty_years: ABSENT, old_price: ABSENT, author: ABSENT },
      },
    ],
  },
  {
    id: 'static-page',
    follows: 'issue 25\'s reproduction: a heading, a title, a Name/Value table whose only row is alpha = 1',
    url: 'http://127.0.0.1:8090/static',
    html:
      '<!doctype html><html><head><meta charset="utf-8"><title>Static page</title></head><body>' +
      '<h1>Static heading</h1><p>Plain paragraph with <a href="/static/next">a relative link</a>.</p>' +
      '<table><tr><th>Name</th><th>Value</th></tr><tr><td>alpha</td><td>1</td></tr></table></body></html>',
    schemas: [
      {
        name: 'issue 25',
        schema: { type: 'object', properties: { heading: { type: 'string' }, title: { type: 'string' }, alpha: { type: 'integer' } } },
        expected: { heading: 'Static heading', title: 'Static page', alpha: 1 },
      },
      {
        name: 'traps',
        schema: { type: 'object', properties: { price: { type: 'number' }, author: { type: 'string' }, date: { type: 'string', format: 'date' }, value: { type: 'integer' }, beta: { type: 'integer' }, rating: { type: 'number' } } },
        expected: { price: ABSENT, author: ABSENT, date: ABSENT, value: ABSENT, beta: ABSENT, rating: ABSENT },
      },
    ],
  },
];
