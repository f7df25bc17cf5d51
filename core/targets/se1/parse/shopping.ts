/**
 * se1 shopping pages: the product search grid (`tbm=shop` / `udm=28`) and a product's page with
 * its offers. Evidence: the shopping-tab grid cards (`sh-dgr__grid-result`, `sh-dlr__list-result`)
 * and the product-listing cards of web results (`pla-unit`), both a heading title plus a price
 * and a merchant line; offers are rows holding a merchant link and a price (`sh-osd__offer-row`,
 * and the right-hand product panel's rows). Prices are read from text, so currency and locale
 * formatting need no per-market code.
 */
import type { PageInput, Parsed } from '../../../parsers/types.js';
import { Blocks } from '../../../parsers/blocks.js';
import type { Document, Element } from '../../../parsers/dom.js';
import { all, attr, closest, linkTarget, loadHtml, one, text } from '../../../parsers/dom.js';
import { priceOf, ratingOf, countOf } from '../../../parsers/values.js';
import type { Price } from '../../../parsers/values.js';
import { parseShoppingUnits } from './ads.js';
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
}

const CARD = '.sh-dgr__grid-result, .sh-dlr__list-result, [data-docid]';

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
  const h = one('h3, h4, [role="heading"]', card);
  const anchor = h ? closest(h, (e) => e.name === 'a', 5) ?? one('a[href]', card) : one('a[href]', card);
  return { title: h ? text(h) : '', anchor };
}

export function parseProductGrid(doc: Document, pageUrl: string): ShoppingProduct[] {
  const out: ShoppingProduct[] = [];
  const cards = all(CARD, doc).filter((c) => !closest(c, (e) => e.attribs['data-docid'] !== undefined || (attr(e, 'class') ?? '').includes('sh-dgr__grid-result')));
  for (const card of cards) {
    const { title, anchor } = cardTitle(card);
    if (!title) continue;
    const priceEl = one('.a8Pemb, .kHxwFf, [data-price]', card);
    const merchantEl = one('.aULzUe, .IuHnof, [data-merchant]', card);
    const { rating, reviews } = ratingOf(text(card));
    out.push({
      position: out.length + 1,
      title,
      url: anchor ? linkTarget(anchor.attribs.href, pageUrl, true) : null,
      product_id: productId(card),
      price: priceOf(priceEl ? text(priceEl) : text(card)),
      merchant: merchantEl ? text(merchantEl) || null : null,
      rating,
      reviews,
    });
  }
  if (out.length > 0) return out;
  // Web results with product listing cards only: report those.
  return parseShoppingUnits(doc, pageUrl).map((u) => ({
    position: u.position,
    title: u.title,
    url: u.url,
    product_id: null,
    price: priceOf(u.price),
    merchant: u.merchant,
    rating: null,
    reviews: null,
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

export function parseOffers(root: Document | Element, pageUrl: string): Offer[] {
  const out: Offer[] = [];
  for (const row of all(OFFER_ROW, root)) {
    const link = one('a[href]', row);
    const merchant = link ? text(link) : '';
    if (!merchant) continue;
    const rowText = text(row);
    const price = priceOf(rowText);
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
  const offers = b.run('offers', () => parseOffers(doc, input.url), []);
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
