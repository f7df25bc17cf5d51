/**
 * The JSON the mkt1 parsers must give for the simulator's pages (test/sites/mkt1*.ts), written
 * from its catalogue (test/sites/mkt1-data.ts) for the API tests: search cards, bestseller
 * cards, offers, and the whole of one product page and one seller profile (the same facts
 * test/unit/mkt1-parsers.test.ts checks on the pages themselves).
 */
import { convert, PRODUCTS, type SimProduct } from '../sites/mkt1-data.js';

export function product(asin: string): SimProduct {
  const p = PRODUCTS.find((x) => x.asin === asin);
  if (!p) throw new Error(`no simulator product ${asin}`);
  return p;
}

const slugOf = (p: SimProduct) => p.title.split(',')[0]!.replace(/[^A-Za-z0-9]+/g, '-');

/**
 * A search card (organic, or `paid` with the ad's click URL) at position `pos` of its page for
 * query `q`; `rank` is its place in the whole result list, which its link names (`sr_1_5` is the
 * first card of page 2).
 */
export function searchCard(asin: string, pos: number, q: string, opts: { currency?: string; paid?: boolean; rank?: number } = {}): Record<string, unknown> {
  const p = product(asin);
  const currency = opts.currency ?? 'USD';
  const price = convert(p.price, currency);
  const card = {
    pos,
    url: `/${slugOf(p)}/dp/${p.asin}/ref=sr_1_${opts.rank ?? pos}?keywords=${encodeURIComponent(q)}&qid=1700000000&sr=8-${opts.rank ?? pos}`,
    product_id: p.asin,
    title: p.title,
    price,
    price_upper: price,
    price_strikethrough: p.listPrice === undefined ? null : convert(p.listPrice, currency),
    currency,
    rating: p.rating,
    reviews_count: p.reviews,
    url_image: `https://images.sim.example/images/I/${p.asin}-1._AC_UY218_.jpg`,
    is_prime: false,
    is_sponsored: false,
    is_choice: false,
    best_seller: false,
    manufacturer: '',
    pricing_count: 0,
    sales_volume: p.boughtLastMonth ?? null,
    shipping_information: 'FREE delivery Fri, Jun 27',
    coupon_discount: null,
    coupon_discount_type: null,
    no_price_reason: null,
    variations: [],
  };
  if (!opts.paid) return card;
  const click = `/sspa/click?ie=UTF8&spc=SIM1&url=${encodeURIComponent(`/${slugOf(p)}/dp/${p.asin}/ref=sr_1_${opts.rank ?? pos}_sspa`)}`;
  return { ...card, url: click, is_sponsored: true, rel_pos: 1, is_video: false };
}

/** A bestseller card of category `slug` at rank `pos`. */
export function bestsellerCard(asin: string, pos: number, slug: string): Record<string, unknown> {
  const p = product(asin);
  return {
    pos, product_id: p.asin, title: p.title, url: `/${slugOf(p)}/dp/${p.asin}/ref=zg_bs_g_${slug}_d_sccl_${pos}?psc=1`, price: p.price, price_upper: p.price,
    currency: 'USD', rating: p.rating, ratings_count: p.reviews, is_prime: false, images: [`https://images.sim.example/images/I/${p.asin}-1._AC_UL300_SR300,200_.jpg`],
  };
}

/** An offer of the all-offers fragment; `n` is its index in the fragment (0 for the pinned buybox offer). */
export function offer(asin: string, price: number, shipping: number, seller: string, id: string, n: number, ratings: number, condition: string, from: string): Record<string, unknown> {
  return {
    price, price_shipping: shipping, currency: 'USD', seller, seller_id: id, seller_link: `/gp/aag/main?ie=UTF8&seller=${id}&asin=${asin}&ref_=olp_merch_name_${n}`,
    rating_count: ratings, condition, delivery: `Ships from ${from}`,
    delivery_options: [{ type: shipping === 0 ? 'FREE delivery' : `$${shipping.toFixed(2)} delivery`, date: { by: 'Monday, June 30' } }],
  };
}

/** The whole product page of B0SIMLMP01 on the com marketplace, fetched at `url`. */
export function deskLampPage(url: string): Record<string, unknown> {
  const delivery = [{ type: 'FREE delivery', date: { by: 'Friday, June 27' } }];
  const review = (id: string, title: string, author: string, rating: number, content: string, verified: boolean) => ({
    id, title, author, rating, content, timestamp: 'Reviewed in the United States on May 2, 2025', profile_id: `SIM${author.toUpperCase()}`, is_verified: verified, review_from: 'local', helpful_count: 12,
  });
  return {
    url, product_id: 'B0SIMLMP01', product_id_in_url: 'B0SIMLMP01', parent_product_id: 'B0SIMLMP01', page: 1, page_type: 'Product',
    title: 'Lumen Desk Lamp with USB Charging Port, Warm White', product_name: 'Lumen Desk Lamp with USB Charging Port, Warm White', brand: 'Lumen', manufacturer: '',
    price: 29.99, price_upper: 29.99, price_buybox: 29.99, price_strikethrough: 39.99, price_initial: 39.99, price_shipping: 0, price_sns: 0, discount_percentage: 25,
    currency: 'USD', coupon: '', stock: 'In Stock', max_quantity: 10, is_prime_eligible: false, has_videos: false, rating: 4.5, reviews_count: 1234, answered_questions_count: 0,
    rating_stars_distribution: [5, 4, 3, 2, 1].map((rating, i) => ({ rating, percentage: [70, 15, 8, 3, 4][i] })),
    reviews: [
      review('R1SIMREVIEW1', '5.0 out of 5 stars Just right', 'Ada', 5, 'Bright enough for reading.', true),
      review('R2SIMREVIEW2', '3.0 out of 5 stars Fine', 'Ben', 3, 'Does the job.', false),
    ],
    review_ai_summary: null,
    images: [1, 2].map((i) => `https://images.sim.example/images/I/B0SIMLMP01-${i}._AC_SL1500_.jpg`),
    bullet_points: 'Three brightness levels\nUSB-C charging port\nFoldable arm',
    description: 'Lumen Desk Lamp with USB Charging Port, Warm White. Three brightness levels. USB-C charging port. Foldable arm.',
    category: [{ ladder: [{ url: '/b/ref=dp_bc_1?ie=UTF8&node=900000', name: 'Home & Kitchen' }, { url: '/b/ref=dp_bc_2?ie=UTF8&node=1000001', name: 'Desk Lamps' }] }],
    sales_rank: [
      { rank: 1234, ladder: [{ url: '/gp/bestsellers/home/ref=pd_zg_ts_home', name: 'Home & Kitchen' }] },
      { rank: 7, ladder: [{ url: '/gp/bestsellers/lighting/1000001/ref=pd_zg_hrsr_lighting', name: 'Desk Lamps' }] },
    ],
    variation: [],
    buybox: [{ price: 29.99, stock: 'In Stock', condition: '', delivery_details: delivery }],
    delivery,
    featured_merchant: {
      link: '/gp/help/seller/at-a-glance.html/ref=dp_merchant_link?ie=UTF8&seller=A1SIMSELLER01&asin=B0SIMLMP01', name: 'Lumen Goods', seller_id: 'A1SIMSELLER01',
      shipped_from: 'Amazon', is_marketplace_fulfilled: true,
    },
    pricing_count: 3, pricing_url: '/gp/offer-listing/B0SIMLMP01/ref=dp_olp_NEW_mbc?ie=UTF8&condition=NEW', pricing_str: 'New (3) from $29.99 & FREE Shipping',
    sales_volume: '1K+ bought in past month', sns_discounts: [], developer_info: [],
    product_details: { brand: 'Lumen', model_number: 'SIM-MP01', asin: 'B0SIMLMP01', date_first_available: '1 March 2024' },
    product_dimensions: '', product_overview: [],
    technical_details: [{ name: 'Brand', value: 'Lumen' }, { name: 'Model Number', value: 'SIM-MP01' }],
    important_information: [], warranty_and_support: { links: [], description: '' }, store_url: '/stores/Lumen/page/00000000-SIM',
    buy_it_with: [], frequently_bought_together: [], ads: [], deal_type: '', is_addon_item: false, is_choice: false, parse_status_code: 12000,
  };
}

/** The whole seller profile of A1SIMSELLER01, fetched at `url`. */
export function lumenSellerPage(url: string): Record<string, unknown> {
  const pct = (a: number[]) => Object.fromEntries(['30_days', '90_days', '12_months', 'all_time'].map((k, i) => [k, `${a[i]}%`]));
  return {
    url, query: 'A1SIMSELLER01', page_type: 'Seller', seller_name: 'Lumen Goods', business_name: 'Lumen Goods Ltd',
    business_address: '1 Harbour Road, Leeds, LS1 1AA, GB', description: 'Lamps and lights since 1999.', rating: 95,
    recent_feedback: [
      { feedback: 'Fast and as described', rated_by: 'By Cara on 2 June 2025.', rating_stars: 5 },
      { feedback: 'Arrived late', rated_by: 'By Dev on 30 May 2025.', rating_stars: 2 },
    ],
    feedback_summary_data: {},
    feedback_summary_table: { counts: { '30_days': 20, '90_days': 61, '12_months': 1200, all_time: 4321 }, positive: pct([90, 92, 95, 96]), neutral: pct([5, 3, 2, 2]), negative: pct([5, 5, 3, 2]) },
    products: [],
    parse_status_code: 12000,
  };
}
