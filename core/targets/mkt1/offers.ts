/**
 * mkt1 offers (`mkt1/pricing`; output-shapes §2.3): the all-offers fragment
 * (`/gp/aod/ajax`, 2020+: the pinned buybox offer `#aod-pinned-offer` and the `#aod-offer`
 * blocks with `#aod-offer-price`, `#aod-offer-heading`, `#aod-offer-shipsFrom`,
 * `#aod-offer-soldBy`, `#aod-offer-seller-rating`, delivery promises) and the classic
 * offer-listing page (`/gp/offer-listing/<id>`, retired about 2020: `.olpOffer` rows), in the
 * reference's pricing shape. No offers: `product_id` null and the reference's warning.
 */
import { Blocks } from '../../parsers/blocks.js';
import type { Document, Element } from '../../parsers/dom.js';
import { all, attr, hasClass, one, text } from '../../parsers/dom.js';
import type { PageInput, Parsed } from '../../parsers/types.js';
import type { Page } from './common.js';
import { countOf, hrefOf, isBotWall, money, pageOf, priceText, sellerIdOf, starsOf, statusCode, textAt } from './common.js';
import type { Delivery } from './product-offer.js';
import { productIdOfUrl } from './vocabulary.js';

export interface Offer {
  price: number;
  price_shipping: number;
  currency: string;
  seller: string;
  seller_id: string;
  seller_link: string;
  rating_count: number;
  condition: string;
  delivery: string;
  delivery_options: Delivery[];
}

const NO_OFFERS = 'Could not parse pricing information, because there are no available items.';

function shippingOf(raw: string, page: Page): number {
  if (!raw || /free|gratis|gratuit|kostenlos/i.test(raw)) return 0;
  return money(raw, page)?.amount ?? 0;
}

function deliveryOptions(block: Element): Delivery[] {
  const out: Delivery[] = [];
  for (const el of all('[data-csa-c-delivery-time]', block)) {
    const time = (attr(el, 'data-csa-c-delivery-time') ?? '').trim();
    const full = text(el);
    const bold = text(one('.a-text-bold', el));
    const cut = bold ? full.indexOf(bold) : -1;
    const type = (cut > 0 ? full.slice(0, cut) : full.replace(time, '')).replace(/[\s.]+$/, '').trim();
    const range = /^(.+?)\s+-\s+(.+)$/.exec(time);
    out.push({ type, date: range ? { by: range[2] as string, from: range[1] as string } : { by: time } });
  }
  return out;
}

/** One all-offers block (the ids repeat in every block, so each is read inside its block). */
function aodOffer(block: Element, page: Page): Offer | null {
  const price = money(priceText(one('#aod-offer-price .a-price, .aok-offscreen + .a-price, .a-price', block)), page);
  if (!price) return null;
  const soldBy = one('#aod-offer-soldBy', block);
  const link = one('a[href]', soldBy ?? block);
  const seller = link ? text(link) : text(one('.a-color-base, .a-size-small.a-color-base', soldBy ?? block));
  const href = hrefOf(link);
  const shipsFrom = text(one('.a-color-base', one('#aod-offer-shipsFrom', block) ?? block));
  const shippingAttr = attr(one('[data-csa-c-delivery-price]', block), 'data-csa-c-delivery-price') ?? '';
  const ratingText = textAt('#aod-offer-seller-rating [id^=seller-rating-count], #aod-offer-seller-rating', block);
  return {
    price: price.amount,
    price_shipping: shippingOf(shippingAttr, page),
    currency: price.currency ?? page.currency ?? '',
    seller: seller || (/amazon/i.test(shipsFrom) ? shipsFrom : ''),
    seller_id: sellerIdOf(href),
    seller_link: href,
    rating_count: countOf(/\(([\d.,\s]+[KkMm]?)/.exec(ratingText)?.[1] ?? ratingText.replace(/\d+(?:[.,]\d)?\s*(?:out of|von|de|sur|su)\s*5/i, '')) ?? 0,
    condition: textAt('#aod-offer-heading h5, #aod-offer-heading', block),
    delivery: shipsFrom ? `Ships from ${shipsFrom}` : '',
    delivery_options: deliveryOptions(block),
  };
}

/** One classic offer-listing row. */
function olpOffer(row: Element, page: Page): Offer | null {
  const price = money(textAt('.olpOfferPrice', row), page);
  if (!price) return null;
  const name = one('.olpSellerName a', row);
  const logo = one('.olpSellerName img', row);
  const href = hrefOf(name) || hrefOf(one('.olpSellerName a, a[href*="seller="]', row));
  const ratings = /\((\d[\d.,]*)\s+total ratings\)/i.exec(text(one('.olpSellerColumn', row)));
  const from = all('.olpDeliveryColumn li, .olpAvailability li', row)
    .map((li) => text(li))
    .find((t) => /dispatched from|ships from|versand aus|enviado desde/i.test(t));
  return {
    price: price.amount,
    // The US rows add `+ $1.65 estimated tax` to the shipping line: a tax, not a shipping price.
    price_shipping: shippingOf(textAt('.olpShippingPrice', row) || text(one('.olpShippingInfo', row), (e) => hasClass(e, 'olpEstimatedTaxText')), page),
    currency: price.currency ?? page.currency ?? '',
    seller: name ? text(name) : (attr(logo, 'alt') ?? ''),
    seller_id: sellerIdOf(href),
    seller_link: href,
    rating_count: countOf(ratings?.[1]) ?? 0,
    condition: textAt('.olpCondition', row),
    delivery: from ? from.replace(/\.\s.*$/, '').replace(/^Dispatched from/i, 'Ships from').replace(/\.$/, '') : '',
    delivery_options: [],
  };
}

function offersOf(doc: Document, page: Page): Offer[] {
  const out: Offer[] = [];
  for (const block of [...all('#aod-pinned-offer', doc), ...all('#aod-offer', doc)]) {
    const o = aodOffer(block, page);
    if (o) out.push(o);
  }
  if (out.length > 0) return out;
  for (const row of all('.olpOffer', doc)) {
    const o = olpOffer(row, page);
    if (o) out.push(o);
  }
  return out;
}

function productIdOf(input: PageInput, doc: Document): string {
  if (typeof input.params.query === 'string' && /^[A-Z0-9]{10}$/i.test(input.params.query)) return input.params.query.toUpperCase();
  const fromUrl = productIdOfUrl(input.url);
  if (fromUrl) return fromUrl;
  const el = one('#aod-asin-block-asin, input[name="asin"], #all-offers-display-params', doc);
  return attr(el, 'value') ?? attr(el, 'data-asin') ?? '';
}

export function parseOffers(input: PageInput): Parsed {
  if (isBotWall(input.html)) return { json: null, status: 'blocked' };
  const page = pageOf(input);
  const { doc } = page;
  const b = new Blocks();
  const pricing = b.run('offers', () => offersOf(doc, page), [] as Offer[]);
  const title = textAt('#aod-asin-title-text, #olpProductDetails h1, #olpTitle, h1', doc);
  const reviews = textAt('#aod-asin-reviews-count-title, #olpProductDetails .a-size-small a, #aod-asin-reviews-block .a-size-small', doc);
  // The product's star rating in the fragment's header (or the classic page's product details).
  const stars = textAt('#aod-asin-reviews-block .a-icon-alt, #olpProductDetails .a-icon-star .a-icon-alt, #olpProductDetails .a-icon-alt', doc);
  const id = productIdOf(input, doc);
  const json: Record<string, unknown> = {
    url: input.url,
    title,
    product_id: pricing.length > 0 ? id || null : null,
    product_id_in_url: productIdOfUrl(input.url) ?? '',
    page: input.page,
    review_count: countOf(reviews) ?? 0,
    rating: starsOf(stars) ?? 0,
    pricing,
  };
  if (pricing.length === 0) json._warnings = [NO_OFFERS];
  const list = one('#aod-container, #all-offers-display-scroller, #olpOfferList, #aod-offer-list', doc);
  const recognised = pricing.length > 0 || list !== null;
  // The fragment announces how many offers it has (`#aod-total-offer-count`), the classic page
  // shows its rows: offers announced on the first page but none read is a layout change.
  const announced = Number(attr(one('#aod-total-offer-count', doc), 'value') ?? '0') || all('.olpOffer', doc).length;
  b.expect('offers', pricing.length > 0 || announced === 0 || input.page > 1);
  b.expect('title', title !== '');
  const parsed = b.result(json, recognised);
  json.parse_status_code = statusCode(parsed.status);
  return parsed;
}
