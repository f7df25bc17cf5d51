/**
 * Structured data of a page: JSON-LD (with @graph and @id references), microdata, RDFa Lite,
 * and the document's meta and link tags (OpenGraph, Twitter cards, canonical, icons, lang).
 */
import { type Budget, type Document, type Element, allElements, attr, budgetFor, propertyValue, textOf } from './dom.js';
import { type Candidate, type Entity, WEIGHT, isPlainObject } from './model.js';
import { valueEnd } from '../parsers/embedded.js';
import { metaCandidates } from './meta.js';

export interface StructuredData {
  entities: Entity[];
  /** Meta/link tags and properties outside any item. */
  candidates: Candidate[];
}

function typeNames(t: unknown): string[] {
  const list = Array.isArray(t) ? t : t === undefined ? [] : [t];
  return list.filter((x): x is string => typeof x === 'string').map((x) => x.replace(/^.*[/#:]/, ''));
}

/**
 * JSON-LD as sites write it: comments, CDATA wrappers, raw newlines inside strings; then, as
 * extruct does, the repairs broken blocks need: trailing commas, JavaScript comments, and
 * several objects written one after another without an array.
 */
function parseJsonLd(text: string): unknown {
  const t = text.trim().replace(/^<!--|-->$/g, '').replace(/^\s*\/\/\s*<!\[CDATA\[|\/\/\s*\]\]>\s*$/g, '').trim().replace(/;$/, '');
  const flat = t.replace(/[\n\r\t]+/g, ' ');
  return (
    tryJson(t) ??
    tryJson(flat) ??
    tryJson(flat.replace(/\/\*[\s\S]*?\*\//g, '').replace(/,\s*([}\]])/g, '$1')) ??
    concatenated(t.replace(/[\n\r\t]+/g, '\n'))
  );
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** `{...}{...}` or `{...}\n{...}`: each top-level value that parses, as an array. */
function concatenated(text: string): unknown[] | undefined {
  const out: unknown[] = [];
  for (let i = text.indexOf('{'); i >= 0; ) {
    const end = valueEnd(text, i);
    if (end < 0) break;
    const v = tryJson(text.slice(i, end).replace(/\n/g, ' '));
    if (v !== undefined) out.push(v);
    i = text.indexOf('{', end);
  }
  return out.length > 0 ? out : undefined;
}

/** The JSON-LD script bodies of a document whose script contents were kept. */
function jsonLdTexts(doc: Document): string[] {
  const out: string[] = [];
  for (const el of allElements(doc)) {
    if (el.name !== 'script' || (attr(el, 'type') ?? '').toLowerCase().trim() !== 'application/ld+json') continue;
    out.push(el.children.map((c) => ('data' in c ? String(c.data) : '')).join(''));
  }
  return out;
}

function jsonLdEntities(texts: readonly string[], entities: Entity[]): void {
  const roots: Record<string, unknown>[] = [];
  for (const text of texts) {
    const parsed = parseJsonLd(text);
    for (const node of Array.isArray(parsed) ? parsed : [parsed]) {
      if (!isPlainObject(node)) continue;
      if (Array.isArray(node['@graph'])) roots.push(...node['@graph'].filter(isPlainObject));
      else roots.push(node);
    }
  }
  const byId = new Map<string, Record<string, unknown>>();
  const index = (v: unknown, depth: number): void => {
    if (depth > 6) return;
    if (Array.isArray(v)) v.forEach((x) => index(x, depth + 1));
    else if (isPlainObject(v)) {
      if (typeof v['@id'] === 'string' && Object.keys(v).length > 1 && !byId.has(v['@id'])) byId.set(v['@id'], v);
      Object.values(v).forEach((x) => index(x, depth + 1));
    }
  };
  roots.forEach((r) => index(r, 0));
  // Inline {"@id": ...} references (bounded: graphs are often cyclic).
  const resolve = (v: unknown, depth: number): unknown => {
    if (Array.isArray(v)) return v.map((x) => resolve(x, depth));
    if (!isPlainObject(v)) return v;
    let obj = v;
    if (typeof v['@id'] === 'string' && Object.keys(v).length === 1) {
      const target = byId.get(v['@id']);
      if (!target || depth > 3) return v;
      obj = target;
    }
    if (depth > 5) return obj;
    return Object.fromEntries(Object.entries(obj).map(([k, x]) => [k, resolve(x, depth + 1)]));
  };
  const collect = (v: unknown, top: boolean, depth: number): void => {
    if (depth > 5) return;
    if (Array.isArray(v)) v.forEach((x) => collect(x, false, depth + 1));
    else if (isPlainObject(v)) {
      if (v['@type'] !== undefined) entities.push({ id: entities.length, types: typeNames(v['@type']), data: v, origin: 'jsonld', topLevel: top });
      for (const [k, x] of Object.entries(v)) if (k !== '@context') collect(x, false, depth + 1);
    }
  };
  roots.forEach((r) => collect(resolve(r, 0), true, 0));
}

interface ItemSyntax {
  origin: 'microdata' | 'rdfa';
  scope(el: Element): boolean;
  type(el: Element): string[];
  props(el: Element): string[];
}

const MICRODATA: ItemSyntax = {
  origin: 'microdata',
  scope: (el) => el.attribs.itemscope !== undefined,
  type: (el) => typeNames((el.attribs.itemtype ?? '').split(/\s+/).filter(Boolean)),
  props: (el) => (el.attribs.itemprop ?? '').split(/\s+/).filter(Boolean),
};

const RDFA: ItemSyntax = {
  origin: 'rdfa',
  scope: (el) => el.attribs.typeof !== undefined,
  type: (el) => typeNames((el.attribs.typeof ?? '').split(/\s+/).filter(Boolean)),
  // `schema:name` → `name`; OpenGraph-style meta properties are the meta reader's.
  props: (el) =>
    el.name === 'meta' && /^(og|fb|twitter|article|product|book|profile|music|video):/.test(el.attribs.property ?? '')
      ? []
      : (el.attribs.property ?? '').split(/\s+/).filter(Boolean).map((p) => p.replace(/^[\w-]+:(?!\/)/, '').replace(/^.*[/#]/, '')),
};

function add(obj: Record<string, unknown>, key: string, value: unknown): void {
  const prev = obj[key];
  if (prev === undefined) obj[key] = value;
  else if (Array.isArray(prev)) prev.push(value);
  else obj[key] = [prev, value];
}

/**
 * Items of one syntax (microdata or RDFa Lite) and the properties outside any item. One
 * iterative walk in document order: an element is visited with the item it belongs to (its
 * closest enclosing scope), so nested items own their subtrees as the syntaxes say.
 */
/** Properties whose value is an address even when the link has words (`url`, `sameAs`, `image`). */
const ADDRESS_PROP = /url|link|href|sameas|image|logo|photo|thumbnail|icon|avatar|contenturl|embed|^@?id$/i;

/**
 * The value of a property element. Microdata gives a link's `href`; with `linkText`, a link
 * that has words and names no address (`<a itemprop="author" href="/a/hana">Hana Ito</a>`) gives
 * its words, which is what pages mean by it.
 */
function valueOf(el: Element, name: string, base: string, budget: Budget, linkText: boolean): string {
  if (linkText && (el.name === 'a' || el.name === 'area') && el.attribs.content === undefined && !ADDRESS_PROP.test(name)) {
    const words = textOf(el, false, budget);
    if (words !== '') return words;
  }
  return propertyValue(el, base, budget);
}

function itemEntities(doc: Document, syntax: ItemSyntax, base: string, entities: Entity[], loose: Candidate[], budget: Budget, linkText: boolean): void {
  // Two parallel stacks, not an object per element: this walk visits every element of the page.
  const stack: Element[] = [];
  const owners: (Entity | undefined)[] = [];
  const pushChildren = (parent: Document | Element, owner: Entity | undefined): void => {
    for (let i = parent.children.length - 1; i >= 0; i--) {
      const c = parent.children[i] as Element;
      if (c.type === 'tag' || c.type === 'script' || c.type === 'style') (stack.push(c), owners.push(owner));
    }
  };
  pushChildren(doc, undefined);
  const looseWeight = WEIGHT[syntax.origin] * 0.9;
  while (stack.length > 0) {
    const el = stack.pop() as Element;
    const owner = owners.pop();
    const names = syntax.props(el);
    if (syntax.scope(el)) {
      const types = syntax.type(el);
      const data: Record<string, unknown> = {};
      if (types.length > 0) data['@type'] = types.length === 1 ? types[0] : types;
      // An item that is a property of nothing (`<span itemprop="author" itemscope>` at page level) is loose.
      const entity: Entity = { id: entities.length, types, data, origin: syntax.origin, topLevel: owner === undefined && names.length === 0 };
      entities.push(entity);
      for (const n of names) {
        if (owner) add(owner.data, n, data);
        else loose.push({ path: [n], value: data, origin: syntax.origin, weight: looseWeight, source: `${syntax.origin}:${n}` });
      }
      pushChildren(el, entity);
      continue;
    }
    for (const n of names) {
      const v = valueOf(el, n, base, budget, linkText);
      if (v === '') continue;
      if (owner) add(owner.data, n, v);
      else loose.push({ path: [n], value: v, origin: syntax.origin, weight: looseWeight, source: `${syntax.origin}:${n}` });
    }
    pushChildren(el, owner);
  }
}

/** What a caller that read the raw HTML already knows (parsers build their DOM without script bodies). */
export interface ReadOptions {
  /** The page's JSON-LD script bodies, read from the raw HTML; else read from the document's script elements. */
  jsonLd?: readonly string[];
  /** False when the page has no `itemscope` / `typeof` attribute: the walks that look for them are skipped. */
  microdata?: boolean;
  rdfa?: boolean;
  /** Elements of the page, when the caller counted them (sizes the text budget). */
  elements?: number;
  /** A property link with words and no address meaning gives its words, not its `href` (see valueOf). */
  linkText?: boolean;
  /** False when the caller reads only the entities: the page-level meta candidates (a walk of the whole tree) are skipped. */
  meta?: boolean;
}

export function readStructuredData(doc: Document, base: string, opts: ReadOptions = {}): StructuredData {
  const entities: Entity[] = [];
  const candidates: Candidate[] = [];
  jsonLdEntities(opts.jsonLd ?? jsonLdTexts(doc), entities);
  // Property texts share one budget: nested properties cannot make the walk quadratic.
  const budget = budgetFor(opts.elements ?? 50_000);
  const linkText = opts.linkText === true;
  if (opts.microdata !== false) itemEntities(doc, MICRODATA, base, entities, candidates, budget, linkText);
  if (opts.rdfa !== false) itemEntities(doc, RDFA, base, entities, candidates, budget, linkText);
  if (opts.meta !== false) metaCandidates(doc, base, candidates);
  return { entities, candidates };
}
