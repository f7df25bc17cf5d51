/**
 * Result cards a page ships as text, for its script to render when the list scrolls into view:
 * a wholesale marketplace's 2013–2016 results put the first three cards in the list and the
 * other thirty-three in `<textarea class="lazy-render"><ul><li class="list-item">…</textarea>`
 * (a "lazy render" textarea: its text is markup, never shown as text). A reader sees all
 * thirty-six once the page has run, so the listing reads them too.
 *
 * Only the cards of the list the page already shows are taken: the deferred markup is parsed
 * on its own, its card group found the usual way, and kept when its cards have the shape (tag
 * and first stable class) of the visible ones; the other lazily rendered blocks of such pages
 * (recommendations, footers) are not results.
 */
import { loadHtml, type Document, type Element } from '../../parsers/dom.js';
import { cardFacts, cardShape, findCards } from './cards.js';
import { elements } from './marks.js';
import type { ProductFacts } from './types.js';
import type { MoneyHint } from './values.js';

/** A textarea's text that is markup: it opens with a tag. */
const MARKUP = /^\s*<[a-z]/i;

/** The text of a textarea (one text child as parsed; several joined). */
function textOf(el: Element): string {
  let t = '';
  for (const c of el.children) if (c.type === 'text') t += c.data;
  return t;
}

/**
 * The facts of the cards deferred in textareas that continue the visible list, in page order.
 * `html` is asked first so a page without a textarea pays nothing.
 */
export function deferredCards(html: string, doc: Document, visible: readonly Element[], base: string, hint: MoneyHint): ProductFacts[] {
  if (visible.length === 0 || !html.includes('<textarea')) return [];
  const shape = cardShape(visible[0] as Element);
  const out: ProductFacts[] = [];
  for (const el of elements(doc)) {
    if (el.name !== 'textarea') continue;
    const markup = textOf(el);
    if (markup.length < 200 || !MARKUP.test(markup)) continue;
    const inner = loadHtml(markup);
    const { cards, prices } = findCards(inner, hint);
    if (cards.length === 0 || cardShape(cards[0] as Element) !== shape) continue;
    for (const c of cards) out.push(cardFacts(c, prices.get(c) ?? [], base, hint));
  }
  return out;
}
