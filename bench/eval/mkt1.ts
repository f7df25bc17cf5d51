/**
 * mkt1 on the captured marketplace pages (marketplace-product, -search, -offers): every page
 * with a field-level expectation (the fixture's own, or hand-written under
 * bench/eval/expected/marketplace-*) parsed by its route's parser with the URL it was captured
 * from. The view: a product's title, price (the buy box's; the reference's 0 "no buy box" is no
 * claim), currency, id, brand, rating and review count; a list's items are the organic search
 * results, the bestseller cards, the offers (title: the seller) or a storefront's products.
 */
import { fieldRow, type FieldFamily } from './field-eval.js';
import type { View, ViewItem } from './score.js';
import { eachPage, CI_THRESHOLD, type FamilyEval, type Fixture } from './types.js';

type J = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
const num = (v: unknown) => (typeof v === 'number' && v > 0 ? v : null);
const item = (title: unknown, url: unknown, id: unknown, price: unknown): ViewItem => ({ title: str(title), url: str(url), id: str(id), price: num(price) });

export function mkt1View(route: string, j: J): View {
  switch (route) {
    case 'mkt1/search':
      return { items: ((j.results?.organic ?? []) as J[]).map((r) => item(r.title, r.url, r.product_id, r.price)) };
    case 'mkt1/bestsellers':
      return { title: str(j.title), items: ((j.results ?? []) as J[]).map((r) => item(r.title, r.url, r.product_id, r.price)) };
    case 'mkt1/pricing':
      return { title: str(j.title), id: str(j.product_id), rating: num(j.rating), reviews_count: num(j.review_count), items: ((j.pricing ?? []) as J[]).map((p) => item(p.seller, p.seller_link, p.seller_id, p.price)) };
    case 'mkt1/sellers':
      return { title: str(j.seller_name), rating: num(j.rating), items: Array.isArray(j.products) ? (j.products as J[]).map((p) => item(p.title, p.url, p.product_id, p.price)) : null };
    default:
      return { title: str(j.title), price: num(j.price), currency: str(j.currency), id: str(j.product_id), brand: str(j.brand), rating: num(j.rating), reviews_count: num(j.reviews_count), items: null };
  }
}

/** Routes by page kind, for expectations that name none (the fixture's own files). */
function routeOf(fx: Fixture): string {
  if (/_(offer-listing|aod)_/.test(fx.file)) return 'mkt1/pricing';
  if (/_(seller-profile|sp|storefront)_/.test(fx.file)) return 'mkt1/sellers';
  if (/_bestsellers_/.test(fx.file)) return 'mkt1/bestsellers';
  if (/_search_/.test(fx.file)) return 'mkt1/search';
  return 'mkt1/product';
}

/** `amazonpageparser_amazon-de_dp_0062796984_...` → https://www.amazon.de/dp/0062796984. */
function urlOf(fx: Fixture): string {
  const tld = /amazon-([a-z-]+?)_/.exec(fx.file)?.[1]?.replace('-', '.') ?? 'com';
  const id = /_dp_([A-Z0-9]{10})/.exec(fx.file)?.[1];
  return id ? `https://www.amazon.${tld}/dp/${id}` : `https://www.amazon.${tld}/`;
}

export const MKT1_FAMILY: FieldFamily = { route: routeOf, url: urlOf, view: mkt1View };

export const MKT1_EVAL: FamilyEval = {
  name: 'mkt1',
  folders: ['marketplace-product', 'marketplace-search', 'marketplace-offers'],
  threshold: CI_THRESHOLD,
  run: eachPage((fx) => (fx.file.endsWith('.html') ? fieldRow(fx, MKT1_FAMILY)?.row : null)),
};
