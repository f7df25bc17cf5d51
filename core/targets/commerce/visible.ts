/**
 * Product facts read off the visible page, for pages whose structured data and state blobs say
 * nothing (many marketplaces) or too little. Generic rules, no site selectors:
 *
 * - the title is the page's `h1` that names a product (marked as a title, visible, not inside a
 *   dialog), else an element marked as the product title;
 * - the price is an innermost element marked as a price (`class`/`id`/`data-*` naming price)
 *   whose text is a number with a currency beside it, outside carousels of other products,
 *   hidden panels and old/unit/instalment prices, ranked by how the page marks its main price
 *   (buy box, add-to-cart form, the title's region), first in document order on ties;
 * - ids from the add-to-cart form's hidden inputs, data attributes of the title, `SKU: …`
 *   labels beside the title, or the product URL.
 */
import { all, closest, text, type Document, type Element } from '../../parsers/dom.js';
import { labelValuePairs } from '../../extraction/pairs.js';
import type { Candidate } from '../../extraction/model.js';
import type { Breadcrumb, NameValue, ProductFacts } from './types.js';
import { absolute, availabilityOf, clean, idFromUrl, isIdLike, parseCount, parseRating, shownPrice, type MoneyHint } from './values.js';
import { scanMarks, type Marks } from './marks.js';
import { isHidden, nearby, oldPriceNear, priceCandidates, type PriceCandidate } from './visible-price.js';

const TITLE_MARK = /product[-_]?(title|name)|\btitle\b|productTitle|\bname\b|itemTitle/i;
const marked = (el: Element, re: RegExp): boolean => re.test(el.attribs.id ?? '') || re.test(el.attribs.class ?? '') || re.test(el.attribs.itemprop ?? '') || re.test(el.attribs['data-testid'] ?? '');

/** The element that titles the product. */
export function titleElement(doc: Document): Element | null {
  let best: { el: Element; score: number } | null = null;
  for (const h of all('h1', doc)) {
    const t = text(h);
    if (t.length < 3 || t.length > 400 || isHidden(h)) continue;
    const score = (marked(h, TITLE_MARK) ? 3 : all('[id], [class], [itemprop]', h).some((d) => marked(d, TITLE_MARK)) ? 2 : 0) + (t.length >= 10 ? 1 : 0);
    if (!best || score > best.score) best = { el: h, score };
  }
  if (best) return best.el;
  return all('[itemprop=name], [id*=productTitle], [class*=product-title], [class*=product-name], [class*=productName]', doc).find((e) => text(e).length >= 3 && !isHidden(e)) ?? null;
}

const ID_INPUT = /^(asin|sku|sku_?id|product_?id|productid|item_?id|item_?no|pid|tcin|product|product_?code|article_?(?:no|number)|artikel_?nr)$/i;
const ID_DATA = ['data-product-id', 'data-productid', 'data-sku', 'data-sku-id', 'data-skuid', 'data-item-id', 'data-asin', 'data-pid', 'data-id'];
const ID_LABEL = /\b(SKU|Item\s*(?:#|No\.?|number)|Art(?:icle|ikel)?[.\s-]*(?:No|Nr|nummer|number)\.?|Product\s*(?:ID|code)|Código|Réf\.?)\s*[:#]?\s*([A-Za-z0-9][A-Za-z0-9-]{2,30}(?:\.[A-Za-z0-9-]{2,30})*)/i;

function productId(doc: Document, titleEl: Element | null, urls: (string | null)[]): string | null {
  const inputs = all('input[type=hidden][name], input[type=hidden][id]', doc).filter((i) => ID_INPUT.test(i.attribs.name ?? i.attribs.id ?? '') && isIdLike(i.attribs.value ?? ''));
  const inCart = inputs.find((i) => closest(i, (f) => f.name === 'form' && /cart|basket|bag|buy/i.test(`${f.attribs.id ?? ''} ${f.attribs.action ?? ''} ${f.attribs.class ?? ''}`)));
  const input = inCart ?? inputs[0];
  if (input) return input.attribs.value as string;
  if (titleEl) {
    for (const el of [titleEl, ...all('[data-id], [data-sku], [data-product-id], [data-sku-id], [data-item-id], [data-pid], [data-asin]', titleEl)]) {
      for (const a of ID_DATA) if (el.attribs[a] && isIdLike(el.attribs[a] as string)) return el.attribs[a] as string;
    }
    const region = closest(titleEl, (e) => text(e).length > text(titleEl).length + 12, 3);
    const m = region ? ID_LABEL.exec(text(region)) : null;
    if (m) return m[2] as string;
  }
  for (const u of urls) {
    const id = idFromUrl(u);
    if (id) return id;
  }
  return null;
}

// `4.0 étoiles sur 5` names the stars before the scale; `56 Kundenrezensionen`, `145 customer reviews`, `7 commentaires client` qualify the count.
const RATING_TEXT = /(\d(?:[.,]\d{1,2})?)\s*(?:(?:étoiles|stars|Sterne|estrellas|stelle)\s+)?(?:\/|out of|of|von|de|sur|su|из|z|van)\s*5\b/i;
const REVIEWS_TEXT = /(\d[\d.,\s]*[KkMm]?)\s*\+?\s*(?:customer\s+|global\s+|product\s+|Kunden)?(commentaires?|ratings?|reviews?|Bewertungen|Rezensionen|valoraciones|opiniones|reseñas|avis|évaluations|recensioni|calificaciones|avaliações|opinie|hodnocení)\b/i;
/** "Total reviews: 1234", "Bewertungen: 56". */
const REVIEWS_LABELLED = /(?:reviews?|ratings?|Bewertungen|Rezensionen|avis|opiniones|recensioni)\s*[:：]\s*(\d[\d.,]*[KkMm]?)/i;
/** An element that says it shows a rating (class, id, itemprop, test id). */
const RATING_MARK = /rating|stars?\b|review-?score|ratingvalue/i;
const BARE_RATING = /^(\d(?:[.,]\d{1,2})?)$/;
const RATING_ATTRS = ['data-rating', 'data-rating-value', 'data-score', 'rating', 'content'];

/** What an element says of itself for rating purposes: its marks, and a star value it carries as data. */
function ratingMark(el: Element): boolean {
  const a = el.attribs;
  return RATING_MARK.test(`${a.class ?? ''} ${a.id ?? ''} ${a.itemprop ?? ''} ${a['data-testid'] ?? ''}`);
}

function reviewsAfter(els: readonly Element[], i: number): number | null {
  for (const next of els.slice(i + 1, i + 25)) {
    const t = text(next);
    if (t.length > 60) continue;
    const r = REVIEWS_TEXT.exec(t) ?? REVIEWS_LABELLED.exec(t) ?? /^\(\s*(\d[\d.,]*[KkMm]?)\s*\)$/.exec(t);
    if (r) return parseCount(r[1]);
  }
  return null;
}

/**
 * The product's rating and review count near its title, as the page shows them: "4.5 out of 5"
 * (text or aria-label, any of the listed languages), "4,5/5"; else a bare "4,7" or a
 * `data-rating` in an element marked as a rating; else star bars drawn by width ("94%").
 */
function ratingNear(doc: Document, anchor: Element | null): { rating: number | null; reviews_count: number | null } {
  const els = nearby(doc, anchor, 400);
  let drawn: { rating: number; i: number } | null = null;
  for (let i = 0; i < els.length; i++) {
    const el = els[i] as Element;
    const label = `${el.attribs['aria-label'] ?? ''} ${el.attribs.title ?? ''}`;
    const own = el.children.length <= 3 ? text(el) : '';
    let m = RATING_TEXT.exec(label) ?? (own.length < 120 ? RATING_TEXT.exec(own) : null);
    if (!m && ratingMark(el)) {
      const data = RATING_ATTRS.map((k) => el.attribs[k]).find((v) => v !== undefined && BARE_RATING.test(v.trim()));
      m = data !== undefined ? BARE_RATING.exec(data.trim()) : BARE_RATING.exec(own);
      const width = /width:\s*(\d{1,3}(?:\.\d+)?)%/.exec(el.attribs.style ?? '') ?? /width:\s*(\d{1,3}(?:\.\d+)?)%/.exec(all('[style]', el)[0]?.attribs.style ?? '');
      if (!m && width && !drawn) drawn = { rating: Math.round(Number(width[1]) / 2) / 10, i };
    }
    if (!m) continue;
    const rating = parseRating(m[1]);
    if (rating === null || rating > 5) continue;
    const same = REVIEWS_TEXT.exec(`${label} ${own}`) ?? REVIEWS_LABELLED.exec(`${label} ${own}`);
    if (same) return { rating, reviews_count: parseCount(same[1]) };
    return { rating, reviews_count: reviewsAfter(els, i) };
  }
  if (drawn && drawn.rating <= 5) return { rating: drawn.rating, reviews_count: reviewsAfter(els, drawn.i) };
  return { rating: null, reviews_count: null };
}

/** A brand line's own text: not its hidden pop-overs (a book's author card repeats the name with links). */
const brandText = (el: Element) => text(el, (e) => isHidden(e) || /popover|tooltip/i.test(e.attribs.class ?? ''));

/**
 * The brand line as a name: `Visit the X Store`, `by X`, `von X` → X; a media byline's first
 * contributor (`X (Author), Y (Author)`, `X (Artist) Format: Audio CD`) → X; a line of labels
 * only (`Rated: NR Format: DVD`) names no brand.
 */
function brandOf(marks: Marks): string | null {
  const el = marks.brand.find((e) => {
    const t = brandText(e);
    return t.length >= 2 && t.length <= 160 && !isHidden(e);
  });
  if (!el) return null;
  const t = brandText(el)
    .replace(/^(visit the|visita la tienda de|besuchen sie den|brand:|marca:|marke:|by|von|de|par|di)\s+/i, '')
    .replace(/\s+(store|shop|-store|tienda|shop besuchen)$/i, '');
  if (/^[\p{L} ]{2,30}\s?:/u.test(t)) return null;
  return clean(t.replace(/\s*\([^)]*\)(?:\s*[,;].*|\s+[\p{L} ]+\s?:.*)?$/u, '')) || null;
}

const MAIN_IMAGE = /landing|main|primary|hero|zoom/i;
const NOT_A_PHOTO = /\.gif(\?|$)|pixel|spacer|blank|placeholder|sprite|transparent|icon|logo|gallery-image|\/play|badge/i;

/** Images of the product's gallery, the main one (marked main, or with a high-resolution attribute) first. */
function imagesOf(doc: Document, marks: Marks, base: string): string[] {
  const found: { url: string; main: boolean }[] = [];
  if (marks.gallery.size === 0) return [];
  for (const img of all('img', doc)) {
    if (!(marks.gallery.has(img) || closest(img, (e) => marks.gallery.has(e), 6))) continue;
    const hires = img.attribs['data-old-hires'] || img.attribs['data-zoom-image'] || img.attribs['data-large-image'];
    const u = absolute(hires || img.attribs['data-src'] || img.attribs.src, base);
    if (!u || NOT_A_PHOTO.test(u) || found.some((f) => f.url === u)) continue;
    found.push({ url: u, main: !!hires || marked(img, MAIN_IMAGE) });
    if (found.length >= 12) break;
  }
  return [...found.filter((f) => f.main), ...found.filter((f) => !f.main)].map((f) => f.url);
}

/** The h1's text, or the product title element inside it (a subtitle or edition line may sit beside it). */
function titleText(h: Element): string | null {
  const inner = all('[id], [class]', h).find((d) => /product[-_]?title|productTitle/i.test(`${d.attribs.id ?? ''} ${d.attribs.class ?? ''}`));
  return clean(text(inner ?? h));
}

function availability(marks: Marks): boolean | null {
  const el = marks.availability.find((e) => !isHidden(e) && (text(e) !== '' || e.attribs.href || e.attribs.content));
  if (el) {
    const t = clean(el.attribs.content ?? el.attribs.href ?? text(el)) ?? '';
    const v = availabilityOf(t);
    if (v !== null) return v;
    if (/\b(ships|dispatch|deliver|available|left in stock|in stock|auf lager|disponible|en stock)\b/i.test(t)) return true;
    if (/\b(unavailable|out of stock|sold out|agotado|ausverkauft|épuisé|nicht verfügbar)\b/i.test(t)) return false;
  }
  return null;
}

function breadcrumbs(marks: Marks, base: string): Breadcrumb[] {
  const box = marks.breadcrumb[0];
  if (!box) return [];
  return all('a[href]', box)
    .map((a) => ({ name: text(a), url: absolute(a.attribs.href, base) }))
    .filter((b) => b.name !== '' && b.name.length <= 120);
}

function specs(marks: Marks, base: string): NameValue[] {
  const boxes = marks.spec;
  const out: NameValue[] = [];
  const seen = new Set<string>();
  for (const box of boxes.slice(0, 8)) {
    const found: Candidate[] = [];
    labelValuePairs(box, all('table, dl', box), base, found);
    for (const c of found) {
      const name = c.path[0] as string;
      const value = clean(c.value);
      if (!value || seen.has(name.toLowerCase()) || value.length > 300) continue;
      seen.add(name.toLowerCase());
      out.push({ name, value });
      if (out.length >= 100) return out;
    }
  }
  return out;
}

function descriptionOf(marks: Marks): string | null {
  const el = marks.description.find((e) => text(e).length > 20);
  return el ? clean(text(el).slice(0, 5000)) : null;
}

export interface VisibleInput {
  doc: Document;
  url: string;
  canonical: string | null;
  hint: MoneyHint;
}

export function visibleFacts({ doc, url, canonical, hint }: VisibleInput): ProductFacts {
  const titleEl = titleElement(doc);
  const marks = scanMarks(doc);
  const prices = priceCandidates(doc, hint);
  const best: PriceCandidate | undefined = prices.ranked(titleEl)[0];
  const shown = best ? shownPrice(best.text, hint) : null;
  return {
    title: titleEl ? titleText(titleEl) : null,
    product_id: productId(doc, titleEl, [canonical, url]),
    price: shown?.amount ?? null,
    old_price: best && shown?.amount != null ? oldPriceNear(prices, best, shown.amount, hint) : null,
    currency: shown?.currency ?? null,
    currency_symbol: shown?.symbol ?? null,
    brand: brandOf(marks),
    images: imagesOf(doc, marks, url),
    description: descriptionOf(marks),
    availability: availability(marks),
    breadcrumbs: breadcrumbs(marks, url),
    additional_properties: specs(marks, url),
    ...ratingNear(doc, titleEl),
  };
}

