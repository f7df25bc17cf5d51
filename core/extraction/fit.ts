/**
 * Making an answer fit the caller's schema, whichever extractor produced it: values ajv
 * rejects are nulled, then removed; declared fields left empty are reported as `unfilled`.
 *
 * `unfilled` convention: JSON Pointers (RFC 6901) into the result, e.g. `/price`,
 * `/offers/currency`, `/products/3/rating`; `` (empty) when nothing at all was found. A nested
 * object that is missing entirely is reported once, not field by field.
 */
import type { CompiledSchema, SchemaObject } from './schema.js';
import { view } from './schema.js';
import { isPlainObject } from './model.js';

function escape(seg: string): string {
  return seg.replace(/~/g, '~0').replace(/\//g, '~1');
}

function segments(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Nulls (first time) or removes (second time, or at once with `remove`) the value at `pointer`; false when it cannot. */
function prune(root: unknown, pointer: string, remove = false): boolean {
  const segs = segments(pointer);
  if (segs.length === 0) return false;
  let parent: unknown = root;
  for (const s of segs.slice(0, -1)) {
    if (Array.isArray(parent)) parent = parent[Number(s)];
    else if (isPlainObject(parent)) parent = parent[s];
    else return false;
  }
  const key = segs[segs.length - 1] as string;
  if (Array.isArray(parent)) {
    const i = Number(key);
    if (!(i in parent)) return false;
    parent[i] = undefined; // compacted after the pass, so sibling pointers stay valid
    return true;
  }
  if (!isPlainObject(parent) || !(key in parent)) return false;
  if (parent[key] !== null && !remove) parent[key] = null;
  else delete parent[key];
  return true;
}

function truncate(root: unknown, pointer: string, limit: number): boolean {
  let node: unknown = root;
  for (const s of segments(pointer)) node = Array.isArray(node) ? node[Number(s)] : isPlainObject(node) ? node[s] : undefined;
  if (!Array.isArray(node) || node.length <= limit) return false;
  node.length = limit;
  return true;
}

function compact(v: unknown): unknown {
  if (Array.isArray(v)) return v.filter((x) => x !== undefined).map(compact);
  if (isPlainObject(v)) for (const k of Object.keys(v)) v[k] = compact(v[k]);
  return v;
}

export interface Fitted {
  json: unknown;
  /** ajv's complaints that pruning could not cure (missing required fields excluded). */
  remaining: string[];
}

/** Prunes what does not fit `compiled` (missing required fields stay missing: see `unfilled`). */
export function fitToSchema(value: unknown, compiled: CompiledSchema): Fitted {
  let json = value;
  for (let pass = 0; pass < 8; pass++) {
    if (compiled.validate(json)) return { json, remaining: [] };
    const errors = (compiled.validate.errors ?? []).filter((e) => e.keyword !== 'required');
    if (errors.length === 0) return { json, remaining: [] };
    let changed = false;
    const pointers = new Map<string, boolean>(); // pointer → remove outright
    for (const e of errors) {
      const extra = (e.params as { additionalProperty?: string; unevaluatedProperty?: string }).additionalProperty ?? (e.params as { unevaluatedProperty?: string }).unevaluatedProperty;
      const limit = (e.params as { limit?: number }).limit;
      if (extra !== undefined) pointers.set(`${e.instancePath}/${escape(extra)}`, true); // an undeclared key goes, not its object
      else if (e.keyword === 'maxItems' && typeof limit === 'number') changed = truncate(json, e.instancePath, limit) || changed;
      else pointers.set(e.instancePath, pointers.get(e.instancePath) ?? false);
    }
    // Deepest first, so a parent's removal does not hide a child's pointer.
    for (const [p, remove] of [...pointers].sort((a, b) => b[0].length - a[0].length)) if (prune(json, p, remove)) changed = true;
    json = compact(json);
    if (!changed) return { json, remaining: errors.map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`.trim()) };
  }
  compiled.validate(json);
  return { json, remaining: (compiled.validate.errors ?? []).filter((e) => e.keyword !== 'required').map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`.trim()) };
}

/** Declared fields that are absent, null or empty in `value`, as JSON Pointers. */
export function unfilledFields(value: unknown, node: SchemaObject, root: SchemaObject, pointer = ''): string[] {
  if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) return [pointer];
  const v = view(node, root);
  const out: string[] = [];
  if (v.properties && isPlainObject(value)) {
    for (const [name, sub] of Object.entries(v.properties)) out.push(...unfilledFields(value[name], sub, root, `${pointer}/${escape(name)}`));
  } else if (v.items && Array.isArray(value)) {
    const iv = view(v.items, root);
    if (iv.properties) value.forEach((item, i) => out.push(...unfilledFields(item, v.items as SchemaObject, root, `${pointer}/${i}`)));
  }
  return out;
}
