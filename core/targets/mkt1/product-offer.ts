/**
 * The offer blocks of an mkt1 product page: the price to pay and the list price (the 2023+
 * `#corePriceDisplay_desktop_feature_div` / `#corePrice_feature_div` / `#apex_desktop`, the
 * 2016 `#priceblock_ourprice`), stock, quantity, the delivery promises (`data-csa-c-delivery-*`
 * attributes), the featured merchant (`#merchantInfoFeature_feature_div`, or the 2016
 * `#merchant-info` sentence), the other-sellers link and coupons.
 */
import type { Document, Element } from '../../parsers/dom.js';
import { all, attr, one, text } from '../../parsers/dom.js';
import type { Amount, Page } from './common.js';
import { countOf, hrefOf, inside, money, priceAt, sellerIdOf, textAt } from './common.js';

export interface Delivery {
  type: string;
  date: { by: string; from?: string };
}

export interface Prices {
  price: Amount | null;
  strike: Amount | null;
  discount: number | null;
  shipping: number | null;
  sns: Amount | null;
}

/** Price blocks, most complete first (the accordion's `#corePrice_feature_div` has no list price). */
const PRICE_ROOTS = ['#corePriceDisplay_desktop_feature_div', '#corePrice_desktop', '#apex_desktop', '#corePrice_feature_div', '#apex_offerDisplay_desktop'];
const LEGACY_PRICE = '#priceblock_dealprice, #priceblock_saleprice, #priceblock_ourprice, #price_inside_buybox, #newBuyBoxPrice, #kindle-price, #price';
/**
 * The 2018-2021 buy box of books and media: the "Buy new" accordion row's offer price (the
 * 2018 US media tab writes it as the row's `.header-price`, beside a rent row's).
 */
const BUY_NEW_PRICE =
  '#buyNewSection .offer-price, #newOfferAccordionRow .offer-price, #buyNew_noncbb .a-color-price, #buyNewSection .a-color-price, #newOfferAccordionRow .header-price, #mediaNoAccordion .header-price';
/** The selected format of a book's format switch (Paperback / Kindle / Hardcover): its price stands for the page's. */
const SELECTED_FORMAT_PRICE = '#tmmSwatches li.selected .a-color-price';

export function prices(doc: Document, page: Page): Prices {
  let price: Amount | null = null;
  let strike: Amount | null = null;
  let discount: number | null = null;
  for (const root of PRICE_ROOTS.map((id) => one(id, doc)).filter((r): r is Element => r !== null)) {
    price ??= priceAt('.priceToPay, .apexPriceToPay, .a-price[data-a-size=xl], .a-price[data-a-size=l], .a-price:not([data-a-strike=true])', root, page);
    strike ??= priceAt('.basisPrice .a-price, .a-price[data-a-strike=true], .a-text-price[data-a-strike=true]', root, page);
    const saving = textAt('.savingsPercentage, .savingPriceOverride', root);
    if (discount === null && /\d/.test(saving)) discount = Math.abs(countOf(saving) ?? 0) || null;
    if (price) break;
  }
  if (!price) price = priceAt(LEGACY_PRICE, doc, page);
  if (!price) price = priceAt(BUY_NEW_PRICE, doc, page);
  if (!price && one('#buyNewSection, #newOfferAccordionRow, #buyNew_noncbb', doc)) price = priceAt(SELECTED_FORMAT_PRICE, doc, page);
  if (!strike) strike = priceAt('#price .a-text-strike, #listPrice, #priceblock_ourprice_row .a-text-strike, #buyBoxInner .a-text-strike', doc, page);
  if (strike && price && strike.amount <= price.amount) strike = null;
  if (discount === null && strike && price && strike.amount > 0) discount = Math.round((1 - price.amount / strike.amount) * 100);
  const sns = priceAt('#sns-base-price, #snsPrice .a-price, #snsDetailPagePrice', doc, page);
  return { price, strike, discount, shipping: shippingPrice(doc, page), sns };
}

/** Shipping cost: the first delivery promise's price (`FREE` → 0), or the 2016 `+ £2.99 delivery` line. */
function shippingPrice(doc: Document, page: Page): number | null {
  const el = one('#mir-layout-DELIVERY_BLOCK [data-csa-c-delivery-price], #deliveryBlockMessage [data-csa-c-delivery-price]', doc);
  const raw = attr(el, 'data-csa-c-delivery-price') ?? textAt('#price-shipping-message, #ourprice_shippingmessage, #saleprice_shippingmessage', doc);
  if (!raw) return null;
  if (/free|gratis|gratuit|kostenlos|gratuita/i.test(raw)) return 0;
  return money(raw, page)?.amount ?? null;
}

export function stock(doc: Document): string {
  const el = one('#availability', doc);
  if (!el) return '';
  const own = one('span.a-size-medium, span.a-color-success, span.a-color-price, span.a-color-state', el);
  return (own ? text(own) : '') || text(el);
}

export function maxQuantity(doc: Document): number {
  let max = 0;
  for (const o of all('select#quantity option, #selectQuantity select option', doc)) {
    const n = Number(attr(o, 'value') ?? text(o));
    if (Number.isInteger(n) && n > max) max = n;
  }
  return max;
}

/** The delivery promises of the buybox, de-duplicated (the block is rendered in several sizes). */
export function deliveries(doc: Document): Delivery[] {
  const out: Delivery[] = [];
  const seen = new Set<string>();
  const scope = inside('#deliveryBlockMessage, #mir-layout-DELIVERY_BLOCK', '[data-csa-c-delivery-time]', doc);
  for (const el of scope.length > 0 ? scope : all('[data-csa-c-delivery-time]', doc).slice(0, 2)) {
    const time = (attr(el, 'data-csa-c-delivery-time') ?? '').trim();
    const full = text(el);
    const bold = text(one('.a-text-bold', el));
    const cut = bold ? full.indexOf(bold) : -1;
    const type = (cut > 0 ? full.slice(0, cut) : full.replace(time, '')).replace(/[\s.]+$/, '').trim();
    if (!time && !type) continue;
    const key = `${type}|${time}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const range = /^(.+?)\s+-\s+(.+)$/.exec(time);
    out.push({ type, date: range ? { by: range[2] as string, from: range[1] as string } : { by: time } });
  }
  return out;
}

export interface Merchant {
  link: string;
  name: string;
  seller_id: string;
  shipped_from: string;
  is_marketplace_fulfilled: boolean;
}

// A name ends at a full stop before a space or the end: `Amazon.com.` is Amazon.com.
const SENTENCE = /(?:Ships|Dispatched) from and sold by (.+?)\.(?:\s|$)|Sold by (.+?) and (?:Fulfilled|Dispatched|Shipped) by (.+?)\.(?:\s|$)|Vendido y enviado por (.+?)\.(?:\s|$)|Verkauf und Versand durch (.+?)\.(?:\s|$)/i;

/** The featured merchant, or null (the reference then answers `[]`). */
export function merchant(doc: Document): Merchant | null {
  const link = one('#sellerProfileTriggerId', doc);
  const shipsFrom = textAt('#fulfillerInfoFeature_feature_div .offer-display-feature-text-message', doc);
  if (link) {
    const href = hrefOf(link);
    const from = shipsFrom || text(one('#merchantInfoFeature_feature_div .offer-display-feature-text-message', doc));
    return { link: href, name: text(link), seller_id: sellerIdOf(href), shipped_from: from, is_marketplace_fulfilled: /amazon/i.test(from) };
  }
  const soldBy = textAt('#merchantInfoFeature_feature_div .offer-display-feature-text-message', doc);
  if (soldBy) return { link: '', name: soldBy, seller_id: '', shipped_from: shipsFrom, is_marketplace_fulfilled: /amazon/i.test(shipsFrom || soldBy) };
  const info = one('#merchant-info', doc);
  const sentence = SENTENCE.exec(text(info));
  if (!info || !sentence) return null;
  const a = one('a[href*="seller="]', info);
  const name = (sentence[1] ?? sentence[2] ?? sentence[4] ?? sentence[5] ?? '').trim();
  const from = (sentence[3] ?? name).trim();
  const href = hrefOf(a);
  return { link: href, name, seller_id: sellerIdOf(href), shipped_from: from, is_marketplace_fulfilled: /amazon/i.test(from) };
}

/** The other-sellers link: `New (10) from AED330.00 & FREE Shipping`, or the 2016 `16 new` link. */
export function otherSellers(doc: Document): { count: number; url: string; str: string } {
  const a = inside('#olpLinkWidget_feature_div, #olp_feature_div, #olp-upd-new, #olp-new, #buybox-see-all-buying-choices', 'a[href*="offer-listing"], a[href*="aod"]', doc)[0];
  if (!a) return { count: 0, url: '', str: '' };
  const str = text(a, (e) => /a-offscreen/.test(e.attribs.class ?? ''));
  const m = /\((\d[\d.,]*)\)|(\d[\d.,]*)\s*(?:new|nuevo|neu|neuf|nuovo|used|&)/i.exec(str);
  return { count: m ? (countOf(m[1] ?? m[2]) ?? 0) : 0, url: hrefOf(a), str };
}

export function coupon(doc: Document): string {
  for (const el of all('#couponBadgeRegularVpc, #promoPriceBlockMessage_feature_div .couponLabelText, #vpcButton, [id^=couponText]', doc)) {
    const t = text(el);
    if (t) return t;
  }
  return '';
}

export function isPrime(doc: Document): boolean {
  return all('#buybox i.a-icon-prime, #corePriceDisplay_desktop_feature_div i.a-icon-prime, #prime-badge, #primeBadge, #price-shipping-message i.a-icon-prime', doc).length > 0;
}

/** Whether the page has a buybox offer to add to the cart. */
export function hasBuybox(doc: Document): boolean {
  return one('#add-to-cart-button, #buy-now-button, input[name="submit.add-to-cart"]', doc) !== null;
}

/** The buybox's price text under its new-offer accordion, when the page shows one. */
export function buyboxCondition(doc: Document): string {
  const el = one('#newAccordionRow .a-text-bold, #newAccordionCaption_feature_div, #buyNew_cbb .a-text-bold', doc) as Element | null;
  return el ? ` ${text(el)} ` : '';
}

