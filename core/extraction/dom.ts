/**
 * The small DOM toolkit the offline extractor shares: parsing, visible text, attribute-based
 * values and URL resolution. Everything works on htmlparser2's domhandler tree.
 */
import { type AnyNode, type Document, type Element, isTag, isText } from 'domhandler';
import { parseDocumentCapped } from '../parsers/depth.js';

export type { Document, Element, AnyNode };
export { isTag };

import { INVISIBLE } from './tree.js';

/** Elements that break text into blocks (a label/value pair never spans two of them). */
export const BLOCK = new Set([
  'p', 'div', 'li', 'ul', 'ol', 'dl', 'dt', 'dd', 'table', 'tr', 'td', 'th', 'tbody', 'thead', 'section',
  'article', 'main', 'aside', 'header', 'footer', 'nav', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'br', 'form',
  'blockquote', 'pre', 'figure', 'figcaption', 'body', 'html',
]);

/** The page's DOM, capped in depth like every parse of a page (core/parsers/depth.ts). */
export function parseHtml(html: string): Document {
  return parseDocumentCapped(html, { decodeEntities: true, lowerCaseAttributeNames: true });
}

export function clean(text: string): string {
  return text.replace(/[\s\u00a0\u200b\u200e\u200f\ufeff]+/g, ' ').trim();
}

/**
 * Nodes a reader may still visit to read texts. Readers that read the text of many elements
 * (each label, each named element) share one, sized in proportion to the page: on a page of
 * nested elements, where each element's text would walk everything below it, the total stays
 * linear and the texts read past it come out cut short.
 */
export interface Budget {
  left: number;
}

/** A budget of `perNode` visits per element of the page, and a floor for small pages. */
export function budgetFor(elements: number, perNode = 4): Budget {
  return { left: elements * perNode + 20_000 };
}

/**
 * Visible text of a node, whitespace collapsed; block elements become line breaks when
 * `lines`. Iterative (an explicit stack): pages nest far deeper than a call stack allows.
 * With a `budget`, stops when it runs out.
 */
export function textOf(node: AnyNode, lines = false, budget?: Budget): string {
  const out: string[] = [];
  // A string on the stack is a line break to emit after a block's children.
  const stack: Array<AnyNode | string> = [node];
  while (stack.length > 0) {
    if (budget && budget.left-- <= 0) break;
    const n = stack.pop() as AnyNode | string;
    if (typeof n === 'string') {
      out.push(n);
      continue;
    }
    if (isText(n)) out.push(n.data);
    else if (isTag(n)) {
      if (INVISIBLE.has(n.name)) continue;
      const block = lines && BLOCK.has(n.name);
      if (block) {
        out.push('\n');
        stack.push('\n');
      }
      for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i] as AnyNode);
    }
  }
  if (!lines) return clean(out.join(' ').replace(/\s+/g, ' '));
  return out
    .join('')
    .split('\n')
    .map(clean)
    .filter((l) => l.length > 0)
    .join('\n');
}

export function attr(el: Element, name: string): string | undefined {
  const v = el.attribs[name];
  return v === undefined ? undefined : v;
}

export function children(el: Element | Document): Element[] {
  return el.children.filter(isTag);
}

/** Every element below `root`, document order. Iterative: pages nest thousands deep. */
export function allElements(root: AnyNode): Element[] {
  const out: Element[] = [];
  const stack: AnyNode[] = [root];
  while (stack.length > 0) {
    const n = stack.pop() as AnyNode;
    if (isTag(n)) out.push(n);
    if ('children' in n) for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i] as AnyNode);
  }
  return out;
}

export function isInvisible(el: Element): boolean {
  for (let p: AnyNode | null = el; p; p = p.parent) if (isTag(p) && INVISIBLE.has(p.name) && p.name !== 'head') return true;
  return false;
}

export function absoluteUrl(href: string, base: string): string | undefined {
  const h = href.trim();
  if (h === '' || h.startsWith('javascript:') || h.startsWith('data:')) return undefined;
  try {
    return new URL(h, base).href;
  } catch {
    return undefined;
  }
}

/** Image attributes, best resolution first: lazy loaders and zoom viewers keep the large one aside. */
const IMAGE_ATTRS = ['data-zoom-image', 'data-large-image', 'data-old-hires', 'data-hires', 'data-src', 'data-original', 'src'];

export function imageUrl(el: Element, base: string): string | undefined {
  for (const a of IMAGE_ATTRS) {
    const v = el.attribs[a];
    if (v && !v.startsWith('data:')) {
      const u = absoluteUrl(v, base);
      if (u) return u;
    }
  }
  return undefined;
}

/**
 * The value an element carries as a property (microdata/RDFa rules): `content` wins, then the
 * URL attributes of link-like and media elements, then `datetime`/`value`, then the text.
 */
export function propertyValue(el: Element, base: string, budget?: Budget): string {
  const content = el.attribs.content;
  if (content !== undefined) return clean(content);
  switch (el.name) {
    case 'a':
    case 'link':
    case 'area':
      return el.attribs.href !== undefined ? (absoluteUrl(el.attribs.href, base) ?? '') : textOf(el, false, budget);
    case 'img':
    case 'audio':
    case 'video':
    case 'source':
    case 'embed':
    case 'iframe':
      return imageUrl(el, base) ?? '';
    case 'object':
      return el.attribs.data !== undefined ? (absoluteUrl(el.attribs.data, base) ?? '') : '';
    case 'time':
      return clean(el.attribs.datetime ?? textOf(el, false, budget));
    case 'data':
    case 'meter':
      return clean(el.attribs.value ?? textOf(el, false, budget));
    default:
      return textOf(el, false, budget);
  }
}

/** Lower-case word tokens of an identifier or label: `productTitle`, `product_title`, `Product title`. */
const TOKEN_CACHE = new Map<string, string[]>();

export function tokens(s: string): string[] {
  // Memoised: the matcher asks for the same keys thousands of times per page (per thread).
  let t = TOKEN_CACHE.get(s);
  if (t === undefined) {
    if (TOKEN_CACHE.size > 20_000) TOKEN_CACHE.clear();
    TOKEN_CACHE.set(s, (t = splitTokens(s)));
  }
  return t;
}

function splitTokens(s: string): string[] {
  return s
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0);
}
