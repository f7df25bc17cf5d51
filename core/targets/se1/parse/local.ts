/**
 * The local (maps) pack of se1 web results. Each place card, in every generation seen, carries
 * the place's id: `data-cid` on the card link (desktop 2019-2025), `ludocid=` in the link to the
 * place (basic HTML 2015-2025, mobile), and the card's container may hold several links of the
 * same place (name, photo, "More info"). A card is the largest ancestor of a place's first link
 * holding no other place; `.VkpGBb` / `data-local-result` cards without ids are read too.
 *
 * The card's lines read the same in every generation: name (a heading), then
 * "4.4(71) · $$ · Coffee shop" (or "No reviews · Financial consultant"), then
 * "1594 Market St · (555) 123-4567", then hours or a description. Rating and review count come
 * from the "4.4 (71)" shape or the stars' `aria-label`; category is the last word group of the
 * rating line (or the first of the next line); address the first group of the line after it.
 */
import type { Document, Element } from '../../../parsers/dom.js';
import { all, attr, closest, contains, linkTarget, one, text } from '../../../parsers/dom.js';
import { countOf, RATING, ratingOf } from '../../../parsers/values.js';
import { linesOf } from './lines.js';
import { isEngineHost } from './news-tab.js';
import { inRegion } from './regions.js';
import type { LocalResult } from './types.js';

/** Place ids are long decimal numbers; other widgets reuse `data-cid` for short hex ids. */
function placeIdOf(el: Element): string | null {
  const own = el.attribs['data-cid'] ?? (el.name === 'a' ? el.attribs['data-ludocid'] : undefined);
  if (own) return /^\d{6,}$/.test(own) ? own : null;
  const m = /[?&]ludocid=(\d+)/.exec(el.attribs.href ?? '');
  return m ? (m[1] as string) : null;
}

/** Place id → its links, in document order. */
function placeLinks(doc: Document): Map<string, Element[]> {
  const byId = new Map<string, Element[]>();
  // Only links: product cards of shopping units carry a numeric `data-cid` on other elements.
  for (const el of all('a[href*="ludocid="], a[data-cid], a[data-ludocid]', doc)) {
    // Knowledge-panel facts ("Address", "Hours") link to the place too: not a pack.
    if (inRegion(el, 'ads', 'panel') || closest(el, (e) => e.attribs['data-attrid'] !== undefined, 12)) continue;
    const id = placeIdOf(el);
    if (!id) continue;
    const list = byId.get(id) ?? [];
    list.push(el);
    byId.set(id, list);
  }
  return byId;
}

function cardsOf(doc: Document): Element[] {
  const byId = placeLinks(doc);
  const firsts = [...byId.values()].map((l) => l[0] as Element);
  const cards = firsts.map((first) => {
    const mine = byId.get(placeIdOf(first) as string) ?? [];
    let box = first;
    for (let i = 0; i < 8; i++) {
      const p = box.parent;
      if (!p || p.type !== 'tag' || p.name === 'body') break;
      if (firsts.some((o) => o !== first && contains(p, o))) break;
      box = p;
      if (mine.every((l) => contains(box, l)) && one('[role="heading"], h3, h2, .dbg0pd', box)) break;
    }
    return box;
  });
  if (cards.length > 0) return cards;
  return all('.VkpGBb, [data-local-result]', doc).filter((c, i, arr) => !arr.some((o, j) => j !== i && contains(o, c)));
}

const PRICE_LEVEL = /^[$€£¥₹₩]{1,4}(?:\s*[–-]\s*[$€£¥₹₩]{1,4})?$/;
const PHONE = /^\+?[\d\s().-]{7,}$/;

function ratingFromAria(card: Element): number | null {
  for (const el of all('[aria-label]', card)) {
    const m = /(\d(?:[.,]\d)?)\s*(?:out of|von|sur|de|su|из|van|z)\s*5/i.exec(attr(el, 'aria-label') ?? '');
    if (m) return Number((m[1] as string).replace(',', '.'));
  }
  return null;
}

interface Parts {
  category: string | null;
  address: string | null;
}

/** Category and address from the detail lines (see the module comment for the shapes). */
function partsOf(details: string[]): Parts {
  const groups = (line: string) => line.split(/\s*[·⋅•]\s*/).map((g) => g.trim()).filter(Boolean);
  let i = details.findIndex((l) => RATING.test(l) || /^\d[.,]\d\b/.test(l));
  const rated = i >= 0;
  if (i < 0) i = 0;
  const first = groups(details[i] ?? '').filter((g) => !PRICE_LEVEL.test(g) && !RATING.test(g) && !/^\d[.,]\d(?:\s*\([\d.,KkMm]+\))?$/.test(g));
  // Without a rating the first group is the rating slot's text ("No reviews").
  const rest = rated ? first : first.length >= 2 ? first.slice(1) : [];
  const isAddress = (g: string) => !PHONE.test(g) && !PRICE_LEVEL.test(g);
  if (rest.length > 0) {
    const next = groups(details[i + 1] ?? '').filter(isAddress);
    return { category: rest[rest.length - 1] ?? null, address: next[0] ?? null };
  }
  const next = groups(details[i + 1] ?? '').filter(isAddress);
  if (next.length >= 2) return { category: next[0] ?? null, address: next[1] ?? null };
  const after = groups(details[i + 2] ?? '').filter(isAddress);
  return { category: next[0] ?? null, address: after[0] ?? null };
}

/** Whether the page has place cards (their ids), read or not. */
export function hasPlaceCards(doc: Document): boolean {
  return placeLinks(doc).size > 0;
}

export function parseLocalPack(doc: Document, pageUrl: string): LocalResult[] {
  const out: LocalResult[] = [];
  for (const card of cardsOf(doc)) {
    const heading = one('[role="heading"], h3, h2, .dbg0pd', card);
    // The details sit in the link holding the name; the card's other links ("More info",
    // "Website", photo) and buttons ("Expand more") are not details.
    const nameLink = heading ? closest(heading, (e) => e.name === 'a', 8) : null;
    const skip = (e: Element) => attr(e, 'role') === 'button' || (nameLink !== null && e.name === 'a' && e !== nameLink);
    const lines = linesOf(card, skip).filter((l) => l.text);
    const title = heading ? text(heading) : (lines[0]?.text ?? '');
    if (!title) continue;
    const details = lines.filter((l) => !(heading && contains(heading, l.el)) && l.text !== title && !(heading && l.el === heading)).map((l) => l.text);
    const shown = ratingOf(details.join(' · '));
    const rating = shown.rating ?? ratingFromAria(card);
    let reviews = shown.reviews;
    if (reviews === null && rating !== null) {
      const m = /\((\d[\d.,]*\s*[KkMm]?)\)/.exec(details.join(' '));
      reviews = m ? countOf(m[1] as string) : null;
    }
    const { category, address } = partsOf(details);
    // The place's own website: links back into the engine (the place's search, its map) are not.
    let url: string | null = null;
    for (const a of all('a[href]', card)) {
      const u = linkTarget(a.attribs.href, pageUrl);
      if (u && !isEngineHost(u)) {
        url = u;
        break;
      }
    }
    const detailText = details.join(' · ').replace(/\s*·\s*(?:·\s*)+/g, ' · ') || null;
    out.push({ position: out.length + 1, title, rating, reviews, category, address, details: detailText, url });
  }
  return out;
}

