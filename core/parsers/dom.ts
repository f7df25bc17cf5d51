/**
 * DOM helpers shared by the built-in parsers: one fast HTML load, cached compiled selectors,
 * whitespace-normalised text, ancestor walks and link resolution. Pure functions, no I/O.
 * Document-wide queries go through the per-document index of page-index.ts.
 */
import { compile, selectAll, selectOne } from 'css-select';
import type { AnyNode, Document, Element } from 'domhandler';

export type { Document, Element, AnyNode };

export { loadHtml, stripRawText } from './load.js';
export { shortText, text } from './text.js';
import { classListHas, documentAll } from './page-index.js';

type Compiled = ReturnType<typeof compile<AnyNode, Element>>;
const compiled = new Map<string, Compiled>();

function query(selector: string): Compiled {
  let q = compiled.get(selector);
  if (!q) {
    q = compile<AnyNode, Element>(selector);
    compiled.set(selector, q);
  }
  return q;
}

/** Every element under `root` matching `selector`, in document order. */
export function all(selector: string, root: AnyNode | AnyNode[]): Element[] {
  if (Array.isArray(root) || root.type !== 'root') return selectAll<AnyNode, Element>(query(selector), root);
  return documentAll(root as Document, selector, query(selector));
}

export function one(selector: string, root: AnyNode | AnyNode[]): Element | null {
  if (!Array.isArray(root) && root.type === 'root') return all(selector, root)[0] ?? null;
  return selectOne<AnyNode, Element>(query(selector), root);
}

export function matches(el: Element, selector: string): boolean {
  return query(selector)(el);
}

export function isElement(node: AnyNode | null | undefined): node is Element {
  return !!node && (node.type === 'tag' || node.type === 'script' || node.type === 'style');
}

export function attr(el: Element | null | undefined, name: string): string | undefined {
  return el ? el.attribs[name] : undefined;
}

/** Whether `cls` (a single class name) is one of the element's whitespace-separated classes. */
export function hasClass(el: Element, cls: string): boolean {
  return classListHas(el.attribs.class, cls);
}

/** The nearest ancestor (not the element itself) passing `test`, stopping at `stop` or `maxUp` levels. */
export function closest(el: AnyNode, test: (e: Element) => boolean, maxUp = 1000): Element | null {
  let cur = el.parent;
  for (let i = 0; cur && i < maxUp; i++) {
    if (cur.type === 'tag' && test(cur)) return cur;
    cur = cur.parent;
  }
  return null;
}

export function contains(ancestor: AnyNode, node: AnyNode): boolean {
  let cur: AnyNode | null = node;
  while (cur) {
    if (cur === ancestor) return true;
    cur = cur.parent;
  }
  return false;
}

/**
 * The absolute target of a link on a result page. Engine redirect wrappers (`/url?q=`,
 * `/url?url=`) are unwrapped; other same-site relative links return `null` unless `keepInternal`,
 * as do `#` and `javascript:` links.
 */
export function linkTarget(href: string | undefined, pageUrl: string, keepInternal = false): string | null {
  if (!href) return null;
  const h = href.trim();
  if (h === '' || h.startsWith('#') || /^javascript:/i.test(h)) return null;
  if (h.startsWith('/url?') || h.startsWith('/interstitial?')) {
    const params = new URLSearchParams(h.slice(h.indexOf('?') + 1));
    const target = params.get('q') ?? params.get('url');
    return target && /^https?:\/\//i.test(target) ? target : null;
  }
  if (/^https?:\/\//i.test(h)) return h;
  if (h.startsWith('//')) return 'https:' + h;
  if (!keepInternal) return null;
  try {
    return new URL(h, pageUrl || 'http://localhost/').toString();
  } catch {
    return null;
  }
}

export function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}

/** A number from text such as `4.6`, `4,6`, `1,206`, `1.234.567`, `3 600 000`. */
export function parseNumber(raw: string | undefined | null): number | null {
  if (!raw) return null;
  const m = raw.match(/\d{1,3}(?:[.,'’\u00a0\u202f ]\d{3})+(?![\d])|\d+(?:[.,]\d+)?/);
  if (!m) return null;
  const s = m[0];
  if (/^\d{1,3}(?:[.,'’\u00a0\u202f ]\d{3})+$/.test(s)) return Number(s.replace(/[^\d]/g, ''));
  return Number(s.replace(',', '.'));
}
