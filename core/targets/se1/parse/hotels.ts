/**
 * se1 hotel listings (`se1/travel/hotels`), from the hotel cards of the travel pages and of the
 * hotel block on web results: a card is a link carrying `data-index` (desktop) or a `.X7NTVe`
 * block (basic HTML), with the name in a heading or `.BTPx6e`. Price, rating with review count and
 * star class are read from the card text; description and amenities from their slots when present.
 */
import type { PageInput, Parsed } from '../../../parsers/types.js';
import { Blocks } from '../../../parsers/blocks.js';
import type { Document, Element } from '../../../parsers/dom.js';
import { all, attr, closest, contains, linkTarget, loadHtml, one, text } from '../../../parsers/dom.js';
import { countOf, ratingOf } from '../../../parsers/values.js';
import { pageMoney, type Price, priceIn } from './price.js';
import { pageQuery } from './search.js';

export interface Hotel {
  position: number;
  name: string;
  url: string | null;
  price: Price | null;
  rating: number | null;
  reviews: number | null;
  /** Star class (1-5) when the card states it. */
  stars: number | null;
  description: string | null;
  amenities: string[];
  /** A deal badge ("GREAT DEAL · 34% less than usual"), when shown. */
  deal: string | null;
}

const CARD = 'a[data-index], .X7NTVe, [data-hotel-card]';
const NAME = '.BTPx6e, [data-hotel-name], h2, h3, [role="heading"]';

function starsOf(card: Element, cardText: string): number | null {
  const own = attr(card, 'data-stars') ?? attr(one('[data-stars]', card), 'data-stars');
  if (own && /^\d$/.test(own)) return Number(own);
  const m = cardText.match(/\b([1-5])[- ](?:star|étoiles?|Sterne)/i);
  return m ? Number(m[1]) : null;
}

function ratingFromAria(card: Element): { rating: number | null; reviews: number | null } {
  for (const el of all('[aria-label]', card)) {
    const label = attr(el, 'aria-label') ?? '';
    const m = label.match(/(\d[.,]\d)\s+(?:out of|sur|von)\s+5(?:[^\d]+([\d.,]+))?/);
    if (m) return { rating: Number(m[1].replace(',', '.')), reviews: m[2] ? countOf(m[2]) : null };
  }
  return { rating: null, reviews: null };
}

export function parseHotelCards(doc: Document, pageUrl: string): Hotel[] {
  const out: Hotel[] = [];
  const money = pageMoney(doc, pageUrl);
  const cards = all(CARD, doc).filter((c, i, arr) => !arr.some((o, j) => j !== i && o !== c && contains(o, c)));
  for (const card of cards) {
    const nameEl = one(NAME, card);
    const name = nameEl ? text(nameEl) : '';
    if (!name) continue;
    const body = text(card, (e) => e === nameEl);
    const aria = ratingFromAria(card);
    const shown = ratingOf(body);
    const priceEl = one('.inSSLe, [data-price]', card);
    const descEl = one('.dLtZ8b, [data-hotel-description]', card);
    const dealEl = one('[data-deal], .KdLVm', card);
    const anchor = card.name === 'a' ? card : closest(nameEl ?? card, (e) => e.name === 'a', 6) ?? one('a[href]', card);
    out.push({
      position: out.length + 1,
      name,
      url: anchor ? linkTarget(anchor.attribs.href, pageUrl, true) : null,
      price: priceIn(priceEl ? text(priceEl) : body, money),
      rating: shown.rating ?? aria.rating,
      reviews: aria.reviews ?? shown.reviews,
      stars: starsOf(card, body),
      description: descEl ? text(descEl) || null : null,
      amenities: all('.I9B2He, [data-amenity]', card).map((e) => text(e)).filter(Boolean),
      deal: dealEl ? text(dealEl) || null : null,
    });
  }
  return out;
}

export function parseSe1Hotels(input: PageInput): Parsed {
  const doc = loadHtml(input.html);
  const b = new Blocks();
  const hotels = b.run('hotels', () => parseHotelCards(doc, input.url), []);
  const json = { query: pageQuery(doc, input.params), page: input.page, hotels };
  return { json, status: b.status(hotels.length > 0 || one('#rso, #search, [data-hotel-results]', doc) !== null) };
}
