/**
 * Scoring offline extraction against expected values, field by field. A field the page does
 * not have is expected `ABSENT`; filling it anyway counts against precision like a wrong
 * value (a wrong value is worse than none):
 *
 *   precision = right / (right + wrong + invented)     recall = right / (right + wrong + missed)
 *
 * Expected values are compared after normalisation: text case- and space-insensitively (NFKC,
 * typographic quotes folded), numbers within 1e-6, dates on their day, lists of scalars as sets.
 */
import { extractJson } from '../../core/extraction/index.js';

/** The page does not have this field: it must stay unfilled. */
export const ABSENT = Symbol('absent');
export type Expected = unknown;

export interface SchemaCase {
  /** What the schema is for, in a word: `product`, `traps`, `article`. */
  name: string;
  schema: Record<string, unknown>;
  /** Expected values by path (`price`, `address/city`, `products/0/title`); nested objects and arrays of objects are walked. */
  expected: Record<string, Expected>;
}

export interface PageCase {
  id: string;
  /** What real pages it follows: `Shopify product page (JSON-LD, theme classes)`. */
  follows: string;
  url: string;
  html: string;
  schemas: SchemaCase[];
}

export type Outcome = 'right' | 'wrong' | 'missed' | 'invented' | 'abstained';

export interface FieldResult {
  path: string;
  outcome: Outcome;
  expected: unknown;
  got: unknown;
  source?: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function normText(s: string): string {
  return s
    .normalize('NFKC')
    .replace(/[’‘]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase()
    .replace(/\/$/, '');
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function same(expected: unknown, got: unknown): boolean {
  if (got === undefined || got === null) return false;
  if (Array.isArray(expected)) {
    if (!Array.isArray(got)) return false;
    const a = new Set(expected.map((x) => normText(String(x))));
    const b = new Set(got.map((x) => normText(String(x))));
    return a.size === b.size && [...a].every((x) => b.has(x));
  }
  if (typeof expected === 'number') return typeof got === 'number' && Math.abs(expected - got) <= 1e-6;
  if (typeof expected === 'boolean') return expected === got;
  if (typeof expected === 'string' && DAY.test(expected) && typeof got === 'string') return got.slice(0, 10) === expected;
  return typeof got === 'string' && normText(String(expected)) === normText(got);
}

function at(value: unknown, path: string): unknown {
  let node = value;
  for (const seg of path.split('/')) node = Array.isArray(node) ? node[Number(seg)] : isObject(node) ? node[seg] : undefined;
  return node;
}

/** Every filled leaf of an answer, by path (what an extractor claimed). */
function leaves(value: unknown, prefix = '', out = new Map<string, unknown>()): Map<string, unknown> {
  if (isObject(value)) for (const [k, v] of Object.entries(value)) leaves(v, prefix ? `${prefix}/${k}` : k, out);
  else if (Array.isArray(value) && value.some(isObject)) value.forEach((v, i) => leaves(v, `${prefix}/${i}`, out));
  else if (value !== null && value !== undefined && !(Array.isArray(value) && value.length === 0)) out.set(prefix, value);
  return out;
}

/** Expected values as leaves: objects and arrays of objects walked, the rest (ABSENT included) kept. */
function expectedLeaves(expected: Record<string, Expected>): Map<string, Expected> {
  const out = new Map<string, Expected>();
  const walk = (v: Expected, path: string): void => {
    if (isObject(v)) for (const [k, x] of Object.entries(v)) walk(x, `${path}/${k}`);
    else if (Array.isArray(v) && v.some(isObject)) v.forEach((x, i) => walk(x, `${path}/${i}`));
    else out.set(path, v);
  };
  for (const [k, v] of Object.entries(expected)) walk(v, k);
  return out;
}

/** Paths of expected arrays of objects, with how many items they expect. */
function expectedLists(expected: Record<string, Expected>): Map<string, number> {
  const out = new Map<string, number>();
  const walk = (v: Expected, path: string): void => {
    if (isObject(v)) for (const [k, x] of Object.entries(v)) walk(x, `${path}/${k}`);
    else if (Array.isArray(v) && v.some(isObject)) {
      out.set(path, v.length);
      v.forEach((x, i) => walk(x, `${path}/${i}`));
    }
  };
  for (const [k, v] of Object.entries(expected)) walk(v, k);
  return out;
}

export function judge(expected: Record<string, Expected>, json: unknown, fields: unknown): FieldResult[] {
  const want = expectedLeaves(expected);
  const results: FieldResult[] = [];
  for (const [path, value] of want) {
    const got = at(json, path);
    const filled = got !== undefined && got !== null && !(Array.isArray(got) && got.length === 0);
    const source = at(fields, path.split('/').filter((s) => !/^\d+$/.test(s)).join('/'));
    if (value === ABSENT) results.push({ path, outcome: filled ? 'invented' : 'abstained', expected: '—', got, source });
    else if (!filled) results.push({ path, outcome: 'missed', expected: value, got });
    else results.push({ path, outcome: same(value, got) ? 'right' : 'wrong', expected: value, got, source });
  }
  // Items beyond the expected ones: anything filled there was made up.
  for (const [path, items] of expectedLists(expected)) {
    for (const [leaf, got] of leaves(at(json, path), path)) {
      const index = Number(leaf.slice(path.length + 1).split('/')[0]);
      if (index >= items) results.push({ path: leaf, outcome: 'invented', expected: '—', got });
    }
  }
  return results;
}

export interface Totals {
  right: number;
  wrong: number;
  missed: number;
  invented: number;
  abstained: number;
}

export function totals(results: readonly FieldResult[]): Totals {
  const t: Totals = { right: 0, wrong: 0, missed: 0, invented: 0, abstained: 0 };
  for (const r of results) t[r.outcome]++;
  return t;
}

export function precision(t: Totals): number {
  const claimed = t.right + t.wrong + t.invented;
  return claimed === 0 ? 1 : t.right / claimed;
}

export function recall(t: Totals): number {
  const present = t.right + t.wrong + t.missed;
  return present === 0 ? 1 : t.right / present;
}

export interface CaseResult {
  page: string;
  schema: string;
  results: FieldResult[];
  ms: number;
}

/** Runs every schema of every page through the offline extractor. */
export async function runCorpus(pages: readonly PageCase[]): Promise<CaseResult[]> {
  const out: CaseResult[] = [];
  for (const page of pages) {
    for (const s of page.schemas) {
      const t0 = performance.now();
      const r = await extractJson({ html: page.html, url: page.url }, { schema: s.schema }, { llm: undefined });
      out.push({ page: page.id, schema: s.name, results: judge(s.expected, r.json, r.fields), ms: performance.now() - t0 });
    }
  }
  return out;
}
