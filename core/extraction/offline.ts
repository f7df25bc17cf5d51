/**
 * The offline extractor: no model, only the page. Structured data, meta tags, tables, labels,
 * headings and text become one candidate pool; the caller's schema is filled from it
 * (fill.ts), arrays of objects from repeated structures (repeated.ts); the result is pruned
 * to validate (fit.ts). Deterministic: the same page and schema give the same JSON.
 */
import { visibleCandidates } from './candidates.js';
import { type Document, parseHtml } from './dom.js';
import { type FillContext, fillObject, fillProperty } from './fill.js';
import { fitToSchema, unfilledFields } from './fit.js';
import { matchScore } from './matcher.js';
import { type Candidate, type Entity, WEIGHT, flatten } from './model.js';
import { findRepeated } from './repeated.js';
import { type CompiledSchema, type SchemaObject, type SchemaView, view } from './schema.js';
import { readStructuredData } from './structured-data.js';

export interface Page {
  doc: Document;
  base: string;
  entities: Entity[];
  pool: Candidate[];
}

export function readPage(html: string, url: string): Page {
  const doc = parseHtml(html);
  const sd = readStructuredData(doc, url);
  const pool: Candidate[] = [];
  for (const e of sd.entities) pool.push(...flatten(e.data, { origin: e.origin, weight: WEIGHT[e.origin], entity: e.id }));
  pool.push(...sd.candidates);
  pool.push(...visibleCandidates(doc, url));
  return { doc, base: url, entities: sd.entities, pool };
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
    const cands = flatten(e.data, { origin: e.origin, weight: 1, entity: e.id }).filter((c) => c.path.length <= 2);
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
  /** Schema complaints pruning could not cure (empty when the result validates). */
  remaining: string[];
}

export function extractOffline(html: string, url: string, compiled: CompiledSchema): OfflineResult {
  const page = readPage(html, url);
  const root = compiled.schema;
  const v = view(root, root);
  const ctx: FillContext = { root, base: url, primary: choosePrimary(page, v) };
  ctx.items = (itemSchema: SchemaObject, prop) => findRepeated(page.doc, page.entities, itemSchema, prop, ctx);
  let json: unknown;
  if (v.types.includes('object') || v.properties) json = fillObject(v, [], page.pool, ctx) ?? (v.properties ? emptyObject(v, root) : undefined);
  else if (v.types.includes('array') && v.items) json = ctx.items(v.items) ?? [];
  else json = fillProperty(v, { name: v.title ?? 'value', description: v.description }, page.pool, ctx) ?? null;
  const fitted = fitToSchema(json, compiled);
  return { json: fitted.json, unfilled: unfilledFields(fitted.json, root, root), remaining: fitted.remaining };
}

/** Nothing matched: every nullable field null, the rest absent. */
function emptyObject(v: SchemaView, root: SchemaObject): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, sub] of Object.entries(v.properties ?? {})) if (view(sub, root).nullable) out[name] = null;
  return out;
}
