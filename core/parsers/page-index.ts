/**
 * The per-document index behind dom.ts's document-wide queries (`all`, `one` on a parsed page):
 * the element list, elements by attribute, id, class and tag, and the choice of candidates for a
 * selector. Separate from dom.ts because it is the one stateful part of the helpers: the index
 * is built once per document and kept in a page slot (page-memo.ts), and grows lazily (id map,
 * position map, class and tag lists) as queries ask for keys. Parsers run to completion on one
 * thread, so the lazy fills never interleave. Its answers must equal css-select's over the
 * whole document (test/unit/parsers-toolkit.test.ts).
 */
import type { AnyNode, Document, Element } from 'domhandler';
import { seedOf } from './load.js';
import { pageSlot } from './page-memo.js';

/**
 * Document-wide queries run through a per-document index: one walk lists the elements in
 * document order and by attribute name, and a selector is tested only against the candidates of
 * its rightmost compound's most specific key (attribute, id, class or tag). Attribute lists are
 * built in the walk because reading an element's attributes is the costly part (one cache miss
 * per element, megamorphic lookups), so each element's are read once. Tag and class lists are
 * filtered the first time a key is asked for and kept: a page asks about fifteen keys, so this is
 * cheaper than splitting every class attribute up front. Subtree queries use css-select directly.
 */
interface PageIndex {
  elements: Element[];
  byAttr: Map<string, Element[]>;
  /** Document position of each element; built on the first query with several groups. */
  order: Map<Element, number> | null;
  byKey: Map<string, Element[]>;
  /** Elements by id (ids repeat on real pages); built on the first id query. */
  ids: Map<string, Element[]> | null;
  /** The class values of `byAttr.get('class')` recorded by the load (null entries: read `attribs`), or null. */
  classes: (string | null)[] | null;
}

const indexes = pageSlot<PageIndex>('gleaner.index');

function indexOf(doc: Document): PageIndex {
  let idx = indexes.get(doc);
  if (idx) return idx;
  const seed = seedOf(doc);
  if (seed) {
    idx = { elements: seed.elements, byAttr: seed.byAttr, order: null, byKey: new Map(), ids: null, classes: seed.classes };
    indexes.set(doc, idx);
    return idx;
  }
  const elements: Element[] = [];
  const byAttr = new Map<string, Element[]>();
  // Pre-order walk (document order); script and style elements are not indexed.
  const walk = (children: AnyNode[]): void => {
    for (const node of children) {
      if (node.type !== 'tag') continue;
      elements.push(node);
      for (const name in node.attribs) {
        const list = byAttr.get(name);
        if (list) list.push(node);
        else byAttr.set(name, [node]);
      }
      if (node.children.length > 0) walk(node.children);
    }
  };
  walk(doc.children);
  idx = { elements, byAttr, order: null, byKey: new Map(), ids: null, classes: null };
  indexes.set(doc, idx);
  return idx;
}

function byId(idx: PageIndex): Map<string, Element[]> {
  if (!idx.ids) {
    idx.ids = new Map();
    for (const el of idx.byAttr.get('id') ?? []) {
      const list = idx.ids.get(el.attribs.id);
      if (list) list.push(el);
      else idx.ids.set(el.attribs.id, [el]);
    }
  }
  return idx.ids;
}

function orderOf(idx: PageIndex): Map<Element, number> {
  if (!idx.order) {
    idx.order = new Map();
    for (let i = 0; i < idx.elements.length; i++) idx.order.set(idx.elements[i], i);
  }
  return idx.order;
}

function keyed(idx: PageIndex, key: string, from: Element[], keep: (el: Element) => boolean): Element[] {
  let list = idx.byKey.get(key);
  if (!list) {
    list = from.filter(keep);
    idx.byKey.set(key, list);
  }
  return list;
}

/**
 * Elements with class `cls`, filtered once per key from the class values the load recorded: a
 * page asks about a dozen classes, and reading each element's `attribs` again per key (a cache
 * miss and a megamorphic lookup) was most of the filter.
 */
function byClass(idx: PageIndex, cls: string): Element[] {
  const key = `.${cls}`;
  let list = idx.byKey.get(key);
  if (!list) {
    list = [];
    const els = idx.byAttr.get('class') ?? [];
    const values = idx.classes;
    for (let i = 0; i < els.length; i++) {
      const el = els[i] as Element;
      if (classListHas(values?.[i] ?? el.attribs.class, cls)) list.push(el);
    }
    idx.byKey.set(key, list);
  }
  return list;
}

/** Splits on `sep` outside brackets, quotes and parentheses. */
function splitTop(selector: string, sep: RegExp): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = '';
  let cur = '';
  for (const ch of selector) {
    if (quote) {
      if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '[' || ch === '(') depth++;
    else if (ch === ']' || ch === ')') depth--;
    else if (depth === 0 && sep.test(ch)) {
      out.push(cur);
      cur = '';
      continue;
    }
    cur += ch;
  }
  out.push(cur);
  return out.map((p) => p.trim()).filter(Boolean);
}

/** Candidates for one selector group from the index (its rightmost compound's attribute, id, class or tag). */
function candidatesOf(idx: PageIndex, group: string): Element[] {
  // A negation names what the element must NOT have, so it cannot choose the candidates.
  const last = (splitTop(group, /[\s>+~]/).pop() ?? '').replace(/:not\((?:[^()]|\([^()]*\))*\)/g, '');
  const attr = last.match(/\[([\w-]+)/);
  if (attr) return idx.byAttr.get(attr[1]) ?? [];
  // An id is the most specific key (product pages ask for dozens of ids among thousands of
  // elements that have one): the elements are grouped by id once, on the first id query.
  const id = last.match(/#([\w-]+)/);
  if (id) return byId(idx).get(id[1]) ?? [];
  const cls = last.match(/\.([\w-]+)/);
  if (cls) return byClass(idx, cls[1]);
  const tag = last.match(/^([a-z][\w-]*)/i);
  if (tag) {
    const name = tag[1].toLowerCase();
    return keyed(idx, name, idx.elements, (el) => el.name === name);
  }
  return idx.elements;
}

/**
 * Every element of `doc` matching `selector` (compiled as `test`), in document order: each
 * comma group is tested only against its candidates from the index.
 */
export function documentAll(doc: Document, selector: string, test: (el: Element) => boolean): Element[] {
  const idx = indexOf(doc);
  const groups = splitTop(selector, /,/);
  const seen = new Set<Element>();
  for (const g of groups) for (const el of candidatesOf(idx, g)) if (!seen.has(el) && test(el)) seen.add(el);
  const out = [...seen];
  if (groups.length > 1 && out.length > 1) {
    // A few matches are placed by a search of the element list: the position map of a whole
    // page (thousands of entries) cost more than the query it sorted.
    if (idx.order === null && out.length <= 8) {
      const pos = new Map(out.map((el) => [el, idx.elements.indexOf(el)]));
      out.sort((a, b) => pos.get(a)! - pos.get(b)!);
    } else {
      const order = orderOf(idx);
      out.sort((a, b) => order.get(a)! - order.get(b)!);
    }
  }
  return out;
}

/** Whether the class list `c` holds `cls`. */
export function classListHas(c: string | undefined, cls: string): boolean {
  if (!c) return false;
  if (c === cls) return true;
  // Called for every ancestor of every candidate link: indexOf and a boundary check, no allocation.
  for (let i = c.indexOf(cls); i >= 0; i = c.indexOf(cls, i + 1)) {
    const end = i + cls.length;
    if ((i === 0 || isSpace(c.charCodeAt(i - 1))) && (end === c.length || isSpace(c.charCodeAt(end)))) return true;
  }
  return false;
}

const SPACE = /\s/;

/** The characters `\s` matches (class lists are split on them). */
function isSpace(code: number): boolean {
  if (code < 128) return code === 32 || (code >= 9 && code <= 13);
  return SPACE.test(String.fromCharCode(code));
}
