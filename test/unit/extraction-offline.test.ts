/**
 * The offline extractor (`json.schema` with no model) on simulator pages fetched over HTTP:
 * JSON-LD, microdata, RDFa, a spec table, label/value text, product cards, a table listing,
 * and a field the page does not have.
 */
import { type Server, createServer } from 'node:http';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractJson } from '../../core/extraction/index.js';
import { extractionSite } from '../sites/extraction.js';
import type { SiteContext } from '../sites/types.js';

let server: Server;
let origin = '';

beforeAll(async () => {
  const ctx: SiteContext = { origin: '', hits: new Map() };
  server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', ctx.origin);
    if (!(await extractionSite(req, res, url, ctx))) res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  origin = ctx.origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function extract(path: string, schema: Record<string, unknown>) {
  const res = await request(`${origin}${path}`);
  expect(res.statusCode).toBe(200);
  const html = await res.body.text();
  return extractJson({ html, url: `${origin}${path}` }, { schema }, { llm: undefined });
}

const PRODUCT = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    brand: { type: 'string' },
    price: { type: 'number' },
    currency: { type: 'string' },
    in_stock: { type: 'boolean' },
    rating: { type: 'number' },
    review_count: { type: 'integer' },
    image: { type: 'string', format: 'uri' },
    sku: { type: 'string' },
  },
  required: ['name', 'price'],
};

describe('offline extraction', () => {
  it('reads a product from JSON-LD (@graph, nested offers and aggregateRating)', async () => {
    expect(await extract('/x/product-jsonld', PRODUCT)).toEqual({
      json: {
        name: 'Aero 3000 Espresso Machine',
        brand: 'Aero',
        price: 1299,
        currency: 'EUR',
        in_stock: true,
        rating: 4.6,
        review_count: 128,
        image: 'https://shop.example/img/aero-3000.jpg',
        sku: 'AERO-3000',
      },
      fields: {
        name: 'jsonld:Product.name',
        brand: 'jsonld:Product.brand',
        price: 'jsonld:Product.offers.price',
        currency: 'jsonld:Product.offers.priceCurrency',
        in_stock: 'jsonld:Product.offers.availability',
        rating: 'jsonld:Product.aggregateRating',
        review_count: 'jsonld:Product.aggregateRating.reviewCount',
        image: 'jsonld:Product.image',
        sku: 'jsonld:Product.sku',
      },
      source: 'offline',
      unfilled: [],
    });
  });

  it('reads a product from microdata only, URLs made absolute', async () => {
    expect(await extract('/x/product-microdata', PRODUCT)).toEqual({
      json: {
        name: 'Trail Runner GTX',
        brand: 'Stride',
        price: 89.95,
        currency: 'USD',
        in_stock: false,
        rating: 4.2,
        review_count: 57,
        image: `${origin}/img/trail-runner.jpg`,
      },
      fields: {
        name: 'microdata:Product.name',
        brand: 'microdata:Product.brand',
        price: 'microdata:Product.offers.price',
        currency: 'microdata:Product.offers.priceCurrency',
        in_stock: 'microdata:Product.offers.availability',
        rating: 'microdata:Product.aggregateRating',
        review_count: 'microdata:Product.aggregateRating.reviewCount',
        image: 'microdata:Product.image',
      },
      source: 'offline',
      unfilled: ['/sku'],
    });
  });

  it('reads nested objects from RDFa', async () => {
    const schema = {
      type: 'object',
      properties: {
        title: { type: 'string' },
        offer: { type: 'object', properties: { amount: { type: 'number' }, currency: { type: 'string' } } },
        brand: { type: 'object', properties: { name: { type: 'string' } } },
      },
    };
    expect(await extract('/x/product-rdfa', schema)).toEqual({
      json: { title: 'Desk Lamp Lumo', offer: { amount: 34.5, currency: 'EUR' }, brand: { name: 'Lumo' } },
      fields: { title: 'h1', offer: { amount: 'rdfa:Product.offers.price', currency: 'rdfa:Product.offers.priceCurrency' }, brand: { name: 'rdfa:Product.brand.name' } },
      source: 'offline',
      unfilled: [],
    });
  });

  it('reads a page that has only a spec table (European number formats)', async () => {
    const schema = {
      type: 'object',
      properties: {
        ...PRODUCT.properties,
        model_number: { type: 'string' },
        capacity_litres: { type: 'number', title: 'Capacity' },
      },
    };
    expect(await extract('/x/spec-table', schema)).toEqual({
      json: {
        name: 'Kettle K2',
        brand: 'Boilwell',
        price: 1299,
        currency: 'EUR',
        in_stock: true,
        rating: 4.3,
        model_number: 'K2-1700',
        capacity_litres: 1.7,
      },
      fields: {
        name: 'h1',
        brand: 'table:Brand',
        price: 'table:Price',
        currency: 'table:Price (currency of the price)',
        in_stock: 'table:Availability',
        rating: 'table:Customer rating',
        model_number: 'table:Item model number',
        capacity_litres: 'table:Capacity',
      },
      source: 'offline',
      unfilled: ['/review_count', '/image', '/sku'],
    });
  });

  it('reads "Label: value" text', async () => {
    const schema = { ...PRODUCT, properties: { ...PRODUCT.properties, shipping: { type: 'string' }, weight: { type: 'string' } } };
    expect(await extract('/x/label-value', schema)).toEqual({
      json: {
        name: 'Widget Pro',
        brand: 'Acme',
        price: 12.99,
        currency: 'USD',
        in_stock: true,
        rating: 4.5,
        review_count: 1204,
        shipping: 'free over $25',
        weight: '250 g',
      },
      fields: {
        name: 'h1',
        brand: 'label:Brand',
        price: 'label:Price',
        currency: 'label:Price (currency of the price)',
        in_stock: 'label:Stock',
        rating: 'label:Rating',
        review_count: 'label:Reviews',
        shipping: 'label:Shipping',
        weight: 'label:Weight',
      },
      source: 'offline',
      unfilled: ['/image', '/sku'],
    });
  });

  it('turns repeated product cards into an array of objects', async () => {
    const schema = {
      type: 'object',
      properties: {
        products: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              title: { type: 'string' },
              url: { type: 'string', format: 'uri' },
              price: { type: 'number' },
              rating: { type: 'number' },
              image: { type: 'string', format: 'uri' },
            },
            required: ['title'],
          },
        },
      },
    };
    const card = (title: string, slug: string, img: string, price: number, rating: number) => ({
      title,
      url: `${origin}/p/${slug}`,
      price,
      rating,
      image: `${origin}/img/${img}`,
    });
    expect(await extract('/x/listing', schema)).toEqual({
      json: {
        products: [
          card('Burr Grinder One', 'burr-one', 'burr-one.jpg', 149, 4.7),
          card('Hand Mill Classic', 'hand-mill', 'hand-mill.jpg', 39.5, 4.1),
          card('Grindmaster 9', 'grindmaster-9', 'gm9.jpg', 1049.99, 4.9),
        ],
      },
      fields: { products: 'cards:li.product-card (3 items)' },
      source: 'offline',
      unfilled: [],
    });
  });

  it('turns table rows into a top-level array, currency read off the price', async () => {
    const schema = {
      type: 'array',
      items: {
        type: 'object',
        properties: { product: { type: 'string' }, sku: { type: 'string' }, price: { type: 'number' }, currency: { type: 'string' }, link: { type: 'string', format: 'uri' } },
      },
    };
    expect(await extract('/x/table-listing', schema)).toEqual({
      json: [
        { product: 'Filter papers', sku: 'FP-100', price: 4.2, currency: 'GBP', link: `${origin}/p/a` },
        { product: 'Descaler', sku: 'DS-250', price: 7.95, currency: 'GBP', link: `${origin}/p/b` },
      ],
      fields: 'table rows (2 items)',
      source: 'offline',
      unfilled: [],
    });
  });

  it('lists a field the page lacks in unfilled, null when the schema allows null', async () => {
    const schema = {
      type: 'object',
      properties: {
        headline: { type: 'string' },
        author: { type: 'string' },
        published: { type: 'string', format: 'date' },
        description: { type: 'string' },
        needs: { type: 'array', items: { type: 'string' } },
        url: { type: 'string', format: 'uri' },
        word_count: { type: 'integer' },
        editor: { type: ['string', 'null'] },
      },
      required: ['headline', 'word_count'],
    };
    expect(await extract('/x/article', schema)).toEqual({
      json: {
        headline: 'How to dial in espresso',
        author: 'Mara Lind',
        published: '2024-03-05',
        description: 'A practical guide to grind size, dose and yield.',
        needs: ['Scale', 'Timer', 'Fresh beans'],
        url: 'https://journal.example/dial-in',
        editor: null,
      },
      fields: {
        headline: 'meta:og:title',
        author: 'meta:author',
        published: 'meta:article:published_time',
        description: 'meta:description',
        needs: 'section:What you need',
        url: 'link:canonical',
      },
      source: 'offline',
      unfilled: ['/word_count', '/editor'],
    });
  });

  it('drops values the schema rejects (maxLength, enum) and reports them unfilled', async () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string', maxLength: 10 },
        availability: { type: 'string', enum: ['InStock', 'OutOfStock'] },
        currency: { type: 'string', enum: ['USD', 'GBP'] },
      },
    };
    expect(await extract('/x/product-jsonld', schema)).toEqual({
      json: { availability: 'InStock' },
      fields: { availability: 'jsonld:Product.offers.availability' },
      source: 'offline',
      unfilled: ['/name', '/currency'],
    });
  });

  it('accepts OpenAPI nullable and $ref definitions', async () => {
    const schema = {
      type: 'object',
      definitions: { money: { type: 'object', properties: { price: { type: 'number' }, priceCurrency: { type: 'string' } } } },
      properties: { offers: { $ref: '#/definitions/money' }, gtin: { type: 'string', nullable: true } },
    };
    expect(await extract('/x/product-jsonld', schema)).toEqual({
      json: { offers: { price: 1299, priceCurrency: 'EUR' }, gtin: null },
      fields: { offers: { price: 'jsonld:Product.offers.price', priceCurrency: 'jsonld:Product.offers.priceCurrency' } },
      source: 'offline',
      unfilled: ['/gtin'],
    });
  });
});
