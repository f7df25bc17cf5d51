/**
 * Product facts from a page's meta and OpenGraph tags (`og:title`, `og:image`,
 * `product:price:amount`, `product:brand`, ...) as core/extraction/structured-data.ts collects
 * them, plus the page's canonical URL, site name and document title for the layers after it.
 */
import type { StructuredData } from '../../extraction/structured-data.js';
import type { ProductFacts } from './types.js';
import { absolute, availabilityOf, clean, currencyCode, idFromUrl, priceOf, type MoneyHint } from './values.js';

const first = (v: unknown): unknown => (Array.isArray(v) ? v[0] : v);

/** Meta and OpenGraph tags (`og:title`, `og:image`, `product:price:amount`, `product:brand`, ...). */
export function metaFacts(sd: StructuredData, pageUrl: string, hint: MoneyHint): { facts: ProductFacts; canonical: string | null; siteName: string | null; documentTitle: string | null } {
  const meta = new Map<string, unknown>();
  let canonical: string | null = null;
  for (const c of sd.candidates) {
    const key = c.path.join(':').toLowerCase();
    if (c.origin === 'link' && key === 'canonical') canonical = typeof c.value === 'string' ? c.value : null;
    else if (c.origin === 'title' && key === 'title') meta.set('<title>', c.value);
    else if (!meta.has(key)) meta.set(key, c.value);
  }
  const get = (...keys: string[]): string | null => {
    for (const k of keys) {
      const v = clean(first(meta.get(k)));
      if (v) return v;
    }
    return null;
  };
  const siteName = get('og:site_name');
  const ogType = get('og:type');
  const currency = currencyCode(get('product:price:currency', 'og:price:currency'), hint);
  const price = priceOf(get('product:price:amount', 'og:price:amount', 'product:sale_price:amount'), currency, hint);
  const old = priceOf(get('product:original_price:amount'), currency, hint);
  const image = absolute(get('og:image', 'og:image:url', 'og:image:secure_url', 'twitter:image'), pageUrl);
  const url = absolute(get('og:url'), pageUrl);
  const productish = price !== null || ogType === 'product' || ogType === 'og:product';
  const facts: ProductFacts = {
    title: stripSiteName(get('og:title', 'twitter:title'), siteName),
    description: get('og:description', 'description', 'twitter:description'),
    images: image ? [image] : [],
    brand: get('product:brand', 'og:brand'),
    price: price?.amount ?? null,
    old_price: old?.amount !== undefined && old.amount !== null && price?.amount != null && old.amount > price.amount ? old.amount : null,
    currency: price?.currency ?? null,
    currency_symbol: price?.symbol ?? null,
    availability: availabilityOf(get('product:availability', 'og:availability')),
    product_id: get('product:retailer_item_id') ?? (productish ? idFromUrl(url ?? canonical) : null),
    url,
  };
  return { facts, canonical: canonical ?? url, siteName, documentTitle: get('<title>') };
}

/** `Womier S-K80 Keyboard - Micro Center` → `Womier S-K80 Keyboard` when the site is named. */
export function stripSiteName(title: string | null, siteName: string | null): string | null {
  if (!title || !siteName) return title;
  const esc = siteName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const stripped = title.replace(new RegExp(`\\s*(?:[-|–—:•·]|\\bat)\\s*${esc}\\s*$`, 'i'), '').replace(new RegExp(`^${esc}\\s*[-|–—:]\\s*`, 'i'), '');
  return stripped === '' ? title : stripped;
}
