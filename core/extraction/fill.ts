/**
 * Filling a schema node from a candidate pool: each property takes the best-ranked candidate
 * whose value coerces to its type; nested objects read the matching object candidate (JSON-LD
 * `offers`, microdata `author`) before the page at large; arrays of objects come from arrays in
 * structured data or, at page level, from repeated structures (the `items` hook).
 */
import { coerce, splitList } from './coerce.js';
import { type PropertyName, matchScore, norm, propertyConcept } from './matcher.js';
import { type Candidate, flatten, isPlainObject } from './model.js';
import { type SchemaObject, type SchemaView, view } from './schema.js';

export interface FillContext {
  root: SchemaObject;
  base: string;
  /** Entity ids of the page's main item: other entities' candidates rank lower. */
  primary?: number;
  /** Page-level repeated structures for an array of objects (repeated.ts). */
  items?: (itemSchema: SchemaObject, prop?: PropertyName) => unknown[] | undefined;
}

const MIN_MATCH = 0.5;
const MIN_SCORE = 0.2;

function rank(pool: Candidate[], prop: PropertyName, ctx: FillContext): Candidate[] {
  const scored: { c: Candidate; s: number }[] = [];
  for (const c of pool) {
    const m = matchScore(prop, c.path);
    if (m < MIN_MATCH) continue;
    let s = m * c.weight * Math.pow(0.95, c.path.length - 1);
    if (c.entity !== undefined && ctx.primary !== undefined && c.entity !== ctx.primary) s *= 0.8;
    if (s >= MIN_SCORE) scored.push({ c, s });
  }
  // Stable: among equals the earlier candidate (document order) wins.
  return scored.sort((a, b) => b.s - a.s).map((x) => x.c);
}

function scalarArray(value: unknown, iv: SchemaView, concept: string | undefined, ctx: FillContext): unknown[] | undefined {
  let list: unknown[];
  if (Array.isArray(value)) list = value;
  else if (typeof value === 'string' && iv.types.includes('string') && (concept === 'keywords' || value.includes('\n'))) list = splitList(value);
  else list = [value];
  const out = list.map((x) => coerce(x, iv, { base: ctx.base, concept })).filter((x) => x !== undefined);
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

export function fillObject(v: SchemaView, chain: string[], pool: Candidate[], ctx: FillContext): Record<string, unknown> | undefined {
  if (!v.properties) {
    // A free-form object: the best object candidate as it stands.
    const best = pool.find((c) => isPlainObject(c.value));
    return best ? (best.value as Record<string, unknown>) : undefined;
  }
  const out: Record<string, unknown> = {};
  let filled = 0;
  for (const [name, sub] of Object.entries(v.properties)) {
    const sv = view(sub, ctx.root);
    const prop: PropertyName = { name, title: sv.title, description: sv.description, context: chain };
    const value = fillProperty(sv, prop, pool, ctx);
    if (value !== undefined) {
      out[name] = value;
      filled++;
    } else if (sv.nullable) out[name] = null;
  }
  return filled > 0 ? out : undefined;
}

export function fillProperty(v: SchemaView, prop: PropertyName, pool: Candidate[], ctx: FillContext): unknown {
  const chain = [...(prop.context ?? []), prop.name];
  const concept = propertyConcept(prop);
  if (v.types.includes('object') && v.properties) {
    for (const c of rank(pool, prop, ctx)) {
      const obj = objectsFrom(c.value)[0];
      if (!obj) continue;
      const sub = flatten(obj, { origin: c.origin, weight: c.weight, entity: c.entity });
      const got = fillObject(v, chain, [...sub, ...contextual(pool, chain)], ctx);
      if (got) return got;
    }
    const fallback = contextual(pool, chain);
    return fallback.length > 0 ? fillObject(v, chain, fallback, ctx) : undefined;
  }
  if (v.types.includes('array') && v.items) {
    const iv = view(v.items, ctx.root);
    if (iv.types.includes('object') && iv.properties) {
      for (const c of rank(pool, prop, ctx)) {
        const objs = objectsFrom(c.value);
        if (objs.length === 0) continue;
        const items = objs
          .map((o) => fillObject(iv, chain, flatten(o, { origin: c.origin, weight: c.weight, entity: c.entity }), ctx))
          .filter((x) => x !== undefined);
        if (items.length > 0) return items;
      }
      const found = ctx.items?.(v.items, prop);
      return found && found.length > 0 ? found : undefined;
    }
    for (const c of rank(pool, prop, ctx)) {
      const list = scalarArray(c.value, iv, propertyConcept({ ...prop, name: prop.name.replace(/s$/, '') }) ?? concept, ctx);
      if (list && list.length > 0) return list;
    }
    return undefined;
  }
  for (const c of rank(pool, prop, ctx)) {
    if (isPlainObject(c.value) && v.types.length === 0) return c.value;
    const got = coerce(c.value, v, { base: ctx.base, concept });
    if (got !== undefined) return got;
  }
  if (concept === 'currency') {
    // No currency field on the page: read it off the price ("1.299,00 €" → EUR).
    for (const c of rank(pool, { name: 'price', context: prop.context }, ctx)) {
      const got = coerce(c.value, v, { base: ctx.base, concept });
      if (got !== undefined) return got;
    }
  }
  return undefined;
}
