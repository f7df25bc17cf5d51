/**
 * Filling a schema node from a candidate pool. Each candidate gets a confidence for the field:
 * how well its key names the field (matcher.ts) × the trust in its source and its place on the
 * page (model.ts) × a penalty for other structured-data items than the page's main one. A field
 * takes the most confident candidate whose value fits its type, and only one at or above
 * `FILL_MIN`: a field the page does not clearly have stays unfilled, which is better than a
 * value from an unrelated element.
 *
 * Nested objects read the matching object candidate (JSON-LD `offers`, microdata `author`)
 * before the page at large; arrays of objects come from arrays in structured data or, at page
 * level, from repeated structures (the `items` hook). Each filled value carries where it was
 * read (`source`), mirrored into `metadata.json_fields`.
 */
import { coerce, splitList } from './coerce.js';
import { type PropertyName, matchScore, namesExactly, norm, propertyConcept } from './matcher.js';
import { type Candidate, type Origin, flatten, isPlainObject } from './model.js';
import type { RepeatedItems } from './repeated.js';
import { type SchemaObject, type SchemaView, view } from './schema.js';

/** Where each value was read: a string per value, an object per nested object (the answer's shape). */
export type SourceTree = string | { [key: string]: SourceTree };

export interface Filled<T = unknown> {
  value: T;
  source: SourceTree;
}

export interface FillContext {
  root: SchemaObject;
  base: string;
  /** Entity ids of the page's main item: other entities' candidates rank lower. */
  primary?: number;
  /** Page-level repeated structures for an array of objects (repeated.ts). */
  items?: (itemSchema: SchemaObject, prop?: PropertyName) => RepeatedItems | undefined;
}

/** The least a key must name a field to be considered. */
const MIN_MATCH = 0.5;
/** The least confidence at which a field is filled. */
export const FILL_MIN = 0.5;
/** Confidence of stated data (structured data, meta tags): what may stand alone for a list. */
const STATED_MIN = 0.8;

function plural(name: string): boolean {
  const last = name.split(/[^a-zA-Z]+/).filter(Boolean).pop() ?? '';
  return /[^s]s$/i.test(last) || /ies$/i.test(last);
}

/** Values stated as data, read leniently; the rest is page text, whose numbers must be the value. */
const STATED: ReadonlySet<Origin> = new Set(['jsonld', 'microdata', 'rdfa', 'meta']);

interface Ranked {
  c: Candidate;
  confidence: number;
}

/** The candidates for a field at or above FILL_MIN, most confident first (document order on ties). */
export function rank(pool: Candidate[], prop: PropertyName, ctx: FillContext): Ranked[] {
  const scored: Ranked[] = [];
  for (const c of pool) {
    const m = matchScore(prop, c.path);
    if (m < MIN_MATCH) continue;
    let s = m * c.weight * Math.pow(0.95, c.path.length - 1);
    if (c.entity !== undefined && ctx.primary !== undefined && c.entity !== ctx.primary) s *= 0.8;
    if (s >= FILL_MIN) scored.push({ c, confidence: s });
  }
  return scored.sort((a, b) => b.confidence - a.confidence);
}

function coerceFrom(c: Candidate, value: unknown, v: SchemaView, concept: string | undefined, ctx: FillContext): unknown {
  return coerce(value, v, { base: ctx.base, concept, strict: !STATED.has(c.origin) });
}

function scalarArray(c: Candidate, iv: SchemaView, concept: string | undefined, ctx: FillContext): unknown[] {
  const value = c.value;
  let list: unknown[];
  if (Array.isArray(value)) list = value;
  else if (typeof value === 'string' && iv.types.includes('string') && (concept === 'keywords' || value.includes('\n'))) list = splitList(value);
  else list = [value];
  const out = list.map((x) => coerceFrom(c, x, iv, concept, ctx)).filter((x) => x !== undefined);
  const seen = new Set<string>();
  return out.filter((x) => !seen.has(JSON.stringify(x)) && seen.add(JSON.stringify(x)));
}

function objectsFrom(value: unknown): Record<string, unknown>[] {
  if (Array.isArray(value)) return value.filter(isPlainObject);
  return isPlainObject(value) ? [value] : [];
}

/** Candidates of the wider pool that speak about `context` (`aggregateRating.ratingCount` for rating.count). */
function contextual(pool: Candidate[], chain: string[]): Candidate[] {
  const ctxName = chain[chain.length - 1];
  if (ctxName === undefined) return pool;
  const n = norm(ctxName);
  return pool.filter((c) => c.path.length >= 2 && c.path.slice(0, -1).some((seg) => norm(seg) === n || matchScore({ name: ctxName }, [seg]) >= 0.9));
}

/**
 * Sources that a field names by its own words (`heading` and the `h1`, `title` and the
 * `<title>`) belong to that field: a sibling that only names them by a synonym reads another
 * source. `{heading, title}` gets the h1 and the document title, not the h1 twice.
 */
function ownersOf(fields: readonly string[], pool: readonly Candidate[]): Map<string, string> {
  const owners = new Map<string, string>();
  for (const c of pool) {
    if (owners.has(c.source)) continue;
    const owner = fields.find((f) => namesExactly(f, c.path));
    if (owner !== undefined) owners.set(c.source, owner);
  }
  return owners;
}

export function fillObject(v: SchemaView, chain: string[], pool: Candidate[], ctx: FillContext): Filled<Record<string, unknown>> | undefined {
  if (!v.properties) {
    // A free-form object: the best object candidate as it stands.
    const best = pool.find((c) => isPlainObject(c.value));
    return best ? { value: best.value as Record<string, unknown>, source: best.source } : undefined;
  }
  const value: Record<string, unknown> = {};
  const source: Record<string, SourceTree> = {};
  let filled = 0;
  const owners = ownersOf(Object.keys(v.properties), pool);
  for (const [name, sub] of Object.entries(v.properties)) {
    const sv = view(sub, ctx.root);
    const prop: PropertyName = { name, title: sv.title, description: sv.description, context: chain };
    const mine = owners.size === 0 ? pool : pool.filter((c) => (owners.get(c.source) ?? name) === name);
    const got = fillProperty(sv, prop, mine, ctx, pool);
    if (got !== undefined) {
      value[name] = got.value;
      source[name] = got.source;
      filled++;
    } else if (sv.nullable) value[name] = null;
  }
  return filled > 0 ? { value, source } : undefined;
}

function fillNestedObject(v: SchemaView, prop: PropertyName, chain: string[], pool: Candidate[], ctx: FillContext): Filled | undefined {
  for (const { c } of rank(pool, prop, ctx)) {
    const obj = objectsFrom(c.value)[0];
    if (!obj) continue;
    const sub = flatten(obj, { origin: c.origin, weight: c.weight, entity: c.entity, source: c.source });
    const got = fillObject(v, chain, [...sub, ...contextual(pool, chain)], ctx);
    if (got) return got;
  }
  const fallback = contextual(pool, chain);
  return fallback.length > 0 ? fillObject(v, chain, fallback, ctx) : undefined;
}

function fillArray(v: SchemaView, prop: PropertyName, chain: string[], pool: Candidate[], ctx: FillContext): Filled | undefined {
  const iv = view(v.items as SchemaObject, ctx.root);
  if (iv.types.includes('object') && iv.properties) {
    for (const { c } of rank(pool, prop, ctx)) {
      const objs = objectsFrom(c.value);
      if (objs.length === 0) continue;
      const items = objs.map((o) => fillObject(iv, chain, flatten(o, { origin: c.origin, weight: c.weight, entity: c.entity, source: c.source }), ctx)?.value).filter((x) => x !== undefined);
      if (items.length > 0) return { value: items, source: c.source };
    }
    const found = ctx.items?.(v.items as SchemaObject, prop);
    return found && found.items.length > 0 ? { value: found.items, source: found.source } : undefined;
  }
  const concept = propertyConcept({ ...prop, name: prop.name.replace(/s$/, '') }) ?? propertyConcept(prop);
  for (const { c, confidence } of rank(pool, prop, ctx)) {
    // A list of many things (`titles`, `prices`) is not the page's one thing (its title): a
    // single value from page text does not make the list, stated data may.
    const list = scalarArray(c, iv, concept, ctx);
    if (list.length < 2 && !Array.isArray(c.value) && confidence < STATED_MIN && plural(prop.name)) continue;
    if (list.length > 0) return { value: list, source: c.source };
  }
  return undefined;
}

/** `wider`: the whole pool, where the currency of a price is looked for (the price's sources may be another field's). */
export function fillProperty(v: SchemaView, prop: PropertyName, pool: Candidate[], ctx: FillContext, wider = pool): Filled | undefined {
  const chain = [...(prop.context ?? []), prop.name];
  if (v.types.includes('object') && v.properties) return fillNestedObject(v, prop, chain, pool, ctx);
  if (v.types.includes('array') && v.items) return fillArray(v, prop, chain, pool, ctx);
  const concept = propertyConcept(prop);
  for (const { c } of rank(pool, prop, ctx)) {
    if (isPlainObject(c.value) && v.types.length === 0) return { value: c.value, source: c.source };
    const got = coerceFrom(c, c.value, v, concept, ctx);
    if (got !== undefined) return { value: got, source: c.source };
  }
  if (concept === 'currency') {
    // No currency field on the page: read it off the price ("1.299,00 €" → EUR).
    for (const { c } of rank(wider, { name: 'price', context: prop.context }, ctx)) {
      const got = coerceFrom(c, c.value, v, concept, ctx);
      if (got !== undefined) return { value: got, source: `${c.source} (currency of the price)` };
    }
  }
  return undefined;
}
