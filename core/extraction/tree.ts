/**
 * One pass over a document that every offline-extraction reader shares, so that none of them
 * walks the tree more than once or recurses: elements in document order and, per element,
 * the facts the readers ask of it — its subtree size, whether it is rendered, which zone of
 * the page it sits in, its closest table. A page nested hundreds of thousands deep
 * (`'<div>'.repeat(n)`) is read in time linear in its size and with a constant stack.
 *
 * Zones weigh where a value was found: `main` (inside `<main>`, `<article>`, `role=main`),
 * `chrome` (header, navigation, footer, sidebars, and blocks named for related items, cookie
 * notices and the like: what surrounds the content, not the content) and `page` (the rest).
 */
import { type AnyNode, type Document, type Element, isTag } from 'domhandler';

/** Elements whose text never belongs to the page's content. */
export const INVISIBLE = new Set(['script', 'style', 'noscript', 'template', 'svg', 'iframe', 'head', 'select', 'option']);

export type Zone = 'main' | 'page' | 'chrome';

const CHROME_TAGS = new Set(['nav', 'aside', 'menu']);
/** The site's header and footer; an article's own `<header>` (inside main or article) is content. */
const SITE_TAGS = new Set(['header', 'footer']);
const CHROME_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'search', 'dialog', 'alertdialog', 'menu', 'menubar']);
/** Class or id words of blocks that hold other items or page furniture (word-bounded). */
const CHROME_NAMES = /(^|[\s_-])(nav|navbar|menu|site-header|site-footer|breadcrumbs?|sidebar|related|recommend(ed|ations)?|similar|also-?(bought|viewed)|carousel|cookies?|consent|newsletter|share|social|ad|ads|sponsored|upsell|cross-?sell)($|[\s_-])/i;
/** A footer or header by class: the site's outside the content, the article's own inside it. */
const SITE_NAMES = /(^|[\s_-])(footer|header)($|[\s_-])/i;

interface Facts {
  /** Position in `elements` (pre-order: a subtree is the `size` elements from here). */
  index: number;
  /** Elements in the subtree, the element included. */
  size: number;
  invisible: boolean;
  zone: Zone;
  table: Element | undefined;
  /** What the subtree holds: LINK (an `a[href]`), MEDIA (an image or a heading). */
  holds: number;
}

export const LINK = 1;
export const MEDIA = 2;
const HEADING = /^h[1-6]$/;

export class Tree {
  /** Every element, document order. */
  readonly elements: Element[] = [];
  private readonly facts = new Map<Element, Facts>();

  constructor(readonly root: Document | Element) {
    // Pre-order with an explicit stack: each element's facts follow from its parent's.
    const stack: AnyNode[] = [root];
    while (stack.length > 0) {
      const node = stack.pop() as AnyNode;
      if (isTag(node)) {
        const parent = node.parent && isTag(node.parent) ? this.facts.get(node.parent) : undefined;
        this.facts.set(node, {
          index: this.elements.length,
          size: 1,
          invisible: (parent?.invisible ?? false) || (INVISIBLE.has(node.name) && node.name !== 'head'),
          zone: zoneOf(node, parent?.zone ?? 'page'),
          table: node.parent && isTag(node.parent) && node.parent.name === 'table' ? node.parent : parent?.table,
          holds: (node.name === 'a' && node.attribs.href ? LINK : 0) | (node.name === 'img' || HEADING.test(node.name) ? MEDIA : 0),
        });
        this.elements.push(node);
      }
      if ('children' in node) for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as AnyNode);
    }
    // Subtree sizes, children before parents: document order reversed.
    for (let i = this.elements.length - 1; i >= 0; i--) {
      const el = this.elements[i] as Element;
      const up = el.parent && isTag(el.parent) ? this.facts.get(el.parent) : undefined;
      const own = this.facts.get(el) as Facts;
      if (up) {
        up.size += own.size;
        up.holds |= own.holds;
      }
    }
  }

  private of(el: Element): Facts | undefined {
    return this.facts.get(el);
  }

  /** Elements in the subtree (1 for a leaf); 0 for an element outside this tree. */
  size(el: Element): number {
    return this.of(el)?.size ?? 0;
  }

  invisible(el: Element): boolean {
    return this.of(el)?.invisible ?? false;
  }

  zone(el: Element): Zone {
    return this.of(el)?.zone ?? 'page';
  }

  /** Whether the subtree holds each of `bits` (LINK, MEDIA). */
  holds(el: Element, bits: number): boolean {
    return ((this.of(el)?.holds ?? 0) & bits) === bits;
  }

  /** The closest `<table>` the element is inside (a row's own table). */
  table(el: Element): Element | undefined {
    return this.of(el)?.table;
  }

  private rowMap: Map<Element, Element[]> | undefined;

  /** Each table's own rows (`<tr>` whose closest table it is), document order. */
  rowsByTable(): ReadonlyMap<Element, Element[]> {
    if (this.rowMap) return this.rowMap;
    const map = new Map<Element, Element[]>();
    for (const el of this.elements) {
      const table = el.name === 'tr' ? this.table(el) : undefined;
      if (!table) continue;
      const rows = map.get(table);
      if (rows) rows.push(el);
      else map.set(table, [el]);
    }
    return (this.rowMap = map);
  }

  /** Elements of the subtree of `el`, document order (a slice of the one list: no walk). */
  within(el: Element): Element[] {
    const facts = this.of(el);
    return facts ? this.elements.slice(facts.index, facts.index + facts.size) : [];
  }
}

function zoneOf(el: Element, inherited: Zone): Zone {
  if (inherited === 'chrome') return 'chrome';
  const role = el.attribs.role;
  if (CHROME_TAGS.has(el.name) || (role !== undefined && CHROME_ROLES.has(role))) return 'chrome';
  if (SITE_TAGS.has(el.name) && inherited !== 'main') return 'chrome';
  if (el.attribs['aria-hidden'] === 'true' || el.attribs.hidden !== undefined) return 'chrome';
  const names = `${el.attribs.class ?? ''} ${el.attribs.id ?? ''}`;
  if (names.length > 1 && names.length < 300 && (CHROME_NAMES.test(names) || (inherited !== 'main' && SITE_NAMES.test(names) && !/product|article|post|entry/i.test(names)))) return 'chrome';
  if (el.name === 'main' || el.name === 'article' || role === 'main') return 'main';
  return inherited;
}
