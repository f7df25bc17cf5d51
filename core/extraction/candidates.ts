/**
 * Candidates from the visible page: label/value pairs (pairs.ts), headed lists, the main
 * heading and text, and elements whose id/class names a field (`id="productTitle"`,
 * `class="price"`). Cards (repeated.ts) get a few extra, looser rules.
 *
 * Where a value sits weighs on it: around the content (navigation, footers, related-item
 * blocks: tree.ts zones) and inside the cards of other items (a grid of product cards on a
 * product page) a value is believed less, so that a field is not filled from an element about
 * something else. One tree for the page; each reader reads texts on a budget of its own,
 * proportional to the page: linear in the page, and no reader starves another.
 */
import { type AnyNode, type Budget, type Document, type Element, absoluteUrl, attr, budgetFor, children, clean, imageUrl, isTag, textOf } from './dom.js';
import { conceptOf, norm } from './matcher.js';
import { type Candidate, type Origin, WEIGHT, ZONE_FACTOR } from './model.js';
import { type PairContext, cleanLabel, isLabel, labelValuePairs, newPairContext } from './pairs.js';
import { LINK, MEDIA, Tree } from './tree.js';

const SKIP = new Set(['script', 'style', 'noscript', 'template', 'svg', 'head', 'select', 'option', 'iframe']);
/** Largest element (in elements) whose text is read as one field's value. */
const VALUE_MAX_SIZE = 200;
/** Members of another item's card are believed this much for the page's own fields. */
const CARD_FACTOR = 0.6;
/** Largest element (in elements) taken for a card of another item. */
const CARD_MAX_SIZE = 150;

interface Reader extends PairContext {
  base: string;
  out: Candidate[];
  /** Elements inside the cards of a repeated structure (page level only). */
  inCard: Set<Element>;
  /** The schema's field names (normalised), when the caller gave them. */
  fields: ReadonlySet<string> | undefined;
}

function add(r: Reader, at: Element | undefined, path: string[], value: unknown, origin: Origin, weight: number, source: string): void {
  let w = weight;
  if (at) w *= ZONE_FACTOR[r.tree.zone(at)] * (r.inCard.has(at) ? CARD_FACTOR : 1);
  r.out.push({ path, value, origin, weight: w, source });
}

function text(r: Reader, el: Element, budget: Budget = r.budget): string {
  return r.tree.size(el) > VALUE_MAX_SIZE ? '' : textOf(el, false, budget);
}

function sectionCandidate(r: Reader, h: Element): void {
  const label = cleanLabel(text(r, h));
  if (!isLabel(label)) return;
  let next: AnyNode | null = h.next;
  while (next && !isTag(next)) next = next.next;
  if (!next || !isTag(next)) return;
  if (next.name === 'ul' || next.name === 'ol') {
    const items = children(next).filter((li) => li.name === 'li').map((li) => text(r, li)).filter((t) => t !== '');
    if (items.length > 0) add(r, next, [label], items, 'section', WEIGHT.section, `section:${label}`);
  } else if (next.name === 'p') {
    const t = text(r, next);
    if (t !== '') add(r, next, [label], t, 'section', WEIGHT.section, `section:${label}`);
  }
}

/** The page's main heading: of several `<h1>`, the one the document title repeats. */
function mainHeading(r: Reader, h1s: Element[], title: string): { el: Element; text: string } | undefined {
  const words = new Set(title.toLowerCase().split(/\W+/).filter((w) => w.length > 2));
  let best: { el: Element; text: string; score: number } | undefined;
  const score = (t: string): number => {
    const toks = t.toLowerCase().split(/\W+/).filter((w) => w.length > 2);
    return toks.length === 0 ? 0 : toks.filter((w) => words.has(w)).length / toks.length;
  };
  for (const h of h1s.slice(0, 12)) {
    if (r.tree.invisible(h)) continue;
    let t = text(r, h);
    if (t === '') continue;
    // `<h1><span>Title</span> <span>Hardcover – 7 April 2016</span></h1>`: the title is the first part.
    const parts = children(h).map((c) => text(r, c)).filter((x) => x !== '');
    if (parts.length >= 2 && (parts[0] as string).length >= t.length / 2 && score(parts[0] as string) >= score(t)) t = parts[0] as string;
    // Content beats chrome, then the title's words decide.
    const s = score(t) + (r.tree.zone(h) === 'chrome' ? -1 : 0);
    if (!best || s > best.score) best = { el: h, text: t, score: s };
  }
  return best;
}

/** Classes of text written for screen readers only: the value whole, where the eye sees it in parts. */
const SPOKEN = /(^|\s)(a-offscreen|sr-only|visually-hidden|screen-reader-text)(\s|$)/;
const PRICE_TEXT = /^(?:[A-Z]{0,3}[$€£¥₹]|[A-Z]{3}\s)\s?\d[\d.,\s]*$|^\d[\d.,\s]*\s?(?:[$€£¥₹]|[A-Z]{3}|zł|kr|Kč)$/;
const RATING_TEXT = /^(\d(?:[.,]\d+)?)\s*(?:out of|of|von|sur|de|\/)\s*5\b/i;

/** Elements named for what they hold: one candidate per id, class, data-testid. */
function attributeCandidates(r: Reader, card: boolean): void {
  // Nested named elements each read their subtree (at most VALUE_MAX_SIZE elements): a larger budget.
  const budget = budgetFor(r.tree.elements.length, 16);
  const conceptCache = new Map<string, boolean>();
  // Names no concept knows but the caller's schema uses (`class="replies"` for a `replies` field).
  const wanted = (k: string): boolean => r.fields !== undefined && r.fields.has(norm(k));
  const named = (k: string): boolean => {
    let v = conceptCache.get(k);
    if (v === undefined) conceptCache.set(k, (v = conceptOf(k) !== undefined));
    return v;
  };
  for (const el of r.tree.elements) {
    if (SKIP.has(el.name) || r.tree.invisible(el)) continue;
    const usable = (k: string | undefined): k is string => k !== undefined && k.length > 1 && k.length < 60 && (card || named(k) || wanted(k));
    // An id is chosen for one element; a class is shared by many: ids weigh a little more.
    const ids = [attr(el, 'id'), attr(el, 'data-testid')].filter(usable);
    const classes = (attr(el, 'class') ?? '').split(/\s+/).filter(usable);
    if (ids.length === 0 && classes.length === 0) continue;
    let value: string | undefined;
    if (el.name === 'img') value = imageUrl(el, r.base);
    else if (el.attribs.content !== undefined) value = clean(el.attribs.content);
    else if (r.tree.size(el) <= VALUE_MAX_SIZE) {
      // A price drawn in parts for the eye keeps its whole text for screen readers.
      const spoken = r.tree.within(el).find((d) => d !== el && SPOKEN.test(d.attribs.class ?? ''));
      const t = spoken ? text(r, spoken, budget) : textOf(el, false, budget);
      value = t.length <= 300 ? t || el.attribs['aria-label'] || el.attribs.title : undefined;
    }
    const href = el.name === 'a' && el.attribs.href ? absoluteUrl(el.attribs.href, r.base) : undefined;
    for (const k of [...ids, ...classes]) {
      const isId = ids.includes(k);
      const weight = (card ? 0.6 : WEIGHT.class) + (isId ? 0.05 : 0);
      const source = `${isId ? 'id' : 'class'}:${k}`;
      if (href && conceptOf(k) === 'url') add(r, el, [k], href, 'class', weight, source);
      else if (value) add(r, el, [k], value, 'class', weight, source);
      if (el.name === 'img' && el.attribs.alt && card) add(r, el, [k, 'alt'], clean(el.attribs.alt), 'class', 0.3, `${source}@alt`);
    }
  }
}

/** Loose rules that hold inside a product or article card. */
function cardCandidates(r: Reader): void {
  const els = r.tree.elements;
  const heading = els.find((e) => /^h[1-6]$/.test(e.name) && text(r, e) !== '');
  if (heading) add(r, undefined, ['name'], text(r, heading), 'heading', 0.8, `card:${heading.name}`);
  const link = els.find((e) => e.name === 'a' && e.attribs.href && absoluteUrl(e.attribs.href, r.base));
  if (link) add(r, undefined, ['url'], absoluteUrl(link.attribs.href as string, r.base), 'class', 0.7, 'card:a@href');
  // Without a heading, the first link that has words names the item (an image link has none).
  const named = heading ? undefined : els.find((e) => e.name === 'a' && e.attribs.href && text(r, e) !== '');
  if (named) add(r, undefined, ['name'], text(r, named), 'class', 0.65, 'card:a');
  const img = els.find((e) => e.name === 'img' && imageUrl(e, r.base));
  if (img) {
    add(r, undefined, ['image'], imageUrl(img, r.base), 'class', 0.7, 'card:img');
    if (img.attribs.alt) add(r, undefined, ['name'], clean(img.attribs.alt), 'class', 0.35, 'card:img@alt');
  }
  for (const el of els) {
    const own = el.children.every((c) => !isTag(c)) ? text(r, el) : '';
    const aria = el.attribs['aria-label'] ?? el.attribs.title ?? '';
    if (own !== '' && PRICE_TEXT.test(own)) add(r, undefined, ['price'], own, 'text', 0.65, 'card:price text');
    const rating = RATING_TEXT.exec(own) ?? RATING_TEXT.exec(aria);
    if (rating) add(r, undefined, ['rating'], rating[1], 'text', 0.65, 'card:rating text');
  }
}

function mainRoot(tree: Tree): Element | Document {
  const els = tree.elements;
  return els.find((e) => e.name === 'main' || e.attribs.role === 'main') ?? els.find((e) => e.name === 'article') ?? els.find((e) => e.name === 'body') ?? tree.root;
}

const VOLATILE = /\d|^(active|selected|current|first|last|odd|even|hover|open|hidden|visible|show|in|is-.*)$/;

/** An element's kind among its siblings: tag and stable classes (`li.product-card`). */
export function signature(el: Element): string {
  const classes = (el.attribs.class ?? '').split(/\s+/).filter((c) => c !== '' && !VOLATILE.test(c)).sort();
  return `${el.name}.${classes.join('.')}`;
}

/**
 * Elements inside cards: three or more same-kind siblings each holding a link and an image or
 * heading (product and article teasers). One pass per parent's children, then one down the
 * tree: linear.
 */
function cardElements(tree: Tree): Set<Element> {
  const members = new Set<Element>();
  for (const parent of tree.elements) {
    const kids = children(parent);
    if (kids.length < 3) continue;
    const bySig = new Map<string, Element[]>();
    for (const k of kids) {
      // A card is small: a page's sections built of alike blocks are not cards.
      if (!tree.holds(k, LINK | MEDIA) || tree.size(k) > CARD_MAX_SIZE) continue;
      const sig = signature(k);
      const group = bySig.get(sig);
      if (group) group.push(k);
      else bySig.set(sig, [k]);
    }
    for (const group of bySig.values()) if (group.length >= 3) for (const m of group) members.add(m);
  }
  const inCard = new Set<Element>();
  for (const el of tree.elements) if (members.has(el) || (el.parent && isTag(el.parent) && inCard.has(el.parent))) inCard.add(el);
  return inCard;
}

export interface CandidateOptions {
  /** Card mode: the subtree is one item of a repeated structure. */
  card?: boolean;
  /** The page's tree, when the caller built it. */
  tree?: Tree;
  /** The schema's field names, normalised (matcher.ts `norm`): elements named so are candidates too. */
  fields?: ReadonlySet<string>;
}

export function visibleCandidates(root: Element | Document, base: string, opts: CandidateOptions = {}): Candidate[] {
  const tree = opts.tree ?? new Tree(root);
  const card = opts.card === true && isTag(root);
  const r: Reader = { ...newPairContext(root, tree), base, out: [], inCard: card ? new Set() : cardElements(tree), fields: opts.fields };
  labelValuePairs(root, tree.elements, base, r.out, r);
  // The rest reads on a budget of its own: the pairs' reading does not starve the headings.
  r.budget = budgetFor(tree.elements.length);
  for (const el of tree.elements) if (/^h[2-6]$/.test(el.name) && !tree.invisible(el)) sectionCandidate(r, el);
  if (card) cardCandidates(r);
  else {
    const titleEl = tree.elements.find((e) => e.name === 'title');
    const h1 = mainHeading(r, tree.elements.filter((e) => e.name === 'h1'), titleEl ? textOf(titleEl, false, r.budget) : '');
    if (h1) {
      add(r, h1.el, ['heading'], h1.text, 'heading', WEIGHT.heading, 'h1');
      // The main heading titles the page's content (the document title adds the site's name).
      add(r, h1.el, ['title'], h1.text, 'heading', 0.78, 'h1');
    }
    const main = mainRoot(tree);
    const inMain = isTag(main) ? tree.within(main) : tree.elements;
    const para = inMain.find((e) => e.name === 'p' && !tree.invisible(e) && text(r, e).length >= 60);
    if (para) add(r, para, ['summary'], text(r, para), 'text', WEIGHT.text, 'text:first paragraph');
    // The content's first <time>: when it was written (a related story's time is in a card or the chrome).
    const time = inMain.find((e) => e.name === 'time' && e.attribs.datetime && !tree.invisible(e));
    if (time) add(r, time, ['date'], time.attribs.datetime, 'heading', 0.7, 'time@datetime');
    const body = textOf(main, true);
    if (body !== '') r.out.push({ path: ['content'], value: body.slice(0, 50_000), origin: 'text', weight: WEIGHT.text, source: `text:${isTag(main) ? main.name : 'document'}` });
  }
  attributeCandidates(r, card);
  return r.out;
}
