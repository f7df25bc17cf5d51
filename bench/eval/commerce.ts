/**
 * The generic commerce parsers (core/targets/commerce) on captured pages, field by field:
 *
 * - `retail`: the retail fixtures (retailers' product pages and listing grids: handmade goods,
 *   auctions, general merchandise, electronics), each with a field-level expectation (the
 *   fixture's own `.expected.json`, or hand-written under bench/eval/expected/retail);
 * - `commerce-generic`: the same parsers on the marketplace's pages (bench/eval/expected/generic),
 *   a check that the generic reading holds on a site it has no rules for.
 *
 * Product pages go to the product parser, listings to the search parser; both get a neutral
 * address unless the expectation names the capture URL, so ids and prices come from the page.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAnyPage } from '../../core/targets/commerce/parsers.js';
import { EXPECTED_DIR, isFieldLevel, loadExpectation, pageName, type Expectation } from './expectation.js';
import { fieldRow, readPage, type FieldFamily } from './field-eval.js';
import type { View, ViewItem } from './score.js';
import { CI_THRESHOLD, type FamilyEval, type Fixture } from './types.js';

type J = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const PAGE_URL = 'https://fixture.invalid/page';
export const PRODUCT_ROUTE = 'mkt2/product';
export const LISTING_ROUTE = 'mkt2/search';

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

export function commerceView(route: string, j: J): View {
  if (route === LISTING_ROUTE || j.page_type !== 'product') {
    return { items: ((j.results ?? []) as J[]).map((r): ViewItem => ({ title: str(r.title), url: str(r.url), id: str(r.product_id), price: num(r.price) })) };
  }
  return { title: str(j.title), price: num(j.price), currency: str(j.currency), id: str(j.product_id), brand: str(j.brand), rating: num(j.rating), reviews_count: num(j.reviews_count), items: null };
}

/** A list expectation (a count, titles, ids) is a listing; anything else a product page. */
const isListing = (e: Expectation) => e.count !== undefined || e.titles !== undefined || e.ids !== undefined || e.urls !== undefined;

function family(exp: Expectation): FieldFamily {
  return { route: () => (isListing(exp) ? LISTING_ROUTE : PRODUCT_ROUTE), url: () => PAGE_URL, view: commerceView };
}

/** What the url route (`/{token}`) reads the page as, for the row's detail. */
function urlRouteReads(fx: Fixture, url: string): string {
  const j = parseAnyPage({ html: readPage(fx.file), url, page: 1, params: {} }).json as { page_type?: string };
  return `url route reads it as ${j.page_type ?? '?'}`;
}

function rows(fixtures: readonly Fixture[], load: (fx: Fixture) => Expectation | null) {
  return fixtures.flatMap((fx) => {
    const exp = load(fx);
    if (!exp) return [];
    const r = fieldRow(fx, family(exp), exp);
    if (!r) return [];
    r.row.detail += `; ${urlRouteReads(fx, r.url)}`;
    return [r.row];
  });
}

export const RETAIL_EVAL: FamilyEval = {
  name: 'retail',
  folders: ['retail'],
  threshold: CI_THRESHOLD,
  run: (fixtures) => rows(fixtures, loadExpectation),
};

/** The marketplace pages' generic expectations: hand-written only (the marketplace's own are in mkt1's shape). */
function genericExpectation(fx: Fixture): Expectation | null {
  const path = join(EXPECTED_DIR, 'generic', `${pageName(fx.file)}.json`);
  if (!existsSync(path)) return null;
  const data = JSON.parse(readFileSync(path, 'utf8')) as unknown;
  if (!isFieldLevel(data)) throw new Error(`${path}: not in the field-level format`);
  return data;
}

export const GENERIC_EVAL: FamilyEval = {
  name: 'commerce-generic',
  folders: ['marketplace-product', 'marketplace-search'],
  threshold: CI_THRESHOLD,
  run: (fixtures) => rows(fixtures, genericExpectation),
};
