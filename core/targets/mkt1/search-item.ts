/**
 * One product card of an mkt1 search page (`div.s-result-item[data-component-type=
 * s-search-result]`, and the cards of carousels and grids between the results), in the
 * reference service's search item shape (output-shapes §2.2). The 2024+ cards mark their
 * parts with `data-cy` (`title-recipe`, `reviews-block`, `price-recipe`, `delivery-recipe`,
 * `secondary-offer-recipe`); older cards are read through the same classes they still carry.
 */
import type { Element } from '../../parsers/dom.js';
import { all, attr, hasClass, one, text } from '../../parsers/dom.js';
import type { Page } from './common.js';
import { countOf, hrefOf, money, priceText, starsOf } from './common.js';

export interface SearchItem {
  pos: number;
  url: string;
  product_id: string;
  title: string;
  price: number;
  price_upper: number;
  price_strikethrough: number | null;
  currency: string;
  rating: number;
  reviews_count: number;
  url_image: string;
  is_prime: boolean;
  is_sponsored: boolean;
  is_choice: boolean;
  best_seller: boolean;
  manufacturer: string;
  pricing_count: number;
  sales_volume: string | null;
  shipping_information: string;
  coupon_discount: number | null;
  coupon_discount_type: 'nominal' | 'percentage' | null;
  no_price_reason: string | null;
  variations: unknown[];
  rel_pos?: number;
  is_video?: boolean;
  suggested_query?: string;
}

const SPONSORED_LABEL = /^(sponsored|gesponsert|patrocinado|sponsorisé|sponsorizzato|gesponsord|sponsrad|sponsorowane|スポンサー)/i;

export function isSponsored(card: Element): boolean {
  if (hasClass(card, 'AdHolder')) return true;
  if (one('.puis-sponsored-label-text, .s-sponsored-label-text, [data-component-type="sp-sponsored-result"]', card)) return true;
  return all('.a-color-secondary, .s-label-popover-default', card).some((e) => SPONSORED_LABEL.test(text(e)));
}

/** The card's review count: the `aria-label` of its ratings link (`84,753 ratings`), else the count text. */
function reviewCount(card: Element): number {
  const block = one('[data-cy=reviews-block], .a-row.a-size-small', card) ?? card;
  for (const el of all('[aria-label]', block)) {
    const label = attr(el, 'aria-label') ?? '';
    if (/\d/.test(label) && !/out of|von|de 5|sur 5|su 5|stars|estrellas|sterne|étoiles/i.test(label)) return countOf(label) ?? 0;
  }
  const t = text(one('.s-underline-text, a[href*="customerReviews"] span', block));
  return countOf(t.replace(/[()]/g, '')) ?? 0;
}

function badges(card: Element): string {
  return all('.a-badge-text, .a-badge-label, [data-component-type="s-status-badge-component"], .s-label-popover-default', card)
    .map((e) => text(e))
    .join(' | ');
}

function coupon(card: Element, page: Page): { value: number | null; type: 'nominal' | 'percentage' | null } {
  const t = text(one('.s-coupon-unclipped, .s-coupon-clipped, [data-component-type="s-coupon-component"]', card));
  if (!t) return { value: null, type: null };
  const pct = /(\d+(?:[.,]\d+)?)\s*%/.exec(t);
  if (pct) return { value: Number((pct[1] as string).replace(',', '.')), type: 'percentage' };
  const m = money(/(?:save|ahorra|spare|économisez)\s+(.+?)(?:\s+with|\s+con|\s+mit|\s+avec|$)/i.exec(t)?.[1] ?? t, page);
  return m ? { value: m.amount, type: 'nominal' } : { value: null, type: null };
}

export function readCard(card: Element, page: Page, pos: number): SearchItem {
  const h2 = one('h2', card);
  const titleLink = (h2 && h2.parent && h2.parent.type === 'tag' && h2.parent.name === 'a' ? h2.parent : null) ?? one('h2 a, [data-cy=title-recipe] a[href], a.a-link-normal[href*="/dp/"], a[href*="/sspa/"]', card);
  const title = text(one('h2 span', card) ?? h2) || text(one('.a-truncate-full, .p13n-sc-truncate-desktop-type2', card)) || (attr(one('img.s-image, img', card), 'alt') ?? '');
  const priceBox = one('[data-cy=price-recipe]', card) ?? card;
  const shown = all('.a-price', priceBox).filter((p) => attr(p, 'data-a-strike') !== 'true');
  const price = money(priceText(shown[0] ?? null), page);
  // A range ("$12.99 - $15.99") is two prices in a row.
  const upper = shown[1] && /\d\s*[-–]\s*\D{0,4}\d/.test(text(priceBox, (e) => hasClass(e, 'a-offscreen'))) ? money(priceText(shown[1]), page) : null;
  const strike = money(priceText(one('.a-price[data-a-strike=true]', priceBox)), page);
  const stars = text(one('[data-cy=reviews-block] .a-icon-alt, i.a-icon-star-small .a-icon-alt, i.a-icon-star .a-icon-alt, .a-icon-alt', card));
  const secondary = text(one('[data-cy=secondary-offer-recipe]', card));
  const volume = all('[data-cy=reviews-block] .a-color-secondary, [data-cy=reviews-block] span.a-size-base', card)
    .map((e) => text(e))
    .find((t) => /\d.*(bought|compra|gekauft|achet|acquist)/i.test(t));
  const b = badges(card);
  const c = coupon(card, page);
  const delivery = text(one('[data-cy=delivery-recipe], .udm-primary-delivery-message, .s-align-children-center', card));
  const noPrice = price ? null : text(one('[data-cy=price-recipe] .a-color-secondary, .a-row.a-size-base.a-color-secondary', card)) || null;
  const item: SearchItem = {
    pos,
    url: hrefOf(titleLink),
    product_id: attr(card, 'data-asin') ?? '',
    title,
    price: price?.amount ?? 0,
    price_upper: upper?.amount ?? price?.amount ?? 0,
    price_strikethrough: strike && price && strike.amount > price.amount ? strike.amount : null,
    currency: price?.currency ?? page.currency ?? '',
    rating: starsOf(stars) ?? 0,
    reviews_count: reviewCount(card),
    url_image: attr(one('img.s-image', card) ?? one('img', card), 'src') ?? '',
    is_prime: one('i.a-icon-prime, .s-prime, [aria-label="Amazon Prime"]', card) !== null,
    is_sponsored: isSponsored(card),
    is_choice: /amazon'?s choice|overall pick|elección de amazon|amazons tipp|choix d'amazon|scelta amazon/i.test(b),
    best_seller: /best ?seller|más vendido|meistverkauft|n°1 des ventes/i.test(b),
    manufacturer: '',
    pricing_count: countOf(/\((\d[\d.,]*)\+?\s/.exec(secondary)?.[1]) ?? 0,
    sales_volume: volume ?? null,
    shipping_information: delivery,
    coupon_discount: c.value,
    coupon_discount_type: c.type,
    no_price_reason: noPrice,
    variations: [],
  };
  return item;
}
