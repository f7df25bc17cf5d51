/**
 * The JSON the commerce parsers must give for the simulator's pages (test/sites/commerce.ts),
 * written from the catalogue (test/sites/commerce-data.ts) and each token's markup style, for the
 * API tests. A style carries some facts and not others (a microdata page has no list price, a
 * state blob no identifiers or breadcrumbs); the tables below say which, as
 * test/unit/commerce-parse.test.ts does for one page of each style.
 */
import { CATALOGUE, PAGE_SIZE, priceAt, search, type SimProduct } from '../sites/commerce-data.js';
import type { Style } from '../sites/commerce-pages.js';

/** How the simulator dresses each token: product and listing styles, and its currency. */
export const LOOKS: Readonly<Record<string, { product: Style; listing: Style; currency: string }>> = {
  mkt2: { product: 'jsonld-graph', listing: 'jsonld', currency: 'USD' },
  forum1: { product: 'jsonld-graph', listing: 'jsonld', currency: 'USD' },
  grocery1: { product: 'jsonld', listing: 'jsonld', currency: 'USD' },
  pet1: { product: 'jsonld-broken', listing: 'jsonld', currency: 'USD' },
  latam1: { product: 'jsonld-group', listing: 'jsonld', currency: 'ARS' },
  mkt3: { product: 'microdata', listing: 'microdata', currency: 'GBP' },
  mxgrocery1: { product: 'microdata', listing: 'microdata', currency: 'MXN' },
  supermarket1: { product: 'microdata', listing: 'microdata', currency: 'EUR' },
  bigbox1: { product: 'next-data', listing: 'next-data', currency: 'USD' },
  homeimprovement1: { product: 'preloaded-state', listing: 'preloaded-state', currency: 'USD' },
  electronics1: { product: 'initial-state', listing: 'initial-state', currency: 'USD' },
  fashion1: { product: 'initial-state', listing: 'initial-state', currency: 'EUR' },
  mkt4: { product: 'cards', listing: 'cards', currency: 'PLN' },
  supermarket2: { product: 'cards', listing: 'cards', currency: 'USD' },
  department1: { product: 'api', listing: 'api', currency: 'USD' },
  social1: { product: 'jsonld', listing: 'api', currency: 'USD' },
};

/**
 * `currency_symbol`: the symbol the page shows, else the usual one of the ISO code
 * (Intl's, so `MX$` for a peso price read from structured data, and `ARS` where Intl has none).
 */
const SYMBOL: Readonly<Record<string, string>> = { USD: '$', GBP: '£', EUR: '€', MXN: 'MX$', ARS: 'ARS', PLN: 'zł' };

export interface Where {
  /** The simulator's origin. */
  origin: string;
  token: string;
  /** The URL the page was fetched at (`json.url`). */
  url: string;
  /** The store the request chose (`S2` lowers prices by 1). */
  store?: string;
  /** Another currency than the token's (social1's `x-shop-region: GB`). */
  currency?: string;
  /** Style of the page when it is not the token's (social1's shop API). */
  style?: Style;
}

const image = (p: SimProduct) => `https://img.shop.test/${p.id}.jpg`;
const link = (w: Where, id: string) => `${w.origin}/${w.token}/item/${id}`;
const currencyOf = (w: Where) => w.currency ?? LOOKS[w.token]!.currency;

/** A catalogue product as the generic product parser returns it from a `style` page. */
export function productJson(w: Where, id = 'P1001'): Record<string, unknown> {
  const p = CATALOGUE.find((x) => x.id === id)!;
  const style = w.style ?? LOOKS[w.token]!.product;
  const currency = currencyOf(w);
  const base = {
    url: w.url,
    page_type: 'product',
    product_id: p.id,
    title: p.title,
    brand: p.brand,
    image: image(p),
    images: [image(p)],
    description: p.description,
    price: priceAt(p, w.store),
    old_price: p.old,
    currency,
    currency_symbol: SYMBOL[currency],
    availability: p.inStock,
    ids: [{ sku: p.id, gtin13: p.gtin13, mpn: p.mpn }],
    additional_properties: p.specs.map(([name, value]) => ({ name, value })),
    rating: p.rating,
    reviews_count: p.reviews,
    seller: 'Sim Shop',
    breadcrumbs: [
      { name: 'Home', url: `${w.origin}/${w.token}/` },
      { name: 'Outdoor', url: null },
    ],
    variants: [],
  };
  // State blobs and JSON APIs carry no identifiers list, specifications, seller or trail.
  const state = { ids: [], additional_properties: [], seller: null, breadcrumbs: [] };
  switch (style) {
    case 'jsonld':
    case 'jsonld-graph':
      return base;
    case 'jsonld-broken':
      return { ...base, breadcrumbs: [] };
    case 'jsonld-group':
      return {
        ...base,
        old_price: null,
        ids: [{ gtin13: p.gtin13, mpn: p.mpn }],
        seller: null,
        variants: p.sizes.map(([vid, size]) => ({
          product_id: vid, title: `${p.title} ${size}`, url: `${link(w, p.id)}?size=${size}`, image: null,
          price: priceAt(p, w.store), currency, availability: p.inStock, options: [{ name: 'size', value: size }],
        })),
      };
    case 'microdata':
      return { ...base, description: null, old_price: null, ids: [{ sku: p.id, gtin13: p.gtin13 }], additional_properties: [], seller: null, breadcrumbs: [] };
    case 'cards':
      // The trail's links are relative to the site root (`/`, `/outdoor`).
      return { ...base, ids: [], seller: null, breadcrumbs: [{ name: 'Home', url: `${w.origin}/` }, { name: 'Outdoor', url: `${w.origin}/outdoor` }] };
    case 'next-data':
    case 'preloaded-state':
    case 'initial-state':
    case 'api':
      return { ...base, ...state };
  }
}

/**
 * Page `page` of the search for `query` as the listing parser returns it; `next` is the next
 * page's URL the page links to (the simulator links one while results remain; a JSON API links none).
 */
export function listingJson(w: Where, query: string, page: number, kind: 'search' | 'category', next: string | null): Record<string, unknown> {
  const style = w.style ?? LOOKS[w.token]!.listing;
  const currency = currencyOf(w);
  const all = search(query);
  const items = all.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE).map((p, i) => ({
    pos: i + 1,
    title: p.title,
    url: link(w, p.id),
    product_id: p.id,
    price: priceAt(p, w.store),
    // Microdata offers carry no list price.
    old_price: style === 'microdata' ? null : p.old,
    currency,
    currency_symbol: SYMBOL[currency],
    rating: p.rating,
    reviews_count: p.reviews,
    image: image(p),
  }));
  return {
    url: w.url,
    page_type: kind,
    query,
    page,
    total_results_count: all.length,
    next_page_url: style === 'api' ? null : next,
    results: items,
  };
}

/** The simulator's next-page link: the page's URL with its page parameter moved on. */
export function nextPage(url: string, key: string, value: number): string {
  const u = new URL(url);
  u.searchParams.set(key, String(value));
  return u.href;
}
