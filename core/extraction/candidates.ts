/**
 * Candidates from the visible page: label/value pairs (pairs.ts), headed lists, the main
 * heading and text, and elements whose id/class names a field
 * (`id="productTitle"`, `class="price"`). Cards (repeated.ts) get a few extra, looser rules.
 */
import { type AnyNode, type Document, type Element, absoluteUrl, allElements, attr, children, clean, imageUrl, isTag, textOf } from './dom.js';
import { conceptOf } from './matcher.js';
import { type Candidate, WEIGHT } from './model.js';
import { cleanLabel, isLabel, labelValuePairs } from './pairs.js';

const SKIP = new Set(['script', 'style', 'noscript', 'template', 'svg', 'head', 'select', 'option', 'iframe']);

function sectionCandidate(h: Element, out: Candidate[]): void {
  const label = cleanLabel(textOf(h));
  if (!isLabel(label)) return;
  let next: AnyNode | null = h.next;
  while (next && !isTag(next)) next = next.next;
  if (!next || !isTag(next)) return;
  if (next.name === 'ul' || next.name === 'ol') {
    const items = children(next).filter((li) => li.name === 'li').map((li) => textOf(li)).filter((t) => t !== '');
    if (items.length > 0) out.push({ path: [label], value: items, origin: 'section', weight: WEIGHT.section });
  } else if (next.name === 'p') {
    const t = textOf(next);
    if (t !== '') out.push({ path: [label], value: t, origin: 'section', weight: WEIGHT.section });
  }
}

/** The page's main heading: of several `<h1>`, the one the document title repeats. */
function mainHeading(els: Element[], title: string): string | undefined {
  const words = new Set(title.toLowerCase().split(/\W+/).filter((w) => w.length > 2));
  let best: { text: string; score: number } | undefined;
  const score = (text: string): number => {
    const toks = text.toLowerCase().split(/\W+/).filter((w) => w.length > 2);
    return toks.length === 0 ? 0 : toks.filter((w) => words.has(w)).length / toks.length;
  };
  for (const h of els.filter((e) => e.name === 'h1').slice(0, 12)) {
    let text = textOf(h);
    if (text === '') continue;
    // `<h1><span>Title</span> <span>Hardcover – 7 April 2016</span></h1>`: the title is the first part.
    const parts = children(h).map((c) => textOf(c)).filter((t) => t !== '');
    if (parts.length >= 2 && (parts[0] as string).length >= text.length / 2 && score(parts[0] as string) >= score(text)) text = parts[0] as string;
    const s = score(text);
    if (!best || s > best.score) best = { text, score: s };
  }
  return best?.text;
}

const PRICE_TEXT = /^(?:[A-Z]{0,3}[$€£¥₹]|[A-Z]{3}\s)\s?\d[\d.,\s]*$|^\d[\d.,\s]*\s?(?:[$€£¥₹]|[A-Z]{3}|zł|kr|Kč)$/;
const RATING_TEXT = /^(\d(?:[.,]\d+)?)\s*(?:out of|of|von|sur|de|\/)\s*5\b/i;

/** Elements named for what they hold: one candidate per id, class, data-testid. */
function attributeCandidates(root: Element | Document, base: string, card: boolean, out: Candidate[]): void {
  const conceptCache = new Map<string, boolean>();
  const named = (k: string): boolean => {
    let v = conceptCache.get(k);
    if (v === undefined) conceptCache.set(k, (v = conceptOf(k) !== undefined));
    return v;
  };
  for (const el of allElements(root)) {
    if (SKIP.has(el.name)) continue;
    const usable = (k: string | undefined): k is string => k !== undefined && k.length > 1 && k.length < 60 && (card || named(k));
    // An id is chosen for one element; a class is shared by many: ids weigh a little more.
    const ids = [attr(el, 'id'), attr(el, 'data-testid')].filter(usable);
    const keys = [...ids, ...(attr(el, 'class') ?? '').split(/\s+/).filter(usable)];
    if (keys.length === 0) continue;
    let value: string | undefined;
    if (el.name === 'img') value = imageUrl(el, base);
    else if (el.attribs.content !== undefined) value = clean(el.attribs.content);
    else {
      const t = textOf(el);
      value = t.length <= 300 ? t || el.attribs['aria-label'] || el.attribs.title : undefined;
    }
    const href = el.name === 'a' && el.attribs.href ? absoluteUrl(el.attribs.href, base) : undefined;
    for (const k of keys) {
      const weight = (card ? 0.6 : WEIGHT.class) + (ids.includes(k) ? 0.05 : 0);
      if (href && conceptOf(k) === 'url') out.push({ path: [k], value: href, origin: 'class', weight });
      else if (value) out.push({ path: [k], value, origin: 'class', weight });
      if (el.name === 'img' && el.attribs.alt && card) out.push({ path: [k, 'alt'], value: clean(el.attribs.alt), origin: 'class', weight: 0.3 });
    }
  }
}

/** Loose rules that hold inside a product or article card. */
function cardCandidates(card: Element, base: string, out: Candidate[]): void {
  const els = allElements(card);
  const heading = els.find((e) => /^h[1-6]$/.test(e.name) && textOf(e) !== '');
  if (heading) out.push({ path: ['name'], value: textOf(heading), origin: 'heading', weight: 0.8 });
  const link = els.find((e) => e.name === 'a' && e.attribs.href && absoluteUrl(e.attribs.href, base));
  if (link) {
    out.push({ path: ['url'], value: absoluteUrl(link.attribs.href as string, base), origin: 'class', weight: 0.55 });
    if (!heading && textOf(link) !== '') out.push({ path: ['name'], value: textOf(link), origin: 'class', weight: 0.45 });
  }
  const img = els.find((e) => e.name === 'img' && imageUrl(e, base));
  if (img) {
    out.push({ path: ['image'], value: imageUrl(img, base), origin: 'class', weight: 0.55 });
    if (img.attribs.alt) out.push({ path: ['name'], value: clean(img.attribs.alt), origin: 'class', weight: 0.35 });
  }
  for (const el of els) {
    const own = el.children.every((c) => !isTag(c)) ? textOf(el) : '';
    const aria = el.attribs['aria-label'] ?? el.attribs.title ?? '';
    if (own !== '' && PRICE_TEXT.test(own)) out.push({ path: ['price'], value: own, origin: 'text', weight: 0.5 });
    const rating = RATING_TEXT.exec(own) ?? RATING_TEXT.exec(aria);
    if (rating) out.push({ path: ['rating'], value: rating[1], origin: 'text', weight: 0.5 });
  }
}

function mainRoot(root: Element | Document): Element | Document {
  const els = allElements(root);
  return els.find((e) => e.name === 'main' || e.attribs.role === 'main') ?? els.find((e) => e.name === 'article') ?? els.find((e) => e.name === 'body') ?? root;
}

export interface CandidateOptions {
  /** Card mode: the subtree is one item of a repeated structure. */
  card?: boolean;
}

export function visibleCandidates(root: Element | Document, base: string, opts: CandidateOptions = {}): Candidate[] {
  const out: Candidate[] = [];
  const els = allElements(root);
  labelValuePairs(root, els, base, out);
  for (const el of els) if (/^h[2-6]$/.test(el.name)) sectionCandidate(el, out);
  if (opts.card && isTag(root)) cardCandidates(root, base, out);
  else {
    const titleEl = els.find((e) => e.name === 'title');
    const h1 = mainHeading(els, titleEl ? textOf(titleEl) : '');
    if (h1) out.push({ path: ['heading'], value: h1, origin: 'heading', weight: WEIGHT.heading });
    const main = mainRoot(root);
    const para = allElements(main).find((e) => e.name === 'p' && textOf(e).length >= 60);
    if (para) out.push({ path: ['summary'], value: textOf(para), origin: 'text', weight: WEIGHT.text });
    const body = textOf(main, true);
    if (body !== '') out.push({ path: ['content'], value: body.slice(0, 50_000), origin: 'text', weight: WEIGHT.text });
  }
  attributeCandidates(root, base, opts.card === true, out);
  return out;
}
