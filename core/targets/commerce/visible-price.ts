/**
 * The product's price on the visible page (see visible.ts for the rules). Candidates are the
 * innermost elements marked as a price whose text shows a number with a currency; each is
 * classed as current, old (struck through, "was", list price) or neither (savings, unit and
 * instalment prices, delivery fees), and current ones are ranked by how the page marks its
 * main price.
 */
import { closest, contains, type Document, type Element } from '../../parsers/dom.js';
import { shortText } from '../../parsers/text.js';
import { offersLine } from './card-elements.js';
import { elements, scanMarks } from './marks.js';
import { shownPrice, withoutFreeShipping, type MoneyHint } from './values.js';

const OLD_MARK = /strike|was-?price|\bwas\b|old-?price|regular|list-?price|original|compare|comp-?value|msrp|rrp|before|crossed|typical/i;
const OLD_TEXT = /^(was|list|typical|reg\.?|regular|comp\.? value|statt|uvp|antes|avant|prix barré)\b|\b(was|list|typical)( price)?:/i;
const NOT_A_PRICE = /\bsave\b|\boff\b|\/\s*mo\b|per month|monthly|payments?|instal+ments?|cuotas|\/\s*(count|ounce|oz|lb|kg|g|ml|l|unit|item)\b|per (unit|item|count)|\bmin(?:imum|\.)?[\s,.]*order|\borders? (?:over|above|from)\b|deliver|shipping|versand|envío|livraison|spar/i;
const NOT_A_PRICE_MARK = /unit-?price|per-?unit|saving|discount|instal+ment|shipping|delivery|badge/i;
const ELSEWHERE = /carousel|slider|swiper|slick|recommend|similar|related|sponsored|upsell|cross-?sell|also-?(bought|viewed)|sims|attach|warranty|protection|accessor|bundle|recently-?viewed|browsing-?history|footer|\bnav\b|comparison/i;
const MAIN = /core-?price|price-?to-?pay|buy-?box|buybox|product-?price|main-?price|pdp-?price|big-?price|our-?price|sale-?price|final-?price|customer-?price|current-?price|offer-?price|apex|price-?block|priceblock|display-?price|price--?current|product-?info/i;

const DIALOG = /modal|popover|dialog|drawer|side-?sheet|overlay|tooltip|flyout/i;
const HIDDEN = /(^|\s)(hidden|aok-hidden|d-none|hide|visually-hidden|sr-only|a-offscreen)(\s|$)/;

/** Hidden panels and dialogs (a side sheet's "Add to your order", a warranty pop-up). */
export function isHidden(el: Element, maxUp = 14): boolean {
  for (let cur: Element | null = el, i = 0; cur && i < maxUp; cur = cur.parent as Element | null, i++) {
    if (cur.type !== 'tag' || cur.name === 'body') break;
    const a = cur.attribs;
    if (a.hidden !== undefined || HIDDEN.test(a.class ?? '') || /display:\s*none/i.test(a.style ?? '')) return true;
    if (DIALOG.test(a.class ?? '') || DIALOG.test(a.id ?? '') || cur.name === 'dialog') return true;
  }
  return false;
}

export interface PriceCandidate {
  el: Element;
  text: string;
  /** Document order. */
  index: number;
  kind: 'current' | 'old';
  /** The line sums up other offers: the price only when the page shows no other (no buy box). */
  offers: boolean;
}

/** What an element says it is. Named attributes only: enumerating every attribute of every element is the slow path. */
function attrsText(el: Element): string {
  const a = el.attribs;
  return `${a.id ?? ''} ${a.class ?? ''} ${a.itemprop ?? ''} ${a['data-testid'] ?? ''} ${a['data-test'] ?? ''} ${a['data-qa'] ?? ''} ${a['data-automation-id'] ?? ''}`;
}

/** Whether the element or an ancestor below `<body>` (whose classes are feature flags) matches. */
function upMatches(el: Element, re: RegExp, levels: number): boolean {
  for (let cur: Element | null = el, i = 0; cur && cur.type === 'tag' && cur.name !== 'body' && i <= levels; cur = cur.parent as Element | null, i++) {
    if (re.test(`${cur.attribs.id ?? ''} ${cur.attribs.class ?? ''}`)) return true;
  }
  return false;
}

function isOld(el: Element, t: string): boolean {
  if (OLD_TEXT.test(t)) return true;
  for (let cur: Element | null = el, i = 0; cur && cur.type === 'tag' && i <= 3; cur = cur.parent as Element | null, i++) {
    if (cur.name === 'del' || cur.name === 's' || cur.name === 'strike' || cur.attribs['data-a-strike'] === 'true') return true;
    if (OLD_MARK.test(`${cur.attribs.id ?? ''} ${cur.attribs.class ?? ''} ${cur.attribs['data-testid'] ?? ''}`)) return true;
  }
  return false;
}

export interface PriceCandidates {
  all: PriceCandidate[];
  /** Current prices, best first. */
  ranked(titleEl: Element | null): PriceCandidate[];
}

export function priceCandidates(doc: Document, hint: MoneyHint): PriceCandidates {
  const marked: { el: Element; index: number; text: string }[] = [];
  for (const { el, index } of scanMarks(doc).price) {
    // A marked container's whole text is not built only to be found longer than a price.
    const t = shortText(el, 80);
    if (!t || shownPrice(t, hint) === null) continue;
    marked.push({ el, index, text: t });
  }
  // Innermost only: a price box holding a price element stands for the same price.
  const outer = new Set<Element>();
  for (const m of marked) for (let p = m.el.parent; p && p.type === 'tag' && !outer.has(p as Element); p = p.parent) outer.add(p as Element);
  const list: PriceCandidate[] = [];
  for (const m of marked) {
    if (outer.has(m.el) || (NOT_A_PRICE.test(m.text) && NOT_A_PRICE.test(withoutFreeShipping(m.text))) || NOT_A_PRICE_MARK.test(attrsText(m.el))) continue;
    if (upMatches(m.el, ELSEWHERE, 14) || isHidden(m.el)) continue;
    list.push({ ...m, kind: isOld(m.el, m.text) ? 'old' : 'current', offers: offersLine(m.el) });
  }
  return {
    all: list,
    ranked(titleEl) {
      const current = list.filter((c) => c.kind === 'current');
      // The title's region: its lowest ancestor that holds a price.
      const region = titleEl ? closest(titleEl, (a) => current.some((c) => contains(a, c.el)), 40) : null;
      const score = (c: PriceCandidate): number =>
        (MAIN.test(attrsText(c.el)) || upMatches(c.el, MAIN, 10) ? 4 : 0) +
        (closest(c.el, (f) => f.name === 'form' && /cart|basket|bag|buy/i.test(`${f.attribs.id ?? ''} ${f.attribs.action ?? ''} ${f.attribs.class ?? ''}`), 30) ? 3 : 0) +
        (region && contains(region, c.el) ? 2 : 0) -
        (c.offers ? 16 : 0);
      return current.map((c) => ({ c, s: score(c) })).sort((a, b) => b.s - a.s || a.c.index - b.c.index).map((x) => x.c);
    },
  };
}

/** The struck-through or "was" price shown beside the chosen one (within a few elements), if higher. */
export function oldPriceNear(prices: PriceCandidates, best: PriceCandidate, amount: number, hint: MoneyHint): number | null {
  let found: { d: number; amount: number } | null = null;
  for (const c of prices.all) {
    if (c.kind !== 'old' || Math.abs(c.index - best.index) > 40) continue;
    const p = shownPrice(c.text, hint);
    if (p?.amount == null || p.amount <= amount) continue;
    const d = Math.abs(c.index - best.index);
    if (!found || d < found.d) found = { d, amount: p.amount };
  }
  return found?.amount ?? null;
}

/** Elements after `anchor` in document order (up to `n`), then the ones before it (nearest first). */
export function nearby(doc: Document, anchor: Element | null, n: number): Element[] {
  const els = elements(doc);
  const at = anchor ? els.indexOf(anchor) : -1;
  if (at < 0) return els.slice(0, n * 2);
  return [...els.slice(at, at + n), ...els.slice(Math.max(0, at - n / 2), at).reverse()];
}
