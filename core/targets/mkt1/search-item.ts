/**
 * One product card of an mkt1 search page (`div.s-result-item[data-component-type=
 * s-search-result]`, and the cards of carousels and grids between the results), in the
 * reference service's search item shape (output-shapes §2.2). The 2024+ cards mark their
 * parts with `data-cy` (`title-recipe`, `reviews-block`, `price-recipe`, `delivery-recipe`,
 * `secondary-offer-recipe`); older cards are read through the same classes they still carry.
 */
import type { AnyNode, Element } from '../../parsers/dom.js';
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

/** Classes whose first element a card field reads (list-regions.ts keeps them in a cut card). */
export const CARD_KEYS = [
  'puis-sponsored-label-text', 's-sponsored-label-text', 's-sponsored-info-icon', 's-label-popover-default', 'a-icon-prime', 's-prime',
  's-coupon-unclipped', 's-coupon-clipped', 'a-badge-text', 'a-badge-label', 'a-truncate-full', 's-image', 'udm-primary-delivery-message',
  's-align-children-center',
] as const;
type Key = (typeof CARD_KEYS)[number];
const KEY_SET: ReadonlySet<string> = new Set(CARD_KEYS);
/** Whether a class list holds one of CARD_KEYS: most elements of a card have none, and splitting every list was most of `indexCard`. */
export const CARD_KEY_CLASS = new RegExp(`(?:^|\\s)(?:${CARD_KEYS.join('|')})(?=\\s|$)`);
/** The `data-cy` parts `readCard` reads (list-regions.ts keeps them whole in a cut card). */
export const CARD_RECIPES = ['title-recipe', 'price-recipe', 'reviews-block', 'secondary-offer-recipe', 'delivery-recipe'] as const;
const BADGE: ReadonlySet<string> = new Set(['a-badge-text', 'a-badge-label', 's-label-popover-default']);

/**
 * What a card holds, found in ONE walk of it: 2024+ cards are 20-30 kB of markup (popovers,
 * add-to-cart forms), and a dozen selector scans of each card cost more than building the DOM.
 * Fields are then read inside the small `data-cy` recipes or taken from this index.
 */
export interface CardIndex {
  card: Element;
  recipes: Map<string, Element>;
  first: Map<Key, Element>;
  /** Badge and label elements, in card order. */
  badges: Element[];
  coupon: Element | null;
  img: Element | null;
}

export function indexCard(card: Element): CardIndex {
  const idx: CardIndex = { card, recipes: new Map(), first: new Map(), badges: [], coupon: null, img: null };
  const stack: AnyNode[] = [...card.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop() as AnyNode;
    if (node.type !== 'tag') continue;
    const a = node.attribs;
    const cy = a['data-cy'];
    if (cy !== undefined && !idx.recipes.has(cy)) idx.recipes.set(cy, node);
    if (node.name === 'img' && idx.img === null) idx.img = node;
    const component = a['data-component-type'];
    if (component === 's-status-badge-component') idx.badges.push(node);
    if (component === 's-coupon-component' && idx.coupon === null) idx.coupon = node;
    if (a.class && CARD_KEY_CLASS.test(a.class)) {
      for (const c of a.class.split(/\s+/)) {
        if (!KEY_SET.has(c)) continue;
        if (!idx.first.has(c as Key)) idx.first.set(c as Key, node);
        if (BADGE.has(c)) idx.badges.push(node);
      }
    }
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as AnyNode);
  }
  return idx;
}

export function isSponsored(idx: CardIndex): boolean {
  if (hasClass(idx.card, 'AdHolder')) return true;
  const f = idx.first;
  if (f.has('puis-sponsored-label-text') || f.has('s-sponsored-label-text') || f.has('s-sponsored-info-icon')) return true;
  // Older cards: a "Sponsored" word in the label popover.
  const label = f.get('s-label-popover-default');
  return label !== undefined && SPONSORED_LABEL.test(text(label));
}

/**
 * A ratings label is a count, at most followed by one word: "84,753 ratings", "2", "1.234
 * Bewertungen". Cards without a reviews block (2021-2022 grid and list cards of unrated items)
 * carry other digit labels that are no count: "Get it Tue, Oct 12 - Tue, Oct 19", the JP
 * release note "この本の出版予定日は2021年7月19日です。".
 */
const COUNT_LABEL = /^\(?[\d.,\s\u00a0]+[KkMm]?\+?\)?(?:\s*\p{L}+)?$/u;

/** The card's review count: a count label (`84,753 ratings`, "Rated 4.4 out of 5 stars by 10478 reviews"), else the count text. */
function reviewCount(block: Element, recipe: boolean): number {
  for (const el of all('[aria-label]', block)) {
    const label = (attr(el, 'aria-label') ?? '').trim();
    if (COUNT_LABEL.test(label) && /\d/.test(label)) return countOf(label) ?? 0;
    const by = / by ([\d.,]+) (?:reviews|ratings)\b/.exec(label);
    if (by) return countOf(by[1]) ?? 0;
  }
  // Inside the reviews recipe the underlined text is the count; in a whole card it is also the
  // title or format link ("オリジナルミニドラマ～その4～", "(6 used & new offers)"). A 2026
  // sponsored-brand card's review link shows the rating ("4.4") before the count ("(10.4k)").
  const spans = all(recipe ? 'a[href*="customerReviews"] span, .s-underline-text' : 'a[href*="customerReviews"] span', block);
  const t = spans.map((e) => text(e)).find((x) => /\d/.test(x) && COUNT_LABEL.test(x) && !/^\d[.,]\d$/.test(x)) ?? '';
  return countOf(t.replace(/[()]/g, '')) ?? 0;
}

/**
 * 2019-2022 cards have no delivery recipe: the delivery row is the card's first
 * `s-align-children-center` row, a grey (`a-color-secondary`) one without prices ("Get it as soon as Today, Mar 17 FREE Shipping by Amazon",
 * "GRATIS Versand durch Amazon"), taken only when it speaks of delivery.
 */
const DELIVERY_WORDS = /get it|deliver|shipping|ships|lieferung|versand|livraison|entrega|envío|envio|frete|receba|consegna|spedizione|お届け|配送|発送/i;
function legacyDelivery(idx: CardIndex): string {
  const row = idx.first.get('s-align-children-center');
  // 2022 list cards use the class on their price block too ("Hardcover $65.00 … Ships to Canada").
  if (!row || !hasClass(row, 'a-color-secondary') || one('.a-price', row)) return '';
  const t = text(row);
  return DELIVERY_WORDS.test(t) ? t : '';
}

function coupon(idx: CardIndex, page: Page): { value: number | null; type: 'nominal' | 'percentage' | null } {
  const t = text(idx.first.get('s-coupon-unclipped') ?? idx.first.get('s-coupon-clipped') ?? idx.coupon);
  if (!t) return { value: null, type: null };
  const pct = /(\d+(?:[.,]\d+)?)\s*%/.exec(t);
  if (pct) return { value: Number((pct[1] as string).replace(',', '.')), type: 'percentage' };
  const m = money(/(?:save|ahorra|spare|économisez)\s+(.+?)(?:\s+with|\s+con|\s+mit|\s+avec|$)/i.exec(t)?.[1] ?? t, page);
  return m ? { value: m.amount, type: 'nominal' } : { value: null, type: null };
}

export function readCard(card: Element, page: Page, pos: number, index?: CardIndex): SearchItem {
  const idx = index ?? indexCard(card);
  const r = idx.recipes;
  const titleBox = r.get('title-recipe') ?? card;
  const h2 = one('h2', titleBox);
  // In that order, not the first of them in the card: a 2022 card opens with its "Best Seller"
  // badge, a link to the bestseller list.
  const titleLink =
    (h2 && h2.parent && h2.parent.type === 'tag' && h2.parent.name === 'a' ? h2.parent : null) ??
    one('h2 a', titleBox) ??
    one('a[href*="/dp/"], a[href*="/sspa/"]', titleBox) ??
    one('a[href]', titleBox);
  const title = text(one('h2 span', titleBox) ?? h2) || text(idx.first.get('a-truncate-full')) || (attr(idx.first.get('s-image') ?? idx.img, 'alt') ?? '');
  const priceBox = r.get('price-recipe') ?? card;
  const shown = all('.a-price', priceBox).filter((p) => attr(p, 'data-a-strike') !== 'true');
  const price = money(priceText(shown[0] ?? null), page);
  // A range ("$12.99 - $15.99") is two prices in a row.
  const upper = shown[1] && /\d\s*[-–]\s*\D{0,4}\d/.test(text(priceBox, (e) => hasClass(e, 'a-offscreen'))) ? money(priceText(shown[1]), page) : null;
  const strike = money(priceText(one('.a-price[data-a-strike=true]', priceBox)), page);
  const reviewsBox = r.get('reviews-block') ?? card;
  const stars = text(one('i.a-icon-star-small .a-icon-alt, i.a-icon-star .a-icon-alt, .a-icon-alt', reviewsBox));
  const secondary = text(r.get('secondary-offer-recipe'));
  const volume = r.has('reviews-block')
    ? all('.a-color-secondary, span.a-size-base', reviewsBox)
        .map((e) => text(e))
        .find((t) => /\d.*(bought|compra|gekauft|achet|acquist)/i.test(t))
    : undefined;
  const b = idx.badges.map((e) => text(e)).join(' | ');
  const c = coupon(idx, page);
  const delivery = text(r.get('delivery-recipe') ?? idx.first.get('udm-primary-delivery-message')) || legacyDelivery(idx);
  const noPrice = price ? null : text(one('.a-color-secondary', r.get('price-recipe') ?? card)) || null;
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
    reviews_count: reviewCount(reviewsBox, reviewsBox !== card),
    url_image: attr(idx.first.get('s-image') ?? idx.img, 'src') ?? '',
    is_prime: idx.first.has('a-icon-prime') || idx.first.has('s-prime'),
    is_sponsored: isSponsored(idx),
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
