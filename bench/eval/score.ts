/**
 * Field-level scoring of one parsed page against its expectation (expectation.ts; the rules are
 * in bench/eval/README.md). Recall: expected fields right over expected fields. Precision: of
 * what the parser claimed — a non-empty one-item field, an item of its organic list — the share
 * that is right; a list item is wrong when it is not an organic result of the page (an ad, a
 * carousel card, a navigation link, an empty card, a duplicate, one more than the page shows).
 */
import { readMoney, type MoneyContext } from '../../core/parsers/money.js';
import { normaliseUrl } from '../../core/search/merge.js';
import type { Expectation } from './expectation.js';

/** Our output as the format names it: what each family's adapter makes of its route's JSON. */
export interface View {
  title?: string | null;
  price?: number | null;
  currency?: string | null;
  id?: string | null;
  brand?: string | null;
  rating?: number | null;
  reviews_count?: number | null;
  /** The organic items in order; null when the route returns no list. */
  items: ViewItem[] | null;
}

export interface ViewItem {
  title: string | null;
  url: string | null;
  id: string | null;
  price?: number | null;
}

export interface Outcome {
  name: string;
  ok: boolean;
  /** Whether the parser put a value there (counts toward precision). */
  claimed: boolean;
  expected: unknown;
  got: unknown;
}

export interface PageScore {
  outcomes: Outcome[];
  /** Items the parser returned as organic, and how many of them are. */
  itemClaims: number;
  itemsRight: number;
  /** Why items were counted against the parser. */
  itemNotes: string[];
}

type J = Record<string, unknown>;

const ELLIPSIS = /\s*(?:…|\.\.\.)$/;

export function normText(s: unknown): string {
  return String(s ?? '')
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[‘’´`]/g, "'")
    .replace(/[“”„«»]/g, '"')
    .replace(/[‐-―−]/g, '-')
    .replace(/[\s\u00a0\u200b\u200e\u200f]+/g, ' ')
    .trim();
}

/** Equal after normalisation; a title cut with an ellipsis (on either side) matches the text it starts. */
export function textMatches(expected: unknown, got: unknown): boolean {
  if (typeof got !== 'string' || got.trim() === '') return false;
  const a = normText(expected);
  const b = normText(got);
  if (a === b) return true;
  const sa = a.replace(ELLIPSIS, '');
  const sb = b.replace(ELLIPSIS, '');
  if (sa === sb) return true;
  return (ELLIPSIS.test(a) && sa.length >= 8 && sb.startsWith(sa)) || (ELLIPSIS.test(b) && sb.length >= 8 && sa.startsWith(sb));
}

export function urlMatches(expected: unknown, got: unknown): boolean {
  if (typeof expected !== 'string' || typeof got !== 'string' || got === '') return false;
  const strip = (u: string) => normaliseUrl(u).replace(/^https?:\/\//, '');
  return strip(expected) === strip(got);
}

/** An expected amount: a number, or a string in the page's notation read by the money reader. */
export function amountOf(v: unknown, ctx: MoneyContext): number | null {
  if (typeof v === 'number') return v;
  if (typeof v !== 'string') return null;
  return readMoney(v, ctx)?.amount ?? null;
}

const near = (a: number | null, b: unknown, tol: number) => a !== null && typeof b === 'number' && Math.abs(a - b) <= tol;
const present = (v: unknown) => v !== null && v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0);

// ---- paths and matchers of `fields` ----

/** `a.b.0.c`; `-1` counts from the end; `*` maps over an array. */
export function atPath(root: unknown, path: string): unknown {
  let cur: unknown[] = [root];
  let mapped = false;
  for (const key of path.split('.')) {
    const next: unknown[] = [];
    for (const v of cur) {
      if (v === null || v === undefined) {
        next.push(undefined);
        continue;
      }
      if (key === '*') {
        mapped = true;
        if (Array.isArray(v)) next.push(...v);
        continue;
      }
      if (Array.isArray(v) && /^-?\d+$/.test(key)) next.push(v.at(Number(key)));
      else next.push((v as J)[key]);
    }
    cur = next;
  }
  return mapped ? cur : cur[0];
}

const MATCHERS = ['includes', 'length', 'lines', 'contains'] as const;

function isMatcher(v: unknown): v is J {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 1 && MATCHERS.includes(Object.keys(v)[0] as (typeof MATCHERS)[number]);
}

function deepMatches(expected: unknown, got: unknown): boolean {
  if (typeof expected === 'string') return typeof got === 'string' && normText(expected) === normText(got);
  if (typeof expected === 'number') return typeof got === 'number' && Math.abs(expected - got) < 1e-6;
  if (Array.isArray(expected)) return Array.isArray(got) && got.length === expected.length && expected.every((e, i) => deepMatches(e, got[i]));
  if (expected !== null && typeof expected === 'object') {
    return got !== null && typeof got === 'object' && Object.entries(expected as J).every(([k, e]) => deepMatches(e, (got as J)[k]));
  }
  return expected === got;
}

export function fieldMatches(expected: unknown, got: unknown): boolean {
  if (!isMatcher(expected)) return deepMatches(expected, got);
  const [op, arg] = Object.entries(expected)[0] as [string, unknown];
  switch (op) {
    case 'includes':
      return typeof got === 'string' ? normText(got).includes(normText(arg)) : Array.isArray(got) && got.some((g) => deepMatches(arg, g));
    case 'length':
      return Array.isArray(got) && got.length === arg;
    case 'lines':
      return typeof got === 'string' && got.split('\n').length === arg;
    case 'contains':
      return Array.isArray(got) && got.some((g) => deepMatches(arg, g));
    default:
      return false;
  }
}

// ---- the page ----

function scalar(out: Outcome[], name: string, expected: unknown, got: unknown, ok: boolean): void {
  out.push({ name, ok, claimed: present(got), expected, got });
}

/** Whether a returned item is one the expectation names (by URL, id or title). */
function named(item: { title: string | null; url: string | null; id: string | null }, exp: Expectation): boolean {
  if (item.url && exp.urls?.some((u) => urlMatches(u, item.url))) return true;
  if (item.id && exp.ids?.includes(item.id)) return true;
  return !!item.title && !!exp.titles?.some((t) => textMatches(Array.isArray(t) ? t[0] : t, item.title));
}

export function scorePage(exp: Expectation, view: View, json: unknown, ctx: MoneyContext): PageScore {
  const out: Outcome[] = [];
  if (exp.title !== undefined) scalar(out, 'title', exp.title, view.title, textMatches(exp.title, view.title));
  if (exp.price !== undefined) {
    const want = amountOf(exp.price, ctx);
    scalar(out, 'price', want, view.price, near(want, view.price, 0.005));
  }
  if (exp.currency !== undefined) scalar(out, 'currency', exp.currency, view.currency, view.currency === exp.currency);
  if (exp.id !== undefined) scalar(out, 'id', exp.id, view.id, view.id === exp.id);
  if (exp.brand !== undefined) scalar(out, 'brand', exp.brand, view.brand, textMatches(exp.brand, view.brand));
  if (exp.rating !== undefined) scalar(out, 'rating', exp.rating, view.rating, near(exp.rating, view.rating ?? null, 0.051));
  if (exp.reviews_count !== undefined) scalar(out, 'reviews_count', exp.reviews_count, view.reviews_count, view.reviews_count === exp.reviews_count);
  for (const [path, want] of Object.entries(exp.fields ?? {})) {
    const got = atPath(json, path);
    scalar(out, path, want, got, fieldMatches(want, got));
  }

  const items = view.items ?? [];
  const list = (name: string, expected: unknown, got: unknown, ok: boolean) => out.push({ name, ok, claimed: false, expected, got });
  if (exp.count !== undefined) list('count', exp.count, items.length, items.length === exp.count);
  exp.titles?.forEach((t, i) => list(`titles[${i}]`, t, items[i]?.title, textMatches(Array.isArray(t) ? t[0] : t, items[i]?.title)));
  exp.urls?.forEach((u, i) => list(`urls[${i}]`, u, items[i]?.url, urlMatches(u, items[i]?.url)));
  exp.ids?.forEach((id, i) => list(`ids[${i}]`, id, items[i]?.id, items[i]?.id === id));
  exp.prices?.forEach((p, i) => {
    const want = amountOf(p, ctx);
    list(`prices[${i}]`, want, items[i]?.price, near(want, items[i]?.price, 0.005));
  });

  // Precision of the list: every returned item is a claim.
  let right = 0;
  const notes: string[] = [];
  if (view.items) {
    const seen = new Set<string>();
    let valid = 0;
    for (const [i, item] of items.entries()) {
      const key = item.url ? normaliseUrl(item.url) : (item.id ?? '');
      const empty = !item.title?.trim() || (!item.url && !item.id);
      // A page may show one product twice (two placements); a duplicate counts against the parser only beyond the page's count.
      const dup = key !== '' && seen.has(key) && (exp.count === undefined || items.length > exp.count);
      seen.add(key);
      const ad = !!exp.not_organic?.some((t) => t === item.id || urlMatches(t, item.url) || textMatches(t, item.title));
      const known = named(item, exp);
      let ok: boolean;
      if (empty || dup || ad) ok = false;
      else if (exp.complete) ok = known;
      else ok = known || exp.count === undefined || valid < exp.count;
      if (ok) {
        right++;
        valid++;
      } else notes.push(`item ${i + 1} "${(item.title ?? '').slice(0, 40)}": ${empty ? 'empty' : dup ? 'duplicate' : ad ? 'not organic' : 'beyond the organic results'}`);
    }
  }
  return { outcomes: out, itemClaims: items.length, itemsRight: right, itemNotes: notes };
}
