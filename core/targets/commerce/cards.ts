/**
 * The repeated product cards of a results page, found from their prices: every element showing
 * a price votes for each of its ancestors as "a member of a repeated group" (same tag, under
 * parents of one shape); the group with the most members that hold a link
 * and some text is the card list (ties go to the larger cards). Then each card gives its title
 * (a heading, else its longest link text, else an image's alt), link, id (a data attribute or
 * the URL), current and old price, rating and review count, and image. Cards without a price
 * (sold out) are kept when they share the group's shape.
 */
import { closest, type AnyNode, type Document, type Element } from '../../parsers/dom.js';
import { firstAttr, inside, isLinkEl, markedPrice, photoOf, priceNodes, type PriceNode } from './card-elements.js';
import type { ProductFacts } from './types.js';
import { PLACEHOLDER_TITLE, productLink, ratingOf, titleOf } from './card-text.js';
import { absolute, idFromUrl, isIdLike, shownPrice, type MoneyHint } from './values.js';

const VOLATILE = /\d|^(active|selected|current|first|last|odd|even|hover|open|hidden|visible|show|in|is-.*|js-.*)$/;
const ID_ATTRS = ['data-asin', 'data-product-id', 'data-productid', 'data-sku-id', 'data-sku', 'data-item-id', 'data-itemid', 'data-pid', 'data-id', 'data-product-sku'];

const signatures = new WeakMap<Element, string>();

/** Tag and first stable class: the shape siblings of one list share. Memoised (asked at every level of every price). */
function signature(el: Element): string {
  let sig = signatures.get(el);
  if (sig === undefined) {
    const cls = (el.attribs.class ?? '').split(/\s+/).find((c) => c !== '' && !VOLATILE.test(c));
    signatures.set(el, (sig = cls ? `${el.name}.${cls}` : el.name));
  }
  return sig;
}

/** A card's shape (its tag and first stable class): the cards of one list share it. */
export const cardShape = (el: Element): string => signature(el);

/** Whether a subtree has at least `n` characters of text (stops as soon as it has). */
function hasText(el: Element, n: number): boolean {
  counted = 0;
  return countsTo(el, n);
}

/** Characters `countsTo` has counted so far: a counter, not a closure per call. */
let counted = 0;

function countsTo(node: AnyNode, n: number): boolean {
  if (node.type === 'text') return (counted += trimmedLength(node.data)) >= n;
  if (node.type !== 'tag') return false;
  for (const c of node.children) if (countsTo(c, n)) return true;
  return false;
}

/** `s.trim().length` without making the trimmed string (`\s` is the set `trim` removes). */
function trimmedLength(s: string): number {
  let i = 0;
  let j = s.length;
  while (i < j && isSpace(s, i)) i++;
  while (j > i && isSpace(s, j - 1)) j--;
  return j - i;
}

const SPACE = /\s/;
function isSpace(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c <= 0x20 ? c === 0x20 || (c >= 0x09 && c <= 0x0d) : c >= 0xa0 && SPACE.test(s[i] as string);
}

/** Whether a subtree holds a link to somewhere (stops at the first). */
function hasLink(el: Element): boolean {
  if (el.name === 'a' && productLink(el)) return true;
  for (const c of el.children) if (c.type === 'tag' && hasLink(c as Element)) return true;
  return false;
}

const qualified = new WeakMap<Element, boolean>();

/** A card holds a link (or sits in one) and some text. Memoised: the group search asks about the same elements at every level. */
function qualifies(card: Element): boolean {
  let q = qualified.get(card);
  if (q === undefined) {
    q = (hasLink(card) || closest(card, (p) => p.name === 'a' && productLink(p), 3) !== null) && hasText(card, 10);
    qualified.set(card, q);
  }
  return q;
}

export interface Cards {
  cards: Element[];
  prices: Map<Element, PriceNode[]>;
  /** The group sits in a carousel or recommendation strip (a product page's extras, not results). */
  aside: boolean;
}

interface Group {
  members: Set<Element>;
  depth: number;
  parentSig: string;
  grand: AnyNode | null;
  sig: string;
}

export function findCards(doc: Document, hint: MoneyHint): Cards {
  const every = priceNodes(doc, hint);
  // Old prices and offer summaries do not vote: a book's card shows its formats' prices and "More Buying Choices" lines.
  const nodes = every.filter((p) => !p.old && !p.offers);
  const groups = new Map<string, Group>();
  const gid = new Map<AnyNode, number>();
  const idOf = (n: AnyNode | null): number => {
    if (!n) return 0;
    let v = gid.get(n);
    if (v === undefined) gid.set(n, (v = gid.size + 1));
    return v;
  };
  // Every price walks up through the list's containers, which most prices share: an element's
  // group (its key is its own: its parent's parent, its parent's shape, its tag) is found once,
  // and its distinct prices are a short array, not a Set per element (the walk's garbage).
  const groupOf = new Map<Element, Group>();
  const amounts = new Map<Element, (number | null | undefined)[]>();
  for (const p of nodes) {
    let depth = 0;
    const amount = shownPrice(p.text)?.amount;
    for (let a: Element | null = p.el; a && a.parent && a.parent.type === 'tag'; a = a.parent as Element, depth++) {
      const seen = amounts.get(a);
      if (!seen) amounts.set(a, [amount]);
      else if (!seen.includes(amount)) seen.push(amount);
      let g = groupOf.get(a);
      if (!g) {
        const parent = a.parent as Element;
        // Members are grouped by tag only: a results list mixes card kinds (`li.product` and `li.sponsored`).
        const key = `${idOf(parent.parent)}|${signature(parent)}|${a.name}`;
        g = groups.get(key);
        if (!g) groups.set(key, (g = { members: new Set(), depth: 0, parentSig: signature(parent), grand: parent.parent, sig: a.name }));
        groupOf.set(a, g);
      }
      g.members.add(a);
      g.depth = Math.max(g.depth, depth);
      if (depth > 25) break;
    }
  }
  /** How many prices a member shows (distinct amounts: screen-reader copies repeat the shown one). */
  const pricesIn = (m: Element): number => amounts.get(m)?.length ?? 0;
  let best: { key: string; n: number; depth: number } | undefined;
  for (const [key, g] of groups) {
    if (g.members.size < 2) continue;
    const members = [...g.members];
    const n = members.filter((m) => qualifies(m) && pricesIn(m) <= MAX_PRICES).length * (aside(members[0] as Element) ? ASIDE_WEIGHT : 1);
    if (n < 2 * ASIDE_WEIGHT) continue;
    if (!best || n > best.n || (n === best.n && g.depth > best.depth)) best = { key, n, depth: g.depth };
  }
  const prices = new Map<Element, PriceNode[]>();
  if (!best) return { cards: [], prices, aside: false };
  const g = wholeCards(groups.get(best.key)!, groupOf, pricesIn);
  const cards: Element[] = [];
  const shapes = new Set([...g.members].map(signature));
  for (const c of (g.grand && 'children' in g.grand ? g.grand.children : []) as AnyNode[]) {
    if (c.type !== 'tag' || signature(c as Element) !== g.parentSig) continue;
    for (const m of (c as Element).children) {
      if (m.type !== 'tag' || (m as Element).name !== g.sig) continue;
      // A sibling without a price (sold out) joins when it has the shape of a priced card.
      if (!g.members.has(m as Element) && !(shapes.has(signature(m as Element)) && qualifies(m as Element) && namesProduct(m as Element))) continue;
      if (pricesIn(m as Element) <= MAX_PRICES) cards.push(m as Element);
    }
  }
  // Each price to the card above it (cards do not nest: they are children of sibling rows), in
  // the page's order: one walk up per price instead of a walk per card and price.
  const byCard = new Set(cards);
  for (const card of cards) prices.set(card, []);
  for (const p of every) {
    for (let a = p.el.parent; a; a = a.parent) {
      if (byCard.has(a as Element)) {
        prices.get(a as Element)!.push(p);
        break;
      }
    }
  }
  return { cards, prices, aside: cards.length > 0 && aside(cards[0] as Element) };
}

/**
 * The group of whole cards when the chosen group holds their parts: members of two shapes
 * under one parent (a card's details and its price box, when a number in the details, such as
 * a seller's "10$ Min...", reads as a price) are parts of the parent, so the parents' group is
 * the list, provided each parent shows no more prices than a card. Rows of one card shape, and
 * one list mixing card kinds under a single parent, stay as they are.
 */
function wholeCards(g: Group, groupOf: Map<Element, Group>, pricesIn: (m: Element) => number): Group {
  const shapesBy = new Map<Element, Set<string>>();
  for (const m of g.members) {
    const p = m.parent as Element;
    const s = shapesBy.get(p) ?? new Set<string>();
    shapesBy.set(p, s.add(signature(m)));
  }
  if (shapesBy.size < 2 || ![...shapesBy.values()].some((s) => s.size > 1)) return g;
  const parents = [...shapesBy.keys()];
  const up = groupOf.get(parents[0] as Element);
  return up && parents.every((p) => up.members.has(p) && pricesIn(p) <= MAX_PRICES) ? up : g;
}

/** A card shows one product: a member holding more prices than that is a widget of several (a carousel slot). */
const MAX_PRICES = 3;
/** Groups inside carousels and sponsored or recommendation strips count for less than the results list. */
const ASIDE = /carousel|slider|swiper|slick|sponsored|recommend|similar|related|recently|also-?(bought|viewed)|compar/i;
const ASIDE_WEIGHT = 0.1;

function aside(member: Element): boolean {
  for (let p = member.parent, i = 0; p && p.type === 'tag' && (p as Element).name !== 'body' && i < 12; p = p.parent, i++) {
    const a = (p as Element).attribs;
    if ((p as Element).name === 'aside' || ASIDE.test(`${a.id ?? ''} ${a.class ?? ''} ${a['data-testid'] ?? ''}`)) return true;
  }
  return false;
}

/** Whether an element names a product: an id attribute, or a link to a product URL. */
function namesProduct(el: Element): boolean {
  if (firstAttr(el, ID_ATTRS, isIdLike) !== undefined || inside(el).some((e) => firstAttr(e, ID_ATTRS, isIdLike) !== undefined)) return true;
  return inside(el).some((a) => isLinkEl(a) && idFromUrl(absolute(a.attribs.href, 'https://x.invalid/')) !== null);
}

export function cardFacts(card: Element, prices: PriceNode[], base: string, hint: MoneyHint): ProductFacts {
  const { title, titleEl } = titleOf(card);
  if (title && PLACEHOLDER_TITLE.test(title)) return { title: null };
  const els = inside(card);
  const link = (titleEl && (titleEl.name === 'a' ? titleEl : (closest(titleEl, (p) => p.name === 'a', 4) ?? inside(titleEl).find(isLinkEl)))) ?? els.find((e) => isLinkEl(e) && productLink(e)) ?? closest(card, (p) => p.name === 'a', 3);
  const url = link && productLink(link) ? absolute(link.attribs.href, base) : null;
  let id = firstAttr(card, ID_ATTRS, isIdLike) ?? null;
  for (let i = 0; id === null && i < els.length; i++) id = firstAttr(els[i] as Element, ID_ATTRS, isIdLike) ?? null;
  // A price the card marks as one comes before a number in its other texts (a seller named "Jewelry 10$ Min...").
  const current = prices.find((p) => !p.old && !p.offers && markedPrice(p.el)) ?? prices.find((p) => !p.old && !p.offers) ?? prices.find((p) => !p.old);
  const old = prices.find((p) => p.old);
  const price = current ? shownPrice(current.text, hint) : null;
  const oldPrice = old ? shownPrice(old.text, hint) : null;
  let image: string | null = null;
  for (let i = 0; image === null && i < els.length; i++) if (els[i]!.name === 'img') image = photoOf(els[i] as Element, base);
  return {
    title,
    url,
    product_id: id ?? idFromUrl(url),
    price: price?.amount ?? null,
    old_price: oldPrice?.amount != null && price?.amount != null && oldPrice.amount > price.amount ? oldPrice.amount : null,
    currency: price?.currency ?? null,
    currency_symbol: price?.symbol ?? null,
    images: image ? [image] : [],
    ...ratingOf(card),
  };
}
