/**
 * The product grid of an mkt1 seller's storefront (`/sp?seller=<id>` with its products, and
 * the `/s?me=<id>` storefront it links to): the seller's products as `products` of the seller
 * output. Two markups:
 *
 * - search-result cards (`[data-component-type=s-search-result][data-asin]`, 2019+), read by
 *   the search card reader; sponsored cards are not the seller's products and are left out;
 * - product cards that carry their id (`[data-asin]`, `[data-csa-c-item-id]` in store
 *   grids, `li.s-result-item` of the 2013-2019 storefront): the outermost element per id
 *   holding a link to the product page, its title from the heading, the title attribute, the
 *   truncated full title or the image's alt text.
 */
import type { Document, Element } from '../../parsers/dom.js';
import { all, attr, closest, one, text } from '../../parsers/dom.js';
import type { Page } from './common.js';
import { countOf, hrefOf, money, priceText, starsOf } from './common.js';
import { indexCard, isSponsored, readCard } from './search-item.js';
import { productIdOfUrl } from './vocabulary.js';

export interface StorefrontProduct {
  pos: number;
  product_id: string;
  title: string;
  url: string;
  price: number;
  price_strikethrough: number | null;
  currency: string;
  rating: number;
  reviews_count: number;
  url_image: string;
  is_prime: boolean;
}

const ASIN = /^[A-Z0-9]{10}$/;
const RESULT = '[data-component-type="s-search-result"][data-asin]';

function fromSearchCards(doc: Document, page: Page): StorefrontProduct[] {
  const out: StorefrontProduct[] = [];
  for (const card of all(RESULT, doc)) {
    if (!ASIN.test(attr(card, 'data-asin') ?? '')) continue;
    const idx = indexCard(card);
    if (isSponsored(idx)) continue;
    const r = readCard(card, page, out.length + 1, idx);
    out.push({
      pos: r.pos, product_id: r.product_id, title: r.title, url: r.url, price: r.price, price_strikethrough: r.price_strikethrough, currency: r.currency,
      rating: r.rating, reviews_count: r.reviews_count, url_image: r.url_image, is_prime: r.is_prime,
    });
  }
  return out;
}

/** The id a grid card names: `data-asin`, a store grid's item id, or its product link. */
function idOf(el: Element): string | null {
  const own = attr(el, 'data-asin') ?? attr(el, 'data-csa-c-item-id')?.replace(/^amzn1\.asin\.(?:\d\.)?/, '');
  if (own && ASIN.test(own)) return own;
  return null;
}

function titleOf(card: Element): string {
  const h = one('h2, h3, [data-testid*="title"], .a-truncate-full, a.s-access-detail-page', card);
  const t = h ? (attr(h, 'title') ?? text(h)) : '';
  if (t) return t;
  const link = all('a[href*="/dp/"]', card).find((a) => attr(a, 'title') || text(a));
  return (link ? (attr(link, 'title') ?? text(link)) : '') || (attr(one('img[alt]', card), 'alt') ?? '');
}

function fromGridCards(doc: Document, page: Page): StorefrontProduct[] {
  const out: StorefrontProduct[] = [];
  const seen = new Set<string>();
  for (const el of all('[data-asin], [data-csa-c-item-id]', doc)) {
    const id = idOf(el);
    if (!id || seen.has(id)) continue;
    // The outermost element naming this id is the card; a link to the product makes it one.
    if (closest(el, (a) => idOf(a) === id, 12)) continue;
    const link = one('a[href*="/dp/"], a[href*="/gp/product/"]', el);
    if (!link) continue;
    const title = titleOf(el);
    if (!title) continue;
    seen.add(id);
    const price = money(priceText(one('.a-price:not([data-a-strike=true])', el)) || text(one('.a-color-price, .s-price, .a-price', el)), page);
    const strike = money(priceText(one('.a-price[data-a-strike=true]', el)) || text(one('.a-text-strike', el)), page);
    out.push({
      pos: out.length + 1,
      product_id: id,
      title,
      url: hrefOf(link),
      price: price?.amount ?? 0,
      price_strikethrough: strike && price && strike.amount > price.amount ? strike.amount : null,
      currency: price?.currency ?? page.currency ?? '',
      rating: starsOf(text(one('.a-icon-alt', el))) ?? 0,
      reviews_count: countOf(text(one('.a-size-small .a-link-normal, a[href*="customerReviews"], [aria-label$="ratings"]', el))) ?? 0,
      url_image: attr(one('img', el), 'src') ?? '',
      is_prime: one('.a-icon-prime', el) !== null,
    });
  }
  return out;
}

/** The storefront's products, or an empty list when the page shows none. */
export function storefrontProducts(doc: Document, page: Page): StorefrontProduct[] {
  const cards = fromSearchCards(doc, page);
  if (cards.length > 0) return cards;
  // Grid cards that link to product pages; the seller's own id never looks like a product id.
  return fromGridCards(doc, page).filter((p) => {
    const linked = productIdOfUrl(p.url);
    return linked === undefined || linked === p.product_id;
  });
}
