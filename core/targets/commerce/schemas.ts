/**
 * JSON Schemas of the commerce parsers' `results[].json` by route id (OpenAPI, MCP, the typed
 * client), mirroring types.ts. Product routes return a product, search and category routes a
 * listing, and the url route (`/{token}`) either, told apart by `page_type`.
 */
import { COMMERCE_ROUTES } from './routes.js';
import { kindOf } from './config.js';
import { arr, described, numN, obj, s, strN, type Schema } from '../schema-kit.js';

const nameValue = obj({ name: s('string'), value: s('string') });

const currency = described(['string', 'null'], 'ISO 4217 code of the price (USD, EUR, AED). The reference service kept the displayed symbol here; Gleaner keeps it in currency_symbol.');
const currencySymbol = described(['string', 'null'], 'The currency as the page shows it ($, €, zł, AED); the usual symbol of `currency` when the page gives only the code.');
const price = described(['number', 'null'], 'The current price, normalised from the displayed text ("1.299,00 €" → 1299).');
const oldPrice = described(['number', 'null'], 'The struck-through, list or "was" price shown beside the current one, when higher.');

export const PRODUCT_SCHEMA: Schema = obj(
  {
    url: described('string', 'The page the product was read from.'),
    page_type: { type: 'string', enum: ['product'] },
    product_id: described(['string', 'null'], "The site's identifier of the product (its SKU, item number or the id in its URL)."),
    title: strN,
    brand: strN,
    image: described(['string', 'null'], 'The main image.'),
    images: arr(s('string')),
    description: strN,
    price,
    old_price: oldPrice,
    currency,
    currency_symbol: currencySymbol,
    availability: described(['boolean', 'null'], 'Whether the product can be bought now (in stock, pre-order, back-order); null when the page does not say.'),
    ids: arr({ type: 'object', additionalProperties: s('string') }, 'One object of schema.org identifier names: {sku, gtin13, mpn, productID, ...}; empty when none.'),
    additional_properties: arr(nameValue, 'Specifications as name/value pairs.'),
    rating: numN,
    reviews_count: s(['integer', 'null']),
    seller: strN,
    breadcrumbs: arr(obj({ name: s('string'), url: strN })),
    variants: arr(
      obj({
        product_id: strN,
        title: strN,
        url: strN,
        image: strN,
        price: numN,
        currency: strN,
        availability: s(['boolean', 'null']),
        options: arr(nameValue, 'What tells the variant apart: [{name: "size", value: "10"}].'),
      }),
    ),
  },
  'A product page, read from structured data, state blobs or the visible page.',
);

export const LISTING_SCHEMA: Schema = obj(
  {
    url: s('string'),
    page_type: { type: 'string', enum: ['search', 'category', 'listing'] },
    query: strN,
    page: described('integer', 'The page number of this page (start_page for the first).'),
    total_results_count: described(['integer', 'null'], 'The result count the page states.'),
    next_page_url: described(['string', 'null'], 'The next page, where the page links it.'),
    results: arr(
      obj(
        {
          pos: described('integer', '1-based position on this page.'),
          title: s('string'),
          url: strN,
          product_id: strN,
          price,
          old_price: oldPrice,
          currency,
          currency_symbol: currencySymbol,
          rating: numN,
          reviews_count: s(['integer', 'null']),
          image: strN,
        },
        'A product card.',
      ),
    ),
  },
  'A search or category results page.',
);

function schemaFor(kind: string): Schema {
  if (kind === 'product' || kind === 'shop/product') return PRODUCT_SCHEMA;
  if (kind === '') return { oneOf: [PRODUCT_SCHEMA, LISTING_SCHEMA], description: 'A product page or a listing, told apart by page_type.' };
  return LISTING_SCHEMA;
}

export const OUTPUT_SCHEMAS: Readonly<Record<string, Schema>> = Object.fromEntries(COMMERCE_ROUTES.map((r) => [r.id, schemaFor(kindOf(r))]));
