/**
 * The field-level expectation format (bench/eval/README.md): what a captured page shows, field
 * by field, written by reading the page. Fixtures bring some as `<page>.expected.json` in this
 * format; the rest are hand-written under `bench/eval/expected/<fixture folder>/<page>.json`.
 * When both exist they are merged, the hand-written file adding what the fixture's lacks (the
 * route, the URL the page was captured from, more fields); a key both write must agree, or the
 * evaluation stops, so that the two never silently disagree.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Fixture } from './types.js';

const HERE = dirname(fileURLToPath(import.meta.url));
export const EXPECTED_DIR = resolve(HERE, 'expected');

/** A value to compare an output field with, or a matcher object (README: "Field matchers"). */
export type FieldValue = unknown;

export interface Expectation {
  /** The route whose parser reads the page (default: the family's for the fixture folder). */
  route?: string;
  /** The URL the page was captured from: the marketplace, the money context. */
  url?: string;
  /** Request parameters the page was fetched with. */
  params?: Record<string, unknown>;
  // One-item pages (a product, a watch page, an offer list's product).
  title?: string;
  /** A number, or a string in the page's own notation ("10,99", "2,199.99", "1.234,56 €"). */
  price?: number | string;
  /** ISO 4217. */
  currency?: string;
  id?: string;
  brand?: string;
  rating?: number;
  reviews_count?: number;
  // List pages: the organic items.
  /** How many organic items the page shows. */
  count?: number;
  /** The first titles, in order; an entry may be `[title, source]`. */
  titles?: (string | [string, string])[];
  urls?: string[];
  ids?: string[];
  /** Prices of the first items, in order (page notation or numbers). */
  prices?: (number | string)[];
  /** `titles`/`urls`/`ids` list every organic item: an item outside them is a false one. */
  complete?: boolean;
  /** Items on the page that are not organic results (ads, carousel cards, navigation): their ids, URLs or titles. */
  not_organic?: string[];
  /** Any other output field, by path into the route's JSON (README: "Paths"). */
  fields?: Record<string, FieldValue>;
  /** Free text: where the values were read, what the page is. */
  notes?: string;
}

const FIELD_KEYS = new Set([
  'route', 'url', 'params', 'title', 'price', 'currency', 'id', 'brand', 'rating', 'reviews_count', 'count', 'titles', 'urls', 'ids', 'prices',
  'complete', 'not_organic', 'fields', 'notes',
]);

/** Whether a fixture's expected file is in this format (not a WebSearcher, serp-parser, metascraper, ... file). */
export function isFieldLevel(data: unknown): data is Expectation {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return false;
  const keys = Object.keys(data);
  return keys.length > 0 && keys.every((k) => FIELD_KEYS.has(k));
}

export const pageName = (file: string): string => basename(file).replace(/\.(html|json)$/, '');

/** The hand-written file of a fixture, if any. */
export function handWrittenPath(fx: Fixture): string {
  return join(EXPECTED_DIR, fx.family, `${pageName(fx.file)}.json`);
}

/** The fixture's field-level expectation (its own file and the hand-written one, merged), or null. */
export function loadExpectation(fx: Fixture): Expectation | null {
  const own = fx.expected ? (JSON.parse(readFileSync(fx.expected, 'utf8')) as unknown) : null;
  const fromFixture = isFieldLevel(own) ? own : null;
  const path = handWrittenPath(fx);
  const hand = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as unknown) : null;
  if (hand !== null && !isFieldLevel(hand)) throw new Error(`${path}: not in the field-level format (unknown keys)`);
  if (!fromFixture) return hand;
  if (!hand) return fromFixture;
  for (const k of Object.keys(hand) as (keyof Expectation)[]) {
    if (k in fromFixture && JSON.stringify(fromFixture[k]) !== JSON.stringify(hand[k])) throw new Error(`${path}: "${k}" differs from the fixture's expected file`);
  }
  return { ...fromFixture, ...hand, fields: { ...fromFixture.fields, ...hand.fields } };
}
