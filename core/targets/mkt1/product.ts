/**
 * mkt1 product page (`/dp/<id>`; output-shapes §2.1): the reference service's product shape.
 * Blocks are read independently (a failing block makes the page `partial`); a page without a
 * product title and id is `unrecognised`; a robot check is `blocked`. Prices are numbers in
 * the currency shown; `price` is 0 and `price_buybox` -1 when the page has no buybox offer.
 */
import { Blocks } from '../../parsers/blocks.js';
import type { Document } from '../../parsers/dom.js';
import { attr, hasClass, one, text } from '../../parsers/dom.js';
import type { PageInput, Parsed } from '../../parsers/types.js';
import type { Page } from './common.js';
import { countOf, hrefOf, isBotWall, pageOf, scan, starsOf, statusCode, textAt } from './common.js';
import type { Link } from './product-info.js';
import { bulletPoints, categoryLadder, description, detailRows, importantInformation, overviewRows, salesRanks, snake, technicalRows } from './product-info.js';
import { hasVideos, images, reviews, starDistribution, variations } from './product-media.js';
import type { Delivery, Merchant } from './product-offer.js';
import { buyboxCondition, coupon, deliveries, hasBuybox, isPrime, maxQuantity, merchant, otherSellers, prices, stock } from './product-offer.js';
import { PRODUCT_KEEP } from './regions.js';
import { productIdOfUrl } from './vocabulary.js';

/** A buy box that says there is no offer to show: out of stock, "see all buying options", used only. */
const NO_OFFER = '#outOfStock, #buybox-see-all-buying-choices, #usedBuySection, #unqualifiedBuyBox, #almMultiOfferEgress';

/** What makes a cut page a product page: a title or the product id input. */
const PRODUCT_MARKS = '#productTitle, #title, #ebooksProductTitle, input#ASIN, input[name="ASIN"]';

/** `Brand: Versuni`, `Visit the UGREEN Store`, `Visita la tienda de Cecotec`, `by Mat Follas (Author)` → the name. */
export function brandOf(byline: string): string {
  return byline
    .replace(/^(?:brand|marca|marke|marque|merk|marka|märke|ブランド)\s*[:：]\s*/i, '')
    .replace(/^(?:visit the|visita la tienda de|besuche den|visitez la boutique|visiter la boutique|visita lo store di|bezoek de|ga naar de|odwiedź sklep|besök|visite a loja)\s+/i, '')
    .replace(/(?:のストアを表示|\s+mağazasını ziyaret edin)$/i, '')
    .replace(/(?:\s+|\s*-)(?:store|shop|winkel|butiken|loja)$/i, '')
    .replace(/^(?:by|de|von|di|par)\s+/i, '')
    .replace(/\s*\([^)]*\)\s*(?:,.*)?$/, '')
    .trim();
}

/**
 * The byline's brand or first contributor. A media byline lists contributors as `.author`
 * spans, each with a hidden author pop-over and a `(Author)` role, then `Format: DVD`: the
 * first contributor's name is the brand. A byline of labels only (`Rated: NR`, `Format: DVD`)
 * names no brand.
 */
function bylineName(doc: Document): string {
  // `#byline` is the 2018 US books' id for the same block.
  const byline = one('#bylineInfo', doc) ?? one('#byline', doc);
  const author = byline ? one('.author', byline) : null;
  if (author) return text(author, (e) => hasClass(e, 'a-popover-preload') || hasClass(e, 'contribution')).replace(/,\s*$/, '');
  if (byline && /:\s*$/.test(textAt('.a-color-secondary', byline)) && text(byline).startsWith(textAt('.a-color-secondary', byline))) return '';
  return text(byline) || textAt('#brand', doc) || textAt('#bylineInfo_feature_div', doc);
}

function productId(page: Page): string {
  // `input#ASIN` is the add-to-cart form's; a `name="ASIN"` input before it may be the variation family's (`#twisterNonJsData`).
  const fromInput = attr(one('input#ASIN', page.doc) ?? one('input[name="ASIN"]', page.doc), 'value');
  if (fromInput && /^[A-Z0-9]{10}$/.test(fromInput)) return fromInput;
  const fromReviews = attr(one('#averageCustomerReviews[data-asin]', page.doc), 'data-asin');
  if (fromReviews) return fromReviews;
  const canonical = attr(one('link[rel=canonical]', page.doc), 'href');
  return (canonical && productIdOfUrl(canonical)) || productIdOfUrl(page.url) || '';
}

/**
 * The product page. Its DOM is cut to the elements the blocks below read (regions.ts): a
 * fifth of the page or less, so the parse no longer builds the whole 2 MB page.
 */
export function parseProduct(input: PageInput): Parsed {
  if (isBotWall(input.html)) return { json: null, status: 'blocked' };
  return productOf(input, pageOf(input, PRODUCT_KEEP, (doc) => one(PRODUCT_MARKS, doc) !== null));
}

/** The product JSON of a loaded page (the cut one, or the whole one: the same answer). */
export function productOf(input: PageInput, page: Page): Parsed {
  const { doc, html } = page;
  const b = new Blocks();
  const id = productId(page);
  // A media title carries its binding in a secondary span (`Original recording`, `Paperback`): not part of the title.
  const title = text(one('#productTitle', doc), (e) => hasClass(e, 'a-color-secondary')) || textAt('#title', doc) || textAt('#ebooksProductTitle', doc);
  const byline = bylineName(doc);
  const details = b.run('details', () => detailRows(doc), { rows: [], rank: null });
  const productDetails: Record<string, string> = {};
  for (const r of details.rows) productDetails[snake(r.name)] = r.value;
  const brand = brandOf(byline) || productDetails.brand || productDetails.marca || productDetails.marke || '';

  const p = b.run('price', () => prices(doc, page), { price: null, strike: null, discount: null, shipping: null, sns: null });
  const buybox = hasBuybox(doc) && p.price !== null;
  const price = p.price?.amount ?? 0;
  const currency = p.price?.currency ?? p.strike?.currency ?? page.currency ?? '';
  const delivery = b.run('delivery', () => deliveries(doc), [] as Delivery[]);
  const stockText = b.run('stock', () => stock(doc), '');
  const featured = b.run('merchant', () => merchant(doc), null as Merchant | null);
  const olp = b.run('other sellers', () => otherSellers(doc), { count: 0, url: '', str: '' });
  const ratingText = attr(one('#acrPopover', doc), 'title') ?? textAt('#acrPopover .a-icon-alt, i[data-hook=average-star-rating] .a-icon-alt', doc);
  const answered = countOf(textAt('#askATFLink', doc).replace(/search this page/i, '')) ?? 0;
  const ranks = b.run('sales rank', () => salesRanks(details.rank), [] as { rank: number; ladder: Link[] }[]);
  const dimensions = Object.entries(productDetails).find(([k]) => /dimensions|abmessungen|dimensiones|dimensioni/.test(k))?.[1] ?? '';
  const byLink = hrefOf(one('#bylineInfo', doc));
  const json = {
    url: input.url,
    product_id: id,
    product_id_in_url: productIdOfUrl(input.url) ?? '',
    parent_product_id: scan(html, /["']parent_?[aA]sin["']\s*:\s*["']([A-Z0-9]{10})["']/) || id,
    page: input.page,
    page_type: 'Product',
    title,
    product_name: title,
    brand,
    manufacturer: productDetails.manufacturer ?? productDetails.fabricante ?? productDetails.hersteller ?? productDetails.fabricant ?? '',
    price,
    price_upper: price,
    price_buybox: buybox ? price : -1,
    price_strikethrough: p.strike?.amount ?? null,
    price_initial: p.strike?.amount ?? price,
    price_shipping: p.shipping ?? 0,
    price_sns: p.sns?.amount ?? 0,
    discount_percentage: p.discount,
    currency,
    coupon: b.run('coupon', () => coupon(doc), ''),
    stock: stockText,
    max_quantity: maxQuantity(doc),
    is_prime_eligible: isPrime(doc),
    has_videos: b.run('videos', () => hasVideos(doc, html), false),
    rating: starsOf(ratingText) ?? 0,
    reviews_count: countOf(textAt('#acrCustomerReviewText', doc)) ?? 0,
    answered_questions_count: answered,
    rating_stars_distribution: b.run('histogram', () => starDistribution(doc), []),
    reviews: b.run('reviews', () => reviews(doc), []),
    review_ai_summary: textAt('#product-summary p, [data-hook=cr-insights-widget-summary]', doc) || null,
    images: b.run('images', () => images(doc, html), [] as string[]),
    bullet_points: b.run('bullets', () => bulletPoints(doc), ''),
    description: b.run('description', () => description(doc), ''),
    category: b.run('category', () => categoryLadder(doc), []),
    sales_rank: ranks,
    variation: b.run('variations', () => variations(html, id), []),
    buybox: buybox ? [{ price, stock: stockText, condition: buyboxCondition(doc), delivery_details: delivery }] : [],
    delivery,
    featured_merchant: featured ?? [],
    pricing_count: olp.count,
    pricing_url: olp.url,
    pricing_str: olp.str,
    sales_volume: textAt('#social-proofing-faceout-title-tk_bought', doc),
    sns_discounts: [] as string[],
    developer_info: [] as string[],
    product_details: productDetails,
    product_dimensions: dimensions,
    product_overview: b.run('overview', () => overviewRows(doc), []),
    technical_details: b.run('technical details', () => technicalRows(doc), []),
    important_information: b.run('important information', () => importantInformation(doc), []),
    warranty_and_support: { links: [] as { url: string; title: string }[], description: '' },
    store_url: /\/stores\//.test(byLink) ? byLink : '',
    buy_it_with: [] as unknown[],
    frequently_bought_together: [] as unknown[],
    ads: [] as unknown[],
    deal_type: textAt('#dealBadge_feature_div .dealBadgeTextColor, #dealBadge_feature_div', doc),
    is_addon_item: one('#addOnItem_feature_div .a-box, #addon', doc) !== null,
    is_choice: /choice|elecci[oó]n|wahl|choix|scelta/i.test(textAt('#acBadge_feature_div', doc)),
    parse_status_code: 0,
  };
  // Sections every product page has; one missing is a layout change (or a page of another kind).
  b.expect('title', title !== '');
  b.expect('buy box', p.price !== null || one(NO_OFFER, doc) !== null || /unavailable|nicht verfügbar|no disponible|indisponible|non disponibile/i.test(stockText));
  b.expect('images', json.images.length > 0);
  b.expect('details', details.rows.length > 0 || json.bullet_points !== '');
  // A product id read from the URL alone does not make a page a product page (the 404 page).
  const parsed = b.result(json, title !== '' || one('input#ASIN, input[name="ASIN"], #averageCustomerReviews[data-asin]', doc) !== null);
  json.parse_status_code = statusCode(parsed.status);
  return parsed;
}

