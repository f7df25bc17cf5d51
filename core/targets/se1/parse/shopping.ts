/**
 * se1 shopping pages: the product search grid (`tbm=shop` / `udm=28`) and a product's page with
 * its offers. A product card holds a title (heading, or the product link's text), a price, a
 * merchant line, often "4.5 (1,234)" and a thumbnail; the known card containers of 2019-2025
 * (`sh-dgr__grid-result`, `sh-dlr__list-result`, `data-docid`, list items of the 2024-2025
 * grid) are read first, and cards are otherwise found as the largest blocks holding exactly one
 * price. The product-listing cards of web results (`pla-unit`) stand in when the page has no
 * grid. Prices go through the shared money reader (ISO currency, the page's notation); offers
 * are rows holding a merchant link and a price.
 */
import type { PageInput, Parsed } from '../../../parsers/types.js';
import { Blocks } from '../../../parsers/blocks.js';
import type { Document, Element } from '../../../parsers/dom.js';
import { all, attr, closest, contains, linkTarget, loadHtml, one, text } from '../../../parsers/dom.js';
import { moneyContext, type MoneyContext } from '../../../parsers/money.js';
import { countOf, ratingOf } from '../../../parsers/values.js';
import { parseShoppingUnits } from './ads.js';
import { linesOf } from './lines.js';
import { thumbnailIn } from './news-tab.js';
import { pageMoney, type Price, priceIn } from './price.js';
import { pageQuery } from './search.js';

export interface ShoppingProduct {
  position: number;
  title: string;
  url: string | null;
  product_id: string | null;
  price: Price | null;
  merchant: string | null;
  rating: number | null;
  reviews: number | null;
  thumbnail: string | null;
}

const CARD = '.sh-dgr__grid-result, .sh-dlr__list-result, [data-docid], .liKJmf, [role="listitem"]';

function productId(card: Element): string | null {
  const own = attr(card, 'data-docid');
  if (own) return own;
  for (const a of all('a[href]', card)) {
    const m = (a.attribs.href ?? '').match(/\/shopping\/product\/(\d+)/);
    if (m) return m[1];
  }
  return null;
}

function cardTitle(card: Element): { title: string; anchor: Element | null } {
  const h = one('h3, h4, h2, [role="heading"]', card);
  if (h) return { title: text(h), anchor: closest(h, (e) => e.name === 'a', 5) ?? one('a[href]', card) };
  // No heading: the longest link text of the card is the product's name.
  let best: Element | null = null;
  for (const a of all('a[href]', card)) if (text(a).length > (best ? text(best).length : 0)) best = a;
  const t = best ? text(best) : '';
  return { title: t || (attr(one('img[alt]', card), 'alt') ?? '').trim(), anchor: best ?? one('a[href]', card) };
}

function ratingIn(card: Element, cardText: string): { rating: number | null; reviews: number | null } {
  const shown = ratingOf(cardText);
  if (shown.rating !== null) return shown;
  for (const el of all('[aria-label]', card)) {
    const m = /(\d(?:[.,]\d)?)\s*(?:out of|von|sur|de|su|из|van|z)\s*5/i.exec(attr(el, 'aria-label') ?? '');
    if (m) {
      const r = /\(([\d.,]+\s*[KkMm]?)\)|([\d.,]+[KkMm]?)\s+(?:reviews|ratings|avis|Rezensionen|Bewertungen|reseñas)/i.exec(cardText);
      return { rating: Number((m[1] as string).replace(',', '.')), reviews: r ? countOf((r[1] ?? r[2]) as string) : null };
    }
  }
  return { rating: null, reviews: null };
}

/** The merchant: its slot, else the card line after the price that is neither a price nor a rating. */
function merchantOf(card: Element, title: string, price: Price | null, ctx: MoneyContext): string | null {
  const slot = one('.aULzUe, .IuHnof, .WJMUdc, [data-merchant]', card);
  if (slot) return text(slot) || null;
  const lines = linesOf(card).map((l) => l.text);
  const at = price ? lines.findIndex((l) => l.includes(price.text)) : -1;
  for (const l of lines.slice(at + 1)) {
    if (l === title || priceIn(l, ctx) || ratingOf(l).rating !== null || !/\p{L}{2}/u.test(l) || l.length > 60) continue;
    return l;
  }
  return null;
}

/** Cards by the one-price rule: each price's largest ancestor holding no other price. */
function cardsByPrice(doc: Document, ctx: MoneyContext): Element[] {
  const root = one('#rso', doc) ?? one('#search', doc) ?? doc;
  const leaves = all('span, div, b', root).filter((e) => e.children.every((c) => c.type === 'text') && priceIn(text(e), ctx) !== null && text(e).length < 30);
  return leaves
    .map((leaf) => {
      let box = leaf;
      for (let i = 0; i < 10; i++) {
        const p = box.parent;
        if (!p || p.type !== 'tag' || p.name === 'body' || leaves.some((o) => o !== leaf && contains(p, o) && !contains(leaf, o))) break;
        box = p;
      }
      return box;
    })
    .filter((c, i, arr) => arr.indexOf(c) === i && one('a[href]', c) !== null);
}

function readCard(card: Element, pageUrl: string, ctx: MoneyContext): Omit<ShoppingProduct, 'position'> | null {
  const { title, anchor } = cardTitle(card);
  if (!title) return null;
  const priceEl = one('.a8Pemb, .kHxwFf, .lmQWe, [data-price]', card);
  const cardText = text(card);
  const price = priceIn(priceEl ? text(priceEl) : cardText, ctx);
  const { rating, reviews } = ratingIn(card, cardText);
  return {
    title,
    url: anchor ? linkTarget(anchor.attribs.href, pageUrl, true) : null,
    product_id: productId(card),
    price,
    merchant: merchantOf(card, title, price, ctx),
    rating,
    reviews,
    thumbnail: thumbnailIn(card),
  };
}

export function parseProductGrid(doc: Document, pageUrl: string): ShoppingProduct[] {
  const ctx = pageMoney(doc, pageUrl);
  const out: ShoppingProduct[] = [];
  let cards = all(CARD, doc).filter((c) => !closest(c, (e) => e.attribs['data-docid'] !== undefined || (attr(e, 'class') ?? '').includes('sh-dgr__grid-result')));
  // A list item without a picture and a price is navigation (filter chips, tabs), not a product.
  cards = cards.filter((c) => attr(c, 'role') !== 'listitem' || (priceIn(text(c), ctx) !== null && one('img', c) !== null));
  if (cards.length === 0 && one('.pla-unit', doc) === null) cards = cardsByPrice(doc, ctx);
  for (const card of cards) {
    const r = readCard(card, pageUrl, ctx);
    if (r) out.push({ position: out.length + 1, ...r });
  }
  if (out.length > 0) return out;
  // Web results with product listing cards only: report those.
  return parseShoppingUnits(doc, pageUrl).map((u) => ({
    position: u.position,
    title: u.title,
    url: u.url,
    product_id: null,
    price: priceIn(u.price, ctx),
    merchant: u.merchant,
    rating: null,
    reviews: null,
    thumbnail: null,
  }));
}

export function parseSe1ShoppingSearch(input: PageInput): Parsed {
  const doc = loadHtml(input.html);
  const b = new Blocks();
  const results = b.run('results', () => parseProductGrid(doc, input.url), []);
  const json = { query: pageQuery(doc, input.params), page: input.page, results };
  const known = results.length > 0 || one('#rso, #search, .sh-dgr__grid-result, .sh-pr__product-results', doc) !== null;
  return { json, status: b.status(known) };
}

export interface Offer {
  merchant: string;
  url: string | null;
  price: Price | null;
  details: string | null;
}

const OFFER_ROW = 'tr.sh-osd__offer-row, [data-offer-row], .ZCs2R';

export function parseOffers(root: Document | Element, pageUrl: string, ctx: MoneyContext = moneyContext(pageUrl)): Offer[] {
  const out: Offer[] = [];
  for (const row of all(OFFER_ROW, root)) {
    const link = one('a[href]', row);
    const merchant = link ? text(link) : '';
    if (!merchant) continue;
    const rowText = text(row);
    const price = priceIn(rowText, ctx);
    const details = text(row, (e) => e === link || (price !== null && text(e) === price.text)).replace(/^[\s·,]+|[\s·,]+$/g, '');
    out.push({ merchant, url: link ? linkTarget(link.attribs.href, pageUrl, true) : null, price, details: details || null });
  }
  return out;
}

export function parseSe1ShoppingProduct(input: PageInput): Parsed {
  const doc = loadHtml(input.html);
  const b = new Blocks();
  const titleEl = one('[data-attrid="product-title"], h1, [role="heading"][aria-level="1"]', doc);
  const title = titleEl ? text(titleEl) : '';
  const starsEl = one('[aria-label*=" 5"]', doc);
  const rating = starsEl ? Number(((attr(starsEl, 'aria-label') ?? '').match(/\d[.,]\d/)?.[0] ?? '').replace(',', '.')) || null : null;
  const reviewsEl = one('[data-reviews], .yeCYLb, .HiT7Id', doc);
  const description = one('[data-attrid="product-description"], .sh-ds__full-txt, .VOVcm', doc);
  const offers = b.run('offers', () => parseOffers(doc, input.url, pageMoney(doc, input.url)), []);
  const json = {
    product_id: typeof input.params.query === 'string' ? input.params.query : null,
    title: title || null,
    rating,
    reviews: reviewsEl ? countOf(text(reviewsEl).replace(/[^\d.,KkMm]/g, '')) : null,
    description: description ? text(description) || null : null,
    offers,
  };
  return { json, status: b.status(title !== '' || offers.length > 0) };
}
