/**
 * The caller's JSON Schema (or OpenAPI schema object): normalised for ajv, compiled once per
 * distinct schema, and read through a simple view (types, properties, items) by the extractors.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import type { FormatsPlugin } from 'ajv-formats';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type SchemaObject = Record<string, unknown>;

// ajv-formats is CommonJS: under NodeNext its default import is the module object.
const addFormats = ((formatsModule as unknown as { default?: FormatsPlugin }).default ?? formatsModule) as FormatsPlugin;

function isObj(v: unknown): v is SchemaObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** OpenAPI's `nullable: true` becomes a JSON Schema null type; the rest is copied unchanged. */
export function normaliseSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(normaliseSchema);
  if (!isObj(schema)) return schema;
  const out: SchemaObject = {};
  for (const [k, v] of Object.entries(schema)) if (k !== 'nullable') out[k] = normaliseSchema(v);
  if (schema.nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    else if (Array.isArray(out.type) && !out.type.includes('null')) out.type = [...out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  }
  return out;
}

function makeAjv(schema: SchemaObject): Ajv {
  const draft = typeof schema.$schema === 'string' ? schema.$schema : '';
  const opts = { strict: false, allErrors: true, validateSchema: true, logger: false as const };
  const ajv = draft.includes('2020-12') ? new Ajv2020(opts) : draft.includes('2019-09') ? new Ajv2019(opts) : new Ajv(opts);
  addFormats(ajv);
  return ajv;
}

export interface CompiledSchema {
  schema: SchemaObject;
  validate: ValidateFunction;
}

/** Bounded cache: batch jobs send the same schema for thousands of pages (per worker thread). */
const CACHE = new Map<string, CompiledSchema>();
const CACHE_MAX = 64;

/** Compiles the caller's schema; throws an Error with ajv's message when it is not a valid schema. */
export function compileSchema(raw: SchemaObject): CompiledSchema {
  const key = JSON.stringify(raw);
  const hit = CACHE.get(key);
  if (hit) {
    CACHE.delete(key);
    CACHE.set(key, hit);
    return hit;
  }
  const schema = normaliseSchema(raw) as SchemaObject;
  const forAjv: SchemaObject = { ...schema };
  // draft-04 and unknown meta-schemas are not loaded; validate the keywords, not the dialect.
  if (typeof forAjv.$schema === 'string' && !/2019-09|2020-12|draft-07/.test(forAjv.$schema)) delete forAjv.$schema;
  const validate = makeAjv(forAjv).compile(forAjv);
  const compiled = { schema, validate };
  CACHE.set(key, compiled);
  if (CACHE.size > CACHE_MAX) CACHE.delete(CACHE.keys().next().value as string);
  return compiled;
}

export function describeErrors(errors: ErrorObject[] | null | undefined, max = 5): string {
  if (!errors || errors.length === 0) return 'unknown validation error';
  const parts = errors.slice(0, max).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`.trim());
  return parts.join('; ') + (errors.length > max ? `; and ${errors.length - max} more` : '');
}

/** A schema node as the extractors read it, references and combinators resolved. */
export interface SchemaView {
  types: string[];
  nullable: boolean;
  properties: Record<string, SchemaObject> | undefined;
  required: string[];
  items: SchemaObject | undefined;
  format: string | undefined;
  enum: unknown[] | undefined;
  pattern: string | undefined;
  title: string | undefined;
  description: string | undefined;
  raw: SchemaObject;
}

function resolveRef(ref: string, root: SchemaObject): SchemaObject | undefined {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const part of ref.slice(1).split('/').filter((p) => p !== '')) {
    const key = decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');
    node = isObj(node) ? node[key] : undefined;
  }
  return isObj(node) ? node : undefined;
}

/** Follows `$ref`, merges `allOf`, and takes the first non-null branch of `anyOf`/`oneOf`. */
export function deref(node: SchemaObject, root: SchemaObject, depth = 0): SchemaObject {
  if (depth > 16) return node;
  let n = node;
  if (typeof n.$ref === 'string') {
    const target = resolveRef(n.$ref, root);
    if (target) n = { ...deref(target, root, depth + 1), ...Object.fromEntries(Object.entries(n).filter(([k]) => k !== '$ref')) };
  }
  if (Array.isArray(n.allOf)) {
    const merged: SchemaObject = { ...n };
    delete merged.allOf;
    for (const part of n.allOf) {
      if (!isObj(part)) continue;
      const p = deref(part, root, depth + 1);
      merged.properties = { ...(isObj(merged.properties) ? merged.properties : {}), ...(isObj(p.properties) ? p.properties : {}) };
      merged.required = [...(Array.isArray(merged.required) ? merged.required : []), ...(Array.isArray(p.required) ? p.required : [])];
      for (const [k, v] of Object.entries(p)) if (!(k in merged)) merged[k] = v;
    }
    n = merged;
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = n[key];
    if (!Array.isArray(branches)) continue;
    const resolved = branches.filter(isObj).map((b) => deref(b, root, depth + 1));
    const nonNull = resolved.find((b) => b.type !== 'null');
    const hasNull = resolved.some((b) => b.type === 'null');
    const rest = Object.fromEntries(Object.entries(n).filter(([k]) => k !== key));
    n = { ...(nonNull ?? {}), ...rest };
    if (hasNull) n.type = [...new Set([...(Array.isArray(n.type) ? n.type : n.type ? [n.type] : []), 'null'])];
  }
  return n;
}

export function view(node: SchemaObject, root: SchemaObject): SchemaView {
  const n = deref(node, root);
  let types = Array.isArray(n.type) ? (n.type as string[]) : typeof n.type === 'string' ? [n.type] : [];
  const nullable = types.includes('null') || (Array.isArray(n.enum) && n.enum.includes(null)) || types.length === 0;
  types = types.filter((t) => t !== 'null');
  if (types.length === 0) {
    if (isObj(n.properties)) types = ['object'];
    else if (isObj(n.items)) types = ['array'];
    else if (Array.isArray(n.enum)) types = [...new Set(n.enum.filter((e) => e !== null).map((e) => (typeof e === 'number' ? 'number' : typeof e)))];
    else if (n.const !== undefined) types = [typeof n.const];
  }
  return {
    types,
    nullable,
    properties: isObj(n.properties) ? (n.properties as Record<string, SchemaObject>) : undefined,
    required: Array.isArray(n.required) ? (n.required as string[]) : [],
    items: isObj(n.items) ? deref(n.items, root) : undefined,
    format: typeof n.format === 'string' ? n.format : undefined,
    enum: Array.isArray(n.enum) ? n.enum : n.const !== undefined ? [n.const] : undefined,
    pattern: typeof n.pattern === 'string' ? n.pattern : undefined,
    title: typeof n.title === 'string' ? n.title : undefined,
    description: typeof n.description === 'string' ? n.description : undefined,
    raw: n,
  };
}
