/**
 * The offline extractor: no model, only the page. Structured data, meta tags, tables, labels,
 * headings and text become one candidate pool; the caller's schema is filled from it
 * (fill.ts: a field takes its most confident candidate, and none below the threshold), arrays
 * of objects from repeated structures (repeated.ts); the result is pruned to validate
 * (fit.ts). Deterministic: the same page and schema give the same JSON. One tree of the page
 * is shared by every reader, and every walk over it is linear (tree.ts).
 */
import { visibleCandidates } from './candidates.js';
import { type Document, parseHtml } from './dom.js';
import { type FillContext, type SourceTree, fillObject, fillProperty } from './fill.js';
import { fitToSchema, unfilledFields } from './fit.js';
import { matchScore, norm } from './matcher.js';
import { type Candidate, type Entity, WEIGHT, entitySource, flatten, isPlainObject } from './model.js';
import { findRepeated } from './repeated.js';
import { type CompiledSchema, type SchemaObject, type SchemaView, view } from './schema.js';
import { readStructuredData } from './structured-data.js';
import { Tree } from './tree.js';

export interface Page {
  doc: Document;
  tree: Tree;
  base: string;
  entities: Entity[];
  pool: Candidate[];
}

/** Every property name of a schema (nested objects and items included), normalised. */
function fieldNames(root: SchemaObject): Set<string> {
  const out = new Set<string>();
  const stack: Array<{ node: SchemaObject; depth: number }> = [{ node: root, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop() as { node: SchemaObject; depth: number };
    const v = view(node, root);
    if (depth > 8) continue;
    for (const [name, sub] of Object.entries(v.properties ?? {})) {
      out.add(norm(name));
      stack.push({ node: sub, depth: depth + 1 });
    }
    if (v.items) stack.push({ node: v.items, depth: depth + 1 });
  }
  return out;
}

export function readPage(html: string, url: string, fields?: ReadonlySet<string>): Page {
  return readDocument(parseHtml(html), url, fields);
}

/** The candidate pool of a parsed page: one tree pass, then each reader once (all linear in the page). */
export function readDocument(doc: Document, url: string, fields?: ReadonlySet<string>): Page {
  const tree = new Tree(doc);
  const names = tree.elements;
  const sd = readStructuredData(doc, url, {
    microdata: names.some((e) => e.attribs.itemscope !== undefined),
    rdfa: names.some((e) => e.attribs.typeof !== undefined),
    elements: names.length,
    linkText: true,
  });
  const pool: Candidate[] = [];
  for (const e of sd.entities) pool.push(...flatten(e.data, { origin: e.origin, weight: WEIGHT[e.origin], entity: e.id, source: entitySource(e) }));
  pool.push(...sd.candidates);
  pool.push(...visibleCandidates(doc, url, { tree, ...(fields ? { fields } : {}) }));
  trimSiteName(pool);
  return { doc, tree, base: url, entities: sd.entities, pool };
}

const SEPARATOR = /^\s*[-–—|:·•»/]\s*/;

/**
 * The document title without the site's name (`Alpine Daypack 28L – Northpeak`): when the page's
 * heading, or OpenGraph's site name, shows which part is the page's own. A title the heading
 * does not start (`Static page` over `Static heading`) is left whole.
 */
function trimSiteName(pool: Candidate[]): void {
  const title = pool.find((c) => c.source === 'title');
  if (!title || typeof title.value !== 'string') return;
  const t = title.value;
  const heading = pool.find((c) => c.source === 'h1')?.value;
  if (typeof heading === 'string' && heading !== '' && t.toLowerCase().startsWith(heading.toLowerCase()) && SEPARATOR.test(t.slice(heading.length))) {
    title.value = t.slice(0, heading.length);
    return;
  }
  const site = pool.find((c) => c.source === 'meta:og:site_name')?.value;
  if (typeof site === 'string' && site !== '' && t.toLowerCase().endsWith(site.toLowerCase())) {
    const head = t.slice(0, t.length - site.length);
    const cut = head.replace(/\s*[-–—|:·•»/]\s*$/, '');
    if (cut !== head && cut !== '') title.value = cut;
  }
}

/**
 * The entity the schema is about: the one naming most of the schema's properties (its type
 * named in the schema's title or description counts as one more).
 */
function choosePrimary(page: Page, v: SchemaView): number | undefined {
  if (!v.properties) return undefined;
  const names = Object.entries(v.properties).map(([name, s]) => ({
    name,
    title: typeof s.title === 'string' ? s.title : undefined,
  }));
  const about = `${v.title ?? ''} ${v.description ?? ''}`.toLowerCase();
  let best: { id: number; score: number } | undefined;
  for (const e of page.entities) {
    const cands = flatten(e.data, { origin: e.origin, weight: 1, entity: e.id, source: '' }).filter((c) => c.path.length <= 2);
    let score = 0;
    for (const p of names) if (cands.some((c) => matchScore(p, c.path) >= 0.85)) score++;
    if (e.types.some((t) => about.includes(t.toLowerCase()))) score += 1;
    if (e.topLevel) score += 0.1;
    if (score > 0 && (!best || score > best.score)) best = { id: e.id, score };
  }
  return best?.id;
}

export interface OfflineResult {
  json: unknown;
  unfilled: string[];
  /** Where each value of `json` was read, in `json`'s shape (`metadata.json_fields`). */
  fields: SourceTree | undefined;
  /** Schema complaints pruning could not cure (empty when the result validates). */
  remaining: string[];
}

export function extractOffline(html: string, url: string, compiled: CompiledSchema): OfflineResult {
  return extractFromDocument(parseHtml(html), url, compiled);
}

export function extractFromDocument(doc: Document, url: string, compiled: CompiledSchema): OfflineResult {
  const root = compiled.schema;
  const page = readDocument(doc, url, fieldNames(root));
  const v = view(root, root);
  const ctx: FillContext = { root, base: url, primary: choosePrimary(page, v) };
  ctx.items = (itemSchema: SchemaObject, prop) => findRepeated(page.tree, page.entities, itemSchema, prop, ctx);
  let json: unknown;
  let fields: SourceTree | undefined;
  if (v.types.includes('object') || v.properties) {
    const got = fillObject(v, [], page.pool, ctx);
    json = got?.value ?? (v.properties ? emptyObject(v, root) : undefined);
    fields = got?.source;
  } else if (v.types.includes('array') && v.items) {
    const found = ctx.items(v.items);
    json = found?.items ?? [];
    fields = found?.source;
  } else {
    const got = fillProperty(v, { name: v.title ?? 'value', description: v.description }, page.pool, ctx);
    json = got?.value ?? null;
    fields = got?.source;
  }
  const fitted = fitToSchema(json, compiled);
  return { json: fitted.json, unfilled: unfilledFields(fitted.json, root, root), fields: keptSources(fitted.json, fields), remaining: fitted.remaining };
}

/** The sources of the values that survived fitting (a value pruned to fit loses its source). */
function keptSources(json: unknown, sources: SourceTree | undefined): SourceTree | undefined {
  if (sources === undefined || json === undefined || json === null) return undefined;
  if (typeof sources === 'string') return sources;
  if (!isPlainObject(json)) return undefined;
  const out: Record<string, SourceTree> = {};
  for (const [k, s] of Object.entries(sources)) {
    const kept = keptSources(json[k], s);
    if (kept !== undefined) out[k] = kept;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Nothing matched: every nullable field null, the rest absent. */
function emptyObject(v: SchemaView, root: SchemaObject): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, sub] of Object.entries(v.properties ?? {})) if (view(sub, root).nullable) out[name] = null;
  return out;
}
