/**
 * What a product card says in words: its title (a heading, else its longest link text, else an
 * image's alt; off-screen copies and tags such as "New Listing" left out; a title attribute
 * that is the full form of a shortened shown title preferred) and its star rating with the
 * review count (as text, "4.5 out of 5", or as data, `rating="4.9" review-count-text="(1.2k)"`).
 */
import { closest, text, type AnyNode, type Element } from '../../parsers/dom.js';
import { firstAttr, inside, isHeading, isLinkEl, isTitleClass } from './card-elements.js';
import { clean, parseCount, parseRating, shownPrice } from './values.js';

/** A link that leads somewhere (not `#`, not `javascript:`). */
export const productLink = (a: Element): boolean => {
  const h = a.attribs.href ?? '';
  return h !== '' && !h.startsWith('#') && !/^javascript:/i.test(h);
};

export function isAncestor(a: Element, b: AnyNode): boolean {
  for (let p = b.parent; p; p = p.parent) if (p === a) return true;
  return false;
}


const RATING_TEXT = /(\d(?:[.,]\d{1,2})?)\s*(?:out of|von|de|sur|su|из|z|van)\s*5\b/i;
/** The count a rating's label carries after it: "4.5 out of 5 with 120 reviews", "5.0 out of 5 stars. 3 reviews". */
const INLINE_COUNT = /(?:with\s+|[.,;]\s*)(\d[\d.,]*)\s+(reviews?|ratings?)/i;
/** A bare star value ("5.0", "4,7") shown beside the stars: not a count. */
const BARE_STARS = /^\d[.,]\d$/;
/** "(123)", "1.2K ratings", or the word first: "Feedback (338)", "Reviews (12)" (a wholesale card's link beside its stars). */
const COUNT_TEXT = /^(?:(?:feedback|reviews?|ratings?|Bewertungen|avis|opiniones)\s*)?\(?\s*(\d[\d.,\s]*[KkMm]?)\s*\+?\s*\)?\s*(ratings?|reviews?|Bewertungen|Rezensionen|valoraciones|opiniones|reseñas|avis|recensioni|calificaciones|avaliações)?$/i;

/** Screen-reader copies of a text (a truncated title keeps its full text off screen). */
const OFFSCREEN = /(^|\s)(a-offscreen|sr-only|visually-hidden|screen-reader-text|screen-reader-only|a-truncate-full|clipped|wt-screen-reader-only|hide-text)(\s|$)/;
const offscreen = (e: Element): boolean => OFFSCREEN.test(e.attribs.class ?? '');
const seen = (el: Element): string => text(el, offscreen);
/** A tag shown inside a title ("New Listing", "Sponsored"), not part of the product's name. */
const TITLE_TAG = /(^|\s)(LIGHT_HIGHLIGHT|NEGATIVE|s-item__title--tag\w*|[\w-]*badge[\w-]*|[\w-]*tagblock[\w-]*)(\s|$)/;
const titleText = (el: Element): string => text(el, (e) => offscreen(e) || (e !== el && TITLE_TAG.test(e.attribs.class ?? '') && text(e).length <= 24));
/** The card a site puts first as a template for its script ("Shop on eBay"): not a result. */
export const PLACEHOLDER_TITLE = /^shop on [\w.]+$/i;

/**
 * A title as the card names it: the shown text, or the `title` attribute of the title element
 * or of its link when that is longer (a shown title cut short or prefixed with the shop's name
 * keeps the product's full name there).
 */
function fullTitle(el: Element): string {
  const shown = titleText(el);
  const link = el.name === 'a' ? el : (inside(el).find((e) => e.name === 'a' && e.attribs.title !== undefined) ?? closest(el, (p) => p.name === 'a', 2));
  for (const attr of [el.attribs.title, link?.attribs.title]) if (attr && extends_(attr, shown)) return attr;
  return shown;
}

/**
 * Whether a title attribute is the full form of a shown title: it starts with the shown text
 * (cut short, with or without an ellipsis), or holds most of its words (a display title
 * shortened, with the shop's or brand's name put before it). A phrase around the title ("Click
 * this link to access <title>") is not.
 */
function extends_(attr: string, shown: string): boolean {
  const a = attr.replace(/\s+/g, ' ').trim().toLowerCase();
  const s = shown.replace(/\s*(…|\.\.\.)$/, '').replace(/\s+/g, ' ').trim().toLowerCase();
  if (a.length <= s.length || s.length < 3) return false;
  if (a.startsWith(s)) return true;
  if (a.includes(s)) return false;
  const words = (t: string) => t.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 1);
  const own = new Set(words(a));
  const shownWords = words(s);
  return shownWords.length >= 3 && shownWords.filter((w) => own.has(w)).length >= shownWords.length * 0.7;
}

/**
 * Whether a text is a price line ("$59.99", "EUR 1,00", "Now $5 each") rather than words that
 * mention one: a listing title may name a price ("Sim only for 3,95€ | Top contract ...").
 */
function priceOnly(t: string): boolean {
  const p = shownPrice(t);
  return p !== null && (t.length <= 24 || t.replace(/[^\p{L}]+/gu, '').length <= 12);
}

/** Whether an element's shown text can be a title: not a price, not a rating. */
function fits(h: Element): boolean {
  const t = seen(h);
  return t.length >= 3 && !priceOnly(t) && !RATING_TEXT.test(t);
}

export function titleOf(card: Element): { title: string | null; titleEl: Element | null } {
  const els = inside(card);
  const named = els.filter(isTitleClass);
  let heading = els.find((e) => isHeading(e) && fits(e)) ?? named.find(fits);
  // A title box may hold the title link and the maker's ("by ShopName"): the innermost title element is the title.
  while (heading) {
    const box: Element = heading;
    const inner = named.find((e) => e !== box && e.name === 'a' && productLink(e) && isAncestor(box, e) && fits(e));
    if (!inner) break;
    heading = inner;
  }
  if (heading) return { title: clean(fullTitle(heading)), titleEl: heading };
  const links = els.filter((e) => isLinkEl(e) && productLink(e));
  const longest = links.map((a) => ({ a, t: seen(a) })).filter((x) => !priceOnly(x.t) && !RATING_TEXT.test(x.t)).sort((x, y) => y.t.length - x.t.length)[0];
  if (longest && longest.t.length >= 3) return { title: clean(fullTitle(longest.a)), titleEl: longest.a };
  const img = els.find((i) => i.name === 'img' && i.attribs.alt !== undefined && i.attribs.alt.length >= 3);
  return { title: img ? clean(img.attribs.alt) : null, titleEl: null };
}


/** The text an element holds itself (its text children), not its descendants'. */
function ownText(el: Element): string {
  let t = '';
  for (const c of el.children) if (c.type === 'text') t += c.data;
  return t.trim();
}

/** Attributes that carry a star rating or a review count as data (`<x-stars rating="4.9" review-count-text="(1.2k)">`). */
const RATING_ATTRS = ['rating', 'data-rating', 'data-rating-value', 'data-score', 'data-stars'];
const COUNT_ATTRS = ['review-count-text', 'data-review-count', 'data-reviews-count', 'data-rating-count', 'reviewcount'];

const RATING_VALUE = /^\s*\d(?:[.,]\d+)?\s*$/;
const isRatingValue = (v: string): boolean => RATING_VALUE.test(v);
const DIGIT = /\d/;
const hasDigit = (v: string): boolean => DIGIT.test(v);

export function ratingOf(card: Element): { rating: number | null; reviews_count: number | null } {
  const els = inside(card);
  for (let i = 0; i < els.length; i++) {
    const el = els[i] as Element;
    const attr = firstAttr(el, RATING_ATTRS, isRatingValue);
    if (attr !== undefined) {
      const rating = parseRating(attr);
      if (rating === null || rating > 5) continue;
      const count = firstAttr(el, COUNT_ATTRS, hasDigit);
      if (count !== undefined) return { rating, reviews_count: parseCount(count) };
      for (const next of els.slice(i + 1, i + 20)) {
        const t = (next.children.length <= 3 ? text(next) : ownText(next)) || (next.attribs['aria-label'] ?? '');
        const c = t.length <= 40 && !RATING_TEXT.test(t) && !BARE_STARS.test(t.trim()) ? COUNT_TEXT.exec(t.trim()) : null;
        if (c) return { rating, reviews_count: parseCount(c[1]) };
      }
      return { rating, reviews_count: null };
    }
    const label = `${el.attribs['aria-label'] ?? ''} ${el.attribs.title ?? ''}`;
    const own = ownText(el);
    const m = RATING_TEXT.exec(label) ?? (own.length < 120 ? RATING_TEXT.exec(own) : null);
    if (!m) continue;
    const rating = parseRating(m[1]);
    const inline = INLINE_COUNT.exec(`${label} ${own}`);
    if (inline) return { rating, reviews_count: parseCount(inline[1]) };
    for (const next of els.slice(i + 1, i + 20)) {
      const t = (next.children.length <= 3 ? text(next) : ownText(next)) || (next.attribs['aria-label'] ?? '');
      const c = t.length <= 40 && !RATING_TEXT.test(t) && !BARE_STARS.test(t.trim()) ? COUNT_TEXT.exec(t.trim()) : null;
      if (c) return { rating, reviews_count: parseCount(c[1]) };
    }
    return { rating, reviews_count: null };
  }
  return { rating: null, reviews_count: null };
}

