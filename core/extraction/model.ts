/**
 * The offline extractor's vocabulary: a page becomes a pool of candidates (a key path, a value,
 * where it came from and how much that source is trusted); structured-data items are entities.
 *
 * A candidate's `weight` is the trust in its kind of source times where it was found (the
 * page's zone: content, or navigation, footers and related-item blocks); the filler multiplies
 * it by how well the key names the field (matcher.ts) into the field's confidence.
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
  /** Trust in the source, 0..1 (its kind of source times its place on the page). */
  weight: number;
  /**
   * Where the value was read, for `metadata.json_fields`: `jsonld:Product.offers.price`,
   * `meta:og:title`, `title`, `h1`, `table:Brand`, `label:Price`, `class:price`, ...
   */
  source: string;
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
  // The page's main heading names what the page is about.
  heading: 0.8,
  // An element named for its field (`id="productTitle"`, `class="price"`): a hint, not a statement.
  class: 0.6,
  title: 0.75,
  text: 0.45,
  page: 0.5,
};

/** How much a value found in a zone of the page is believed (tree.ts): around the content, less. */
export const ZONE_FACTOR = { main: 1, page: 1, chrome: 0.6 } as const;

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
    out.push({ ...base, path, value: v, source: `${base.source}.${k}` });
    if (depth >= 3) continue;
    const inner = Array.isArray(v) ? v.find(isPlainObject) : v;
    if (isPlainObject(inner)) flatten(inner, { ...base, source: `${base.source}.${k}` }, path, depth + 1, out);
  }
  return out;
}

/** The source prefix of a structured-data entity: `jsonld:Product`. */
export function entitySource(e: Entity): string {
  return `${e.origin}:${e.types[0] ?? 'Thing'}`;
}
