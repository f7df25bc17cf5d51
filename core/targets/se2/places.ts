/**
 * se2 place blocks: the local/hotel list answer (cards with the engine's place id,
 * `data-ypid`, 2016-2025) and the local entity card of the side column (2019-2025: its save
 * overlay carries `{data: {title, address, id}}` as JSON). Hotel lists are the same cards
 * with a star class ("4-star hotel"); they are reported as hotels, other places as the
 * local pack. Card facts read the same in every layout seen: name heading, a stars line
 * (`aria-label` "Star Rating: 4,5 out of 5.") with the review source and count
 * ("Booking.com (1.8K)" in a `title`), "4-star hotel · New York" (the full address in the
 * `title` of the locality).
 */
import type { Document, Element } from '../../parsers/dom.js';
import { all, attr, closest, contains, one, text } from '../../parsers/dom.js';
import { parseJson } from '../../parsers/embedded.js';
import { countOf } from '../../parsers/values.js';
import type { Hotel } from '../se1/parse/hotels.js';
import type { LocalResult } from '../se1/parse/types.js';

const STARS = /\b([1-5])[- ]?(?:star|Sterne|étoiles?|estrellas?|estrelas?|stelle|звезд)/i;

function ratingOf(card: Element): number | null {
  for (const el of all('[aria-label]', card)) {
    const m = /(\d(?:[.,]\d)?)\s*(?:out of|von|sur|de|su|из|van|z|\/)\s*5/i.exec(attr(el, 'aria-label') ?? '');
    if (m) return Number((m[1] as string).replace(',', '.'));
  }
  const shown = /(\d[.,]\d)\s*\/\s*5/.exec(text(card));
  return shown ? Number((shown[1] as string).replace(',', '.')) : null;
}

function reviewsOf(card: Element): number | null {
  for (const el of all('[title]', card)) {
    const m = /\(([\d.,]+\s*[KkMm]?)\)\s*$/.exec(attr(el, 'title') ?? '');
    if (m) return countOf(m[1] as string);
  }
  const m = /\(([\d.,]+\s*[KkMm]?)\)/.exec(text(card));
  return m ? countOf(m[1] as string) : null;
}

interface PlaceCard {
  title: string;
  rating: number | null;
  reviews: number | null;
  stars: number | null;
  category: string | null;
  address: string | null;
  details: string | null;
}

function readCard(card: Element): PlaceCard | null {
  const heading = one('h2, h3, [role="heading"]', card);
  const title = heading ? text(heading) : attr(card, 'ename') ?? '';
  if (!title) return null;
  const addressEl = one('.b_address', card);
  const facts = all('.b_factrow', card).map((f) => text(f)).filter(Boolean);
  // Rows that are neither the rating row nor the address row name the kind of place.
  // (Opening-hours rows carry a clock time.)
  const kindRows = all('.b_factrow', card).filter((f) => !one('[aria-label], .b_address', f) && !/\(\d|\d[:.]\d\d/.test(text(f))).map((f) => text(f)).filter(Boolean);
  const starLine = facts.find((f) => STARS.test(f));
  const stars = starLine ? Number(STARS.exec(starLine)?.[1]) : null;
  // "4-star hotel · New York": the category before the dot, the locality (full address in its title) after.
  const kind = kindRows.find((f) => f.includes('·')) ?? kindRows.find((f) => !/\d/.test(f)) ?? null;
  const titled = all('.b_factrow span[title]', card).map((s) => attr(s, 'title') ?? '').find((t) => /\d/.test(t) && !/\(\d/.test(t));
  return {
    title,
    rating: ratingOf(card),
    reviews: reviewsOf(card),
    stars,
    category: kind ? (kind.split('·')[0] as string).trim() || null : null,
    address: (addressEl ? text(addressEl) || null : null) ?? titled ?? (kind && kind.includes('·') ? kind.split('·').slice(1).join('·').trim() || null : null),
    details: facts.join(' · ') || null,
  };
}

/** The place cards of list answers: the largest box around each `data-ypid` holding no other. */
function listCards(doc: Document): Element[] {
  const ids = all('[data-ypid]', doc).filter((e) => !closest(e, (p) => hasClassIn(p, 'b_localDesktopInfoCard'), 12));
  return ids.map((el) => {
    let box = el;
    for (let i = 0; i < 8; i++) {
      const p = box.parent;
      if (!p || p.type !== 'tag' || ids.some((o) => o !== el && contains(p, o))) break;
      box = p;
    }
    return box;
  });
}

function hasClassIn(el: Element, cls: string): boolean {
  return (el.attribs.class ?? '').split(/\s+/).includes(cls);
}

/** The side column's local entity card. */
function entityCard(doc: Document): LocalResult | null {
  const card = one('.b_localDesktopInfoCard', doc);
  if (!card) return null;
  const overlay = parseJson(attr(one('[data-saveoverlay]', card), 'data-saveoverlay') ?? '') as { data?: { title?: unknown; address?: unknown } } | undefined;
  const read = readCard(card);
  const title = typeof overlay?.data?.title === 'string' ? overlay.data.title : read?.title;
  if (!title) return null;
  const address = typeof overlay?.data?.address === 'string' ? overlay.data.address.replace(/\s*·\s*/g, ', ') : (read?.address ?? null);
  // The category is the fact line under the name ("Bar", "Brewery").
  const category = all('.b_factrow', card).map((f) => text(f)).find((f) => f && f.length < 40 && !/\d/.test(f)) ?? null;
  return { position: 1, title, rating: read?.rating ?? null, reviews: read?.reviews ?? null, category, address, details: read?.details ?? null, url: null };
}

export function parseSe2Places(doc: Document): { local: LocalResult[]; hotels: Hotel[] } {
  const cards = listCards(doc)
    .map(readCard)
    .filter((c): c is PlaceCard => c !== null);
  const isHotels = cards.some((c) => c.stars !== null);
  if (isHotels) {
    const hotels = cards.map((c, i) => ({
      position: i + 1,
      name: c.title,
      url: null,
      price: null,
      rating: c.rating,
      reviews: c.reviews,
      stars: c.stars,
      description: null,
      amenities: [],
      deal: null,
    }));
    return { local: [], hotels };
  }
  const local: LocalResult[] = cards.map((c, i) => ({ position: i + 1, title: c.title, rating: c.rating, reviews: c.reviews, category: c.category, address: c.address, details: c.details, url: null }));
  const entity = entityCard(doc);
  if (local.length === 0 && entity) local.push(entity);
  return { local, hotels: [] };
}
