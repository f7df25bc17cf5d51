/**
 * The commerce simulator's one catalogue, served under every commerce token in that token's
 * markup style (commerce-pages.ts). Written by hand for the tests; every fact here is what the
 * parsers must return, so tests assert exact JSON.
 */

export interface SimProduct {
  id: string;
  title: string;
  brand: string;
  price: number;
  old: number | null;
  rating: number;
  reviews: number;
  gtin13: string;
  mpn: string;
  inStock: boolean;
  description: string;
  specs: [string, string][];
  /** Variant ids and their size. */
  sizes: [string, string][];
}

export const CATALOGUE: readonly SimProduct[] = [
  {
    id: 'P1001', title: 'Trail Running Shoe', brand: 'Northpeak', price: 89.99, old: 109.99, rating: 4.6, reviews: 128,
    gtin13: '0001234567895', mpn: 'NP-TRS-1', inStock: true, description: 'A light outdoor shoe for rough trails.',
    specs: [['Weight', '280 g'], ['Drop', '8 mm']], sizes: [['P1001-9', '9'], ['P1001-10', '10']],
  },
  {
    id: 'P1002', title: 'Insulated Water Bottle', brand: 'Rivo', price: 24.5, old: null, rating: 4.8, reviews: 2310,
    gtin13: '0001234567901', mpn: 'RV-750', inStock: true, description: 'Keeps drinks cold for a whole outdoor day.',
    specs: [['Capacity', '750 ml']], sizes: [],
  },
  {
    id: 'P1003', title: 'Two-Person Dome Tent', brand: 'Northpeak', price: 1299, old: null, rating: 4.2, reviews: 57,
    gtin13: '0001234567918', mpn: 'NP-DT-2', inStock: false, description: 'A quick-pitch outdoor tent for two.',
    specs: [['Weight', '2.1 kg'], ['Sleeps', '2']], sizes: [],
  },
  {
    id: 'P1004', title: 'Headlamp 400 Lumen', brand: 'Lumo', price: 34.99, old: 39.99, rating: 4.4, reviews: 1200,
    gtin13: '0001234567925', mpn: 'LM-400', inStock: true, description: 'A rechargeable outdoor headlamp.',
    specs: [['Battery', '1200 mAh']], sizes: [],
  },
  {
    id: 'P1005', title: 'Merino Hiking Socks', brand: 'Rivo', price: 18, old: null, rating: 4.7, reviews: 845,
    gtin13: '0001234567932', mpn: 'RV-SOX', inStock: true, description: 'Soft outdoor socks in merino wool.',
    specs: [['Material', 'Merino wool']], sizes: [],
  },
  {
    id: 'P1006', title: 'Camping Stove Kit', brand: 'Lumo', price: 59, old: null, rating: 4.1, reviews: 96,
    gtin13: '0001234567949', mpn: 'LM-STV', inStock: true, description: 'A compact outdoor stove with pot.',
    specs: [['Fuel', 'Gas canister']], sizes: [],
  },
];

export const PAGE_SIZE = 4;
/** The store whose prices are one less (shows that a store cookie or parameter reached the site). */
export const DISCOUNT_STORE = 'S2';

export function findProduct(id: string): SimProduct | undefined {
  return CATALOGUE.find((p) => p.id === id || p.sizes.some(([v]) => v === id));
}

/** Products whose title, brand or description holds a word of the query, in catalogue order. */
export function search(query: string): SimProduct[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return CATALOGUE.filter((p) => words.some((w) => `${p.title} ${p.brand} ${p.description}`.toLowerCase().includes(w)));
}

/** The price a store shows. */
export function priceAt(p: SimProduct, store: string | undefined): number {
  return store === DISCOUNT_STORE ? Math.round((p.price - 1) * 100) / 100 : p.price;
}
