/**
 * The JSON the commerce parsers return: the reference service's generic product fields
 * (`../shared/reference/output-shapes.md` §5) and a product listing modelled on the same
 * vocabulary. `currency` is the ISO 4217 code (the reference keeps the displayed symbol there;
 * Gleaner keeps it beside, in `currency_symbol`). schemas.ts states the same as JSON Schema.
 */

export interface NameValue {
  name: string;
  value: string;
}

export interface Breadcrumb {
  name: string;
  url: string | null;
}

export interface Variant {
  product_id: string | null;
  title: string | null;
  url: string | null;
  image: string | null;
  price: number | null;
  currency: string | null;
  availability: boolean | null;
  /** What tells the variant apart: `[{name: "Color", value: "Red"}]`. */
  options: NameValue[];
}

export interface Product {
  url: string;
  page_type: 'product';
  product_id: string | null;
  title: string | null;
  brand: string | null;
  /** The main image. */
  image: string | null;
  images: string[];
  description: string | null;
  price: number | null;
  old_price: number | null;
  currency: string | null;
  currency_symbol: string | null;
  availability: boolean | null;
  /** schema.org identifier names as keys: `[{sku, gtin13, mpn}]` (one object; empty when none). */
  ids: Record<string, string>[];
  additional_properties: NameValue[];
  rating: number | null;
  reviews_count: number | null;
  seller: string | null;
  breadcrumbs: Breadcrumb[];
  variants: Variant[];
}

export interface ListingItem {
  /** 1-based position on this page. */
  pos: number;
  title: string;
  url: string | null;
  product_id: string | null;
  price: number | null;
  old_price: number | null;
  currency: string | null;
  currency_symbol: string | null;
  rating: number | null;
  reviews_count: number | null;
  image: string | null;
}

export interface Listing {
  url: string;
  page_type: 'search' | 'category' | 'listing';
  query: string | null;
  page: number;
  total_results_count: number | null;
  next_page_url: string | null;
  results: ListingItem[];
}

/** What one source (JSON-LD, microdata, meta, a state blob, the visible page) knows of a product. */
export interface ProductFacts {
  product_id?: string | null;
  title?: string | null;
  brand?: string | null;
  images?: string[];
  description?: string | null;
  price?: number | null;
  old_price?: number | null;
  currency?: string | null;
  currency_symbol?: string | null;
  availability?: boolean | null;
  ids?: Record<string, string>;
  additional_properties?: NameValue[];
  rating?: number | null;
  reviews_count?: number | null;
  seller?: string | null;
  breadcrumbs?: Breadcrumb[];
  variants?: Variant[];
  url?: string | null;
}
