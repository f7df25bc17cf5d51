/**
 * The offline extractor's vocabulary: a page becomes a pool of candidates (a key path, a value,
 * where it came from and how much that source is trusted); structured-data items are entities.
 */

export type Origin =
  | 'jsonld'
  | 'microdata'
  | 'rdfa'
  | 'meta'
  | 'link'
  | 'table'
  | 'dl'
  | 'label'
  | 'section'
  | 'class'
  | 'heading'
  | 'title'
  | 'text'
  | 'page';

export interface Candidate {
  /** Key segments: `['offers', 'price']`, `['og', 'title']`, `['Item model number']`. */
  path: string[];
  /** A string from markup, or any JSON value from structured data. */
  value: unknown;
  origin: Origin;
  /** Trust in the source, 0..1. */
  weight: number;
  /** Index of the structured-data entity the candidate belongs to. */
  entity?: number;
}

export interface Entity {
  id: number;
  /** schema.org type names without the vocabulary prefix: `Product`, `VideoObject`. */
  types: string[];
  data: Record<string, unknown>;
  origin: 'jsonld' | 'microdata' | 'rdfa';
  /** True for entities not nested in another one. */
  topLevel: boolean;
}

export const WEIGHT: Record<Origin, number> = {
  jsonld: 1,
  microdata: 0.97,
  rdfa: 0.95,
  meta: 0.85,
  link: 0.85,
  table: 0.8,
  dl: 0.8,
  label: 0.75,
  section: 0.7,
  heading: 0.7,
  class: 0.5,
  title: 0.55,
  text: 0.4,
  page: 0.3,
};

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Candidates for an object and everything below it (depth-bounded), paths relative to `prefix`. */
export function flatten(
  value: Record<string, unknown>,
  base: Omit<Candidate, 'path' | 'value'>,
  prefix: string[] = [],
  depth = 0,
  out: Candidate[] = [],
): Candidate[] {
  for (const [k, v] of Object.entries(value)) {
    if (k === '@context' || k === '@type' || v === null || v === undefined || v === '') continue;
    const path = [...prefix, k];
    out.push({ ...base, path, value: v });
    if (depth >= 3) continue;
    const inner = Array.isArray(v) ? v.find(isPlainObject) : v;
    if (isPlainObject(inner)) flatten(inner, base, path, depth + 1, out);
  }
  return out;
}
