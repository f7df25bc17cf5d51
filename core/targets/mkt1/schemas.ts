/**
 * JSON Schemas of the mkt1 parsers' `results[].json`, mirroring product.ts, search.ts,
 * offers.ts, seller.ts and bestsellers.ts (the reference service's field names). A robot check
 * page parses to `null` (status `blocked`), which the farm retries rather than returns.
 */
import { arr, bool, int, intN, map, num, numN, obj, s, str, strN, type Schema } from '../schema-kit.js';

/** An object whose members are all required except `optional`. */
const status = s('integer', { enum: [12000, 12002, 12004], description: 'The reference service parse status code: 12000 parsed, 12004 partial, 12002 not recognised.' });

const link = obj({ url: str, name: str });
const delivery = obj({ type: str, date: obj({ by: str, from: str }, undefined, ['from']) }, 'A delivery promise: "FREE delivery" by "Friday, August 21".');

const product = obj(
  {
    url: str, product_id: str, product_id_in_url: str, parent_product_id: str, page: int, page_type: s('string', { const: 'Product' }),
    title: str, product_name: str, brand: str, manufacturer: str,
    price: s('number', { description: 'Price to pay; 0 when the page has no buybox offer.' }),
    price_upper: num,
    price_buybox: s('number', { description: 'Buybox price; -1 when the page has no buybox offer.' }),
    price_strikethrough: numN, price_initial: num, price_shipping: num, price_sns: num, discount_percentage: intN,
    currency: s('string', { description: 'ISO 4217 code of the prices shown.' }),
    coupon: str, stock: str, max_quantity: int, is_prime_eligible: bool, has_videos: bool,
    rating: num, reviews_count: int, answered_questions_count: int,
    rating_stars_distribution: arr(obj({ rating: int, percentage: int })),
    reviews: arr(
      obj(
        {
          id: str, title: str, author: str, rating: int, content: str, timestamp: str, profile_id: str, is_verified: bool, review_from: str,
          helpful_count: int, product_attributes: str,
        },
        'A top review as shown on the product page.',
        ['helpful_count', 'product_attributes'],
      ),
    ),
    review_ai_summary: strN,
    images: arr(str, 'Gallery images, hi-res first.'),
    bullet_points: s('string', { description: 'Feature bullets joined by newlines.' }),
    description: str,
    category: arr(obj({ ladder: arr(link) })),
    sales_rank: arr(obj({ rank: int, ladder: arr(link) })),
    variation: arr(obj({ product_id: str, selected: bool, dimensions: map(str, 'Dimension label → value, e.g. {"Size": "M"}.') })),
    buybox: arr(obj({ price: num, stock: str, condition: str, delivery_details: arr(delivery) })),
    delivery: arr(delivery),
    featured_merchant: {
      description: 'The buybox seller, or [] when the page names none (the reference flips the type).',
      anyOf: [obj({ link: str, name: str, seller_id: str, shipped_from: str, is_marketplace_fulfilled: bool }), s('array', { maxItems: 0 })],
    },
    pricing_count: int, pricing_url: str, pricing_str: str, sales_volume: str,
    sns_discounts: arr(str), developer_info: arr(str),
    product_details: map(str, 'Detail rows by snake_cased label.'),
    product_dimensions: str,
    product_overview: arr(obj({ title: str, description: str })),
    technical_details: arr(obj({ name: str, value: str })),
    important_information: arr(obj({ title: str, description: str })),
    warranty_and_support: obj({ links: arr(obj({ url: str, title: str })), description: str }),
    store_url: str,
    buy_it_with: arr({}), frequently_bought_together: arr({}), ads: arr({}),
    deal_type: str, is_addon_item: bool, is_choice: bool,
    parse_status_code: status,
  },
  'A parsed mkt1 product page.',
);

const item = obj(
  {
    pos: int, url: str, product_id: str, title: str, price: num, price_upper: num, price_strikethrough: numN, currency: str, rating: num,
    reviews_count: int, url_image: str, is_prime: bool, is_sponsored: bool, is_choice: bool, best_seller: bool, manufacturer: str,
    pricing_count: int, sales_volume: strN, shipping_information: str, coupon_discount: numN,
    coupon_discount_type: s(['string', 'null'], { enum: ['nominal', 'percentage', null] }), no_price_reason: strN, variations: arr({}),
    rel_pos: s('integer', { description: 'Paid items: place among all result cards.' }), is_video: bool, suggested_query: str,
  },
  'A product card of a search page.',
  ['rel_pos', 'is_video', 'suggested_query'],
);

const search = obj(
  {
    url: str, query: str, page: int, pages: int, last_visible_page: int, total_results_count: int,
    results: obj({ paid: arr(item), organic: arr(item), suggested: arr(item), choice_picks: arr(item), instant_recommendations: arr(item) }),
    refinements: map(arr(obj({ link: str, name: str, value: s('string', { description: 'The `rh` value, e.g. p_123:3271.' }), refinement_display_name: str })), 'Filter groups by snake-cased heading.'),
    parse_status_code: status,
  },
  'A parsed mkt1 search page.',
);

const pricing = obj(
  {
    url: str, title: str, product_id: s(['string', 'null'], { description: 'null when the page lists no offers.' }), product_id_in_url: str, page: int, review_count: int,
    rating: s('number', { description: "The product's star rating shown with its offers (0 when not shown)." }),
    pricing: arr(
      obj({
        price: num, price_shipping: num, currency: str, seller: str, seller_id: str, seller_link: str, rating_count: int, condition: str, delivery: str,
        delivery_options: arr(delivery),
      }),
    ),
    _warnings: arr(str),
    parse_status_code: status,
  },
  'The offers of an mkt1 product (all-offers fragment or offer listing).',
  ['_warnings'],
);

const periods = map(str, 'Period (30_days, 90_days, 12_months, all_time) → share, e.g. "89%".');
const seller = obj(
  {
    url: str, query: str, page_type: s('string', { const: 'Seller' }), seller_name: str, business_name: str, business_address: str, description: str,
    rating: s('integer', { description: 'Positive feedback over the last 12 months, percent.' }),
    recent_feedback: arr(obj({ feedback: str, rated_by: str, rating_stars: int })),
    feedback_summary_data: map({}),
    feedback_summary_table: obj({ counts: map(int), positive: periods, neutral: periods, negative: periods }),
    products: s('array', {
      description: "The storefront's product grid, when the page shows one (sponsored cards left out).",
      items: obj({
        pos: int, product_id: str, title: str, url: str, price: num, price_strikethrough: s(['number', 'null']), currency: str, rating: num, reviews_count: int, url_image: str,
        is_prime: bool,
      }),
    }),
    parse_status_code: status,
  },
  'A parsed mkt1 seller profile or storefront.',
);

const bestsellers = obj(
  {
    url: str, query: str, page: int, page_type: s('string', { const: 'Bestsellers' }), title: str,
    results: arr(
      obj({
        pos: int, product_id: str, title: str, url: str, price: num, price_upper: num, currency: str, rating: num, ratings_count: int, is_prime: bool,
        images: arr(str),
      }),
    ),
    parse_status_code: status,
  },
  'A parsed mkt1 bestseller list.',
);

export const OUTPUT_SCHEMAS: Record<string, Schema> = {
  mkt1: { description: 'The page parsed by its kind (from the URL path or the page).', anyOf: [product, search, pricing, seller, bestsellers] },
  'mkt1/product': product,
  'mkt1/search': search,
  'mkt1/pricing': pricing,
  'mkt1/sellers': seller,
  'mkt1/bestsellers': bestsellers,
};
