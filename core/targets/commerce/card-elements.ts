/**
 * The elements of a results page's product cards: the smallest elements showing a price (the
 * cards are found from them, cards.ts), and each card's own elements, listed once per card.
 *
 * The card readers ask each card a dozen questions (its headings, its title-like classes, its
 * links, its id attributes, its images, every element for the rating), and each css-select
 * subtree query walked the whole card again: on a results page of sixty cards those walks were
 * a fifth of the listing parse. The list holds exactly what css-select's subtree queries visit
 * (css-select 7, `findAll`): every element below the root — not the root itself, script and
 * style elements included — in document order, and nothing below a `<template>`. Filtering it
 * with the selector's own test gives the same elements in the same order as
 * `all(selector, root)` (test/unit/parsers-shortcuts.test.ts). The DOM is read-only after the
 * load, so a list stays true for the page's life (kept per element in a map on the page:
 * page-memo.ts says why not in a WeakMap).
 */
import { shortText, text, type AnyNode, type Document, type Element } from '../../parsers/dom.js';
import { pageSlot, rootOf } from '../../parsers/page-memo.js';
import { elements } from './marks.js';
import { absolute, shownPrice, withoutFreeShipping, type MoneyHint } from './values.js';

const OLD = /strike|was-?price|\bwas\b|old-?price|list-?price|original|regular|compare|comp-?value|msrp|rrp|crossed|before/i;
const OLD_TEXT = /^(was|list|typical|reg\.?|regular|comp\.? value|statt|uvp|antes|avant)\b|\b(was|list|typical)( price)?:/i;
const NOT_A_PRICE = /\bsave\b|\boff\b|\/\s*mo\b|per month|monthly|payments?|instal+ments?|\/\s*(count|ounce|oz|lb|kg|g|ml|l|unit|item)\b|per (unit|item|count)|\bmin(?:imum|\.)?[\s,.]*order|\borders? (?:over|above|from)\b|deliver|shipping|versand|envío/i;

/**
 * A line that sums up other sellers' offers ("40 New from $47.75", "53 Used from $26.12", "68
 * used & new from $43.76", "10 Angebote ab EUR 4,99"): its price is the cheapest other offer,
 * not the buy box's, though it often sits inside the add-to-cart form (product pages rank it
 * last, so it is the price only of a page without a buy box), and on a results card ("More
 * Buying Choices $13.26 (16 used & new offers)") it is neither the card's price nor a reason
 * to take the card for a widget of several products.
 */
const OFFERS_LINE =
  /\b\d+\s+(?:new|used|offers?|sellers?|options?|angebote|neu|gebraucht|neufs?|occasions?|d['’]occasion|nuevos?|usados?|ofertas?|nuovi|usati|offerte)\b[^\d$€£¥]{0,24}\b(?:from|ab|à partir de|desde|da)\b|\bother sellers from\b|\bused\s*&\s*new from\b|\(\s*\d+\s+(?:used|new)\b[^)]{0,24}\boffers?\s*\)|^more buying choices\b/i;

/** Whether the price's line (its element or its parent, when short) sums up other offers. */
export function offersLine(el: Element): boolean {
  for (let cur: Element | null = el, i = 0; cur && cur.type === 'tag' && i <= 1; cur = cur.parent as Element | null, i++) {
    const t = shortText(cur, 80);
    if (t === null) return false;
    if (OFFERS_LINE.test(t)) return true;
  }
  return false;
}

export interface PriceNode {
  el: Element;
  text: string;
  old: boolean;
  /** The price sums up other offers (see OFFERS_LINE). */
  offers: boolean;
}

const LONG = 0;
const PRICE = 1;
const NONE = 2;
type Said = typeof LONG | typeof PRICE | typeof NONE;

/** The smallest elements whose text shows a price. */
export function priceNodes(doc: Document, hint: MoneyHint): PriceNode[] {
  const found: Element[] = [];
  // What each climbed element's short text says (too long / a price / not one): the parts of a
  // split price climb to the same ancestors, whose text is read once, not once per part.
  const said = new Map<Element, Said>();
  for (const el of elements(doc)) {
    if (el.children.length > 8) continue;
    let own = false;
    for (const c of el.children) if (c.type === 'text' && /[\d$€£¥₹]/.test(c.data)) own = true;
    if (!own) continue;
    // A price split over spans ("$" "19" "99") is read from the nearest ancestor that shows it whole.
    for (let cur: Element | null = el, i = 0; cur && cur.type === 'tag' && i < 3; cur = cur.parent as Element | null, i++) {
      let s = said.get(cur);
      if (s === undefined) {
        const t = shortText(cur, 40);
        s = t === null ? LONG : shownPrice(t, hint) ? PRICE : NONE;
        said.set(cur, s);
      }
      if (s === LONG) break;
      if (s === PRICE) {
        found.push(cur);
        break;
      }
    }
  }
  // Innermost only: "$59.99" inside a price box that also reads "$59.99".
  const outer = new Set<AnyNode>();
  for (const el of found) for (let p = el.parent; p && !outer.has(p); p = p.parent) outer.add(p);
  return [...new Set(found)]
    .filter((el) => !outer.has(el))
    .map((el) => {
      const t = text(el);
      return { el, text: t, old: isOld(el, t), offers: offersLine(el) };
    })
    .filter((p) => !(NOT_A_PRICE.test(p.text) && NOT_A_PRICE.test(withoutFreeShipping(p.text))));
}

function isOld(el: Element, t: string): boolean {
  if (OLD_TEXT.test(t)) return true;
  for (let cur: Element | null = el, i = 0; cur && cur.type === 'tag' && i <= 3; cur = cur.parent as Element | null, i++) {
    if (cur.name === 'del' || cur.name === 's' || cur.name === 'strike' || cur.attribs['data-a-strike'] === 'true') return true;
    if (OLD.test(`${cur.attribs.class ?? ''} ${cur.attribs['data-testid'] ?? ''}`)) return true;
  }
  return false;
}

const scopes = pageSlot<Map<Element, Element[]>, AnyNode>('gleaner.card-scopes');

const isTag = (n: AnyNode): n is Element => n.type === 'tag' || n.type === 'script' || n.type === 'style';

/** Every element below `root`, in document order, as css-select's subtree queries see them. */
export function inside(root: Element): Element[] {
  const page = rootOf(root);
  const kept = scopes.get(page) ?? scopes.set(page, new Map());
  let out = kept.get(root);
  if (out) return out;
  out = [];
  const stack: AnyNode[] = [];
  for (let i = root.children.length - 1; i >= 0; i--) stack.push(root.children[i] as AnyNode);
  while (stack.length > 0) {
    const n = stack.pop() as AnyNode;
    if (!isTag(n)) continue;
    out.push(n);
    if (n.name === 'template') continue;
    const ch = n.children;
    for (let i = ch.length - 1; i >= 0; i--) stack.push(ch[i] as AnyNode);
  }
  kept.set(root, out);
  return out;
}

/** `a[href]`. */
export const isLinkEl = (e: Element): boolean => e.name === 'a' && e.attribs.href !== undefined;

/** `[class*=title], [class*=Title], [class*=name], [data-testid*=title]` (case-sensitive, as css-select reads `class`). */
export function isTitleClass(e: Element): boolean {
  const c = e.attribs.class;
  if (c !== undefined && (c.includes('title') || c.includes('Title') || c.includes('name'))) return true;
  return e.attribs['data-testid']?.includes('title') === true;
}

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5']);

/** A heading drawn by class or role (`<div class="h2">`, a CSS framework's heading style; `role="heading"`). */
const HEADING_CLASS = /(^|\s)h[1-5](\s|$)/;

/** `h1, h2, h3, h4, h5`, or an element styled or announced as one. */
export const isHeading = (e: Element): boolean =>
  HEADINGS.has(e.name) || e.attribs.role === 'heading' || (e.attribs.class !== undefined && HEADING_CLASS.test(e.attribs.class));

/** The first value of `names` on `el` that passes `ok`, in the order of `names`. */
export function firstAttr(el: Element, names: readonly string[], ok: (v: string) => boolean): string | undefined {
  for (const a of names) {
    const v = el.attribs[a];
    if (v && ok(v)) return v;
  }
  return undefined;
}

const PRICE_MARK = /price/i;

/** Whether a price element, or one of its two parents, says it shows a price (class, itemprop, test id). */
export function markedPrice(el: Element): boolean {
  for (let cur: Element | null = el, i = 0; cur && cur.type === 'tag' && i <= 2; cur = cur.parent as Element | null, i++) {
    const a = cur.attribs;
    if (PRICE_MARK.test(a.class ?? '') || PRICE_MARK.test(a.itemprop ?? '') || PRICE_MARK.test(a['data-testid'] ?? '')) return true;
  }
  return false;
}

/** Attributes a lazily loaded image keeps its address in until a script moves it to `src`. */
const LAZY_SRC = ['data-src', 'data-lazy-src', 'data-original', 'image-src', 'data-image-src'];
/** Badges, icons and placeholders drawn as images (a "hot product" icon, sprites), not the product's photo. */
const NOT_A_PHOTO = /\/icons?\/|[_-]icon|sprite|spacer|pixel|blank\.|transparent|placeholder|\.svg(\?|$)/i;

/** An image's photo URL: its lazy address or its `src` (not a data URI), unless it is an icon. */
export function photoOf(img: Element, base: string): string | null {
  const a = img.attribs;
  const src = a.src && !a.src.startsWith('data:') ? a.src : undefined;
  const url = LAZY_SRC.map((k) => a[k]).find((v) => v && !v.startsWith('data:')) ?? src;
  return url && !NOT_A_PHOTO.test(url) ? absolute(url, base) : null;
}
