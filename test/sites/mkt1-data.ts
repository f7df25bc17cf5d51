/**
 * The mkt1 simulator's catalogue: a small, hand-written, deterministic set of products,
 * sellers and offers, and how each marketplace shows money and words. Tests assert exact JSON
 * against these values. Nothing here is copied from a captured page.
 */

export interface SimSeller {
  id: string;
  name: string;
  businessName: string;
  address: string[];
  about: string;
  /** A 2021+ seller page whose storefront grid shows these products (the first one sponsored). */
  storefront?: string[];
}

export interface SimProduct {
  asin: string;
  title: string;
  brand: string;
  /** Price in US dollars; other marketplaces convert with RATES. */
  price: number;
  listPrice?: number;
  rating: number;
  reviews: number;
  /** Bestseller category slug and browse node. */
  category: { slug: string; node: string; name: string };
  bullets: string[];
  sellerId: string;
  fulfilledByMarketplace: boolean;
  /** Words the search matches besides the title. */
  keywords: string[];
  sponsored?: boolean;
  /** Hidden from search unless `safe_search=false`. */
  adult?: boolean;
  /** Shown without a buybox until a delivery postal code is set (regional stock). */
  regional?: boolean;
  boughtLastMonth?: string;
  /** Variation parent: its children by dimension values (first child is the default). */
  parentOf?: { asin: string; size: string; color: string }[];
}

export const SELLERS: readonly SimSeller[] = [
  { id: 'A1SIMSELLER01', name: 'Lumen Goods', businessName: 'Lumen Goods Ltd', address: ['1 Harbour Road', 'Leeds', 'LS1 1AA', 'GB'], about: 'Lamps and lights since 1999.' },
  { id: 'A2SIMSELLER02', name: 'Kettle Corner', businessName: 'Kettle Corner GmbH', address: ['Hauptstrasse 5', 'Berlin', '10115', 'DE'], about: 'Kitchen helpers for every home.' },
  { id: 'A3SIMSELLER03', name: 'Trail Outfitters', businessName: 'Trail Outfitters Inc', address: ['200 Summit Ave', 'Denver', '80202', 'US'], about: 'Gear for the outdoors.' },
  {
    id: 'A4SIMSELLER04', name: 'Brightside Home', businessName: 'Brightside Home LLC', address: ['9 Canal Street', 'Portland', '97209', 'US'], about: 'Home goods, shipped fast.',
    storefront: ['B0SIMKTL01', 'B0SIMLMP02', 'B0SIMLMP05', 'B0SIMLMP06'],
  },
];

const cat = (slug: string, node: string, name: string) => ({ slug, node, name });
const LAMPS = cat('lighting', '1000001', 'Desk Lamps');
const KITCHEN = cat('kitchen', '2000002', 'Kettles');
const OUTDOORS = cat('sports', '3000003', 'Compasses');

export const PRODUCTS: readonly SimProduct[] = [
  {
    asin: 'B0SIMLMP01', title: 'Lumen Desk Lamp with USB Charging Port, Warm White', brand: 'Lumen', price: 29.99, listPrice: 39.99, rating: 4.5, reviews: 1234,
    category: LAMPS, bullets: ['Three brightness levels', 'USB-C charging port', 'Foldable arm'], sellerId: 'A1SIMSELLER01', fulfilledByMarketplace: true,
    keywords: ['lamp', 'light', 'desk'], sponsored: true, boughtLastMonth: '1K+ bought in past month',
  },
  {
    asin: 'B0SIMLMP02', title: 'Lumen Floor Lamp, Dimmable, Black', brand: 'Lumen', price: 59.5, rating: 4.1, reviews: 87,
    category: LAMPS, bullets: ['Dimmable', 'Steel frame'], sellerId: 'A1SIMSELLER01', fulfilledByMarketplace: false, keywords: ['lamp', 'light', 'floor'],
  },
  {
    asin: 'B0SIMLMP03', title: 'Reading Lamp Clip-On LED, 2 Pack', brand: 'Brightly', price: 15.25, rating: 3.9, reviews: 410,
    category: LAMPS, bullets: ['Clips to any book', 'Battery powered'], sellerId: 'A3SIMSELLER03', fulfilledByMarketplace: true, keywords: ['lamp', 'light', 'reading'],
    regional: true,
  },
  {
    asin: 'B0SIMLMP04', title: 'Lava Lamp for Adults Only Party Room', brand: 'Nightowl', price: 24, rating: 3.2, reviews: 12,
    category: LAMPS, bullets: ['Party mode'], sellerId: 'A3SIMSELLER03', fulfilledByMarketplace: false, keywords: ['lamp', 'light'], adult: true,
  },
  {
    asin: 'B0SIMLMP05', title: 'Lumen Desk Lamp Mini, Battery Powered', brand: 'Lumen', price: 12.99, rating: 4.7, reviews: 3021,
    category: LAMPS, bullets: ['Runs 40 hours', 'Touch switch'], sellerId: 'A1SIMSELLER01', fulfilledByMarketplace: true, keywords: ['lamp', 'light', 'desk', 'mini'],
  },
  {
    asin: 'B0SIMLMP06', title: 'Nightowl Bedside Lamp with Timer', brand: 'Nightowl', price: 19.99, rating: 4.0, reviews: 56,
    category: LAMPS, bullets: ['Sleep timer'], sellerId: 'A3SIMSELLER03', fulfilledByMarketplace: false, keywords: ['lamp', 'light', 'bedside'],
  },
  {
    asin: 'B0SIMKTL01', title: 'Kettle Corner Electric Kettle 1.7 L, Stainless Steel', brand: 'Kettle Corner', price: 34, rating: 4.3, reviews: 5136,
    category: KITCHEN, bullets: ['Boils in 3 minutes', 'Auto shut-off', 'Cordless base'], sellerId: 'A2SIMSELLER02', fulfilledByMarketplace: true, keywords: ['kettle'],
  },
  {
    asin: 'B0SIMCMP00', title: 'Trail Compass, Brass', brand: 'Trail Outfitters', price: 9.5, rating: 4.2, reviews: 107,
    category: OUTDOORS, bullets: ['Brass housing', 'Liquid-filled capsule'], sellerId: 'A3SIMSELLER03', fulfilledByMarketplace: false, keywords: ['compass'],
    parentOf: [
      { asin: 'B0SIMCMP01', size: 'Small', color: 'Brass' },
      { asin: 'B0SIMCMP02', size: 'Large', color: 'Brass' },
      { asin: 'B0SIMCMP03', size: 'Large', color: 'Silver' },
    ],
  },
];

/** Every product id the storefront answers for: parents, their children, and the rest. */
export function productById(asin: string): { product: SimProduct; child?: { asin: string; size: string; color: string } } | undefined {
  for (const p of PRODUCTS) {
    if (p.asin === asin) return { product: p };
    const child = p.parentOf?.find((c) => c.asin === asin);
    if (child) return { product: p, child };
  }
  return undefined;
}

export function sellerById(id: string): SimSeller | undefined {
  return SELLERS.find((s) => s.id === id);
}

/** Marketplace currency and its rate against the dollar. */
export const RATES: Readonly<Record<string, number>> = { USD: 1, EUR: 0.9, GBP: 0.8, JPY: 150, CAD: 1.35, AUD: 1.5, INR: 83, SEK: 10.5, PLN: 4, TRY: 32, BRL: 5, MXN: 17, SGD: 1.35 };

export function convert(usd: number, currency: string): number {
  const v = usd * (RATES[currency] ?? 1);
  return currency === 'JPY' ? Math.round(v) : Math.round(v * 100) / 100;
}

/**
 * A price as the storefront writes it: the marketplace's own style, or `EUR 12.34` when the
 * shopper chose another currency (the `i18n-prefs` cookie).
 */
export function formatMoney(amount: number, currency: string, home: string): string {
  if (currency !== home) return `${currency} ${amount.toFixed(currency === 'JPY' ? 0 : 2)}`;
  const two = amount.toFixed(2);
  switch (currency) {
    case 'USD':
      return `$${withGroups(two, ',', '.')}`;
    case 'GBP':
      return `£${withGroups(two, ',', '.')}`;
    case 'EUR':
      return `${withGroups(two, '.', ',')} €`;
    case 'JPY':
      return `¥${withGroups(amount.toFixed(0), ',', '.')}`;
    default:
      return `${currency}${withGroups(two, ',', '.')}`;
  }
}

function withGroups(fixed: string, group: string, decimal: string): string {
  const [whole, frac] = fixed.split('.');
  const grouped = (whole as string).replace(/\B(?=(\d{3})+(?!\d))/g, group);
  return frac === undefined ? grouped : `${grouped}${decimal}${frac}`;
}

/** Words of the two interface languages the simulator speaks. */
export interface Words {
  lang: string;
  inStock: string;
  stars: (r: number) => string;
  ratings: (n: number) => string;
  deliverTo: string;
  freeDelivery: string;
  soldBy: string;
  shipsFrom: string;
  results: (from: number, to: number, total: number, q: string) => string;
}

export const WORDS: Readonly<Record<'en' | 'de', Words>> = {
  en: {
    lang: 'en-us', inStock: 'In Stock', stars: (r) => `${r.toFixed(1)} out of 5 stars`, ratings: (n) => `${n.toLocaleString('en-US')} ratings`,
    deliverTo: 'Deliver to', freeDelivery: 'FREE delivery', soldBy: 'Sold by', shipsFrom: 'Ships from',
    results: (a, b, t, q) => `${a}-${b} of ${t} results for "${q}"`,
  },
  de: {
    lang: 'de-de', inStock: 'Auf Lager', stars: (r) => `${r.toFixed(1).replace('.', ',')} von 5 Sternen`, ratings: (n) => `${n.toLocaleString('de-DE')} Sternebewertungen`,
    deliverTo: 'Liefern an', freeDelivery: 'GRATIS Lieferung', soldBy: 'Verkäufer', shipsFrom: 'Versand',
    results: (a, b, t, q) => `${a}-${b} von ${t} Ergebnissen oder Vorschlägen für "${q}"`,
  },
};

/** The city the delivery line names for a postal code set on each marketplace. */
export const CITY: Readonly<Record<string, string>> = { com: 'New York', de: 'Berlin', 'co.uk': 'London', fr: 'Paris', es: 'Madrid', it: 'Roma', 'co.jp': 'Tokyo', ca: 'Ottawa' };
