/**
 * The generic product parser (issue 11, point 2): each source of the page gives what it knows
 * and the sources are layered field by field in this order — a JSON page (a product API
 * response) or JSON-LD, microdata, RDFa, OpenGraph/meta tags, the page's state blobs (and JSON
 * responses the flow kept beside it), the visible page, and last the document title and the
 * requested product id. Price, old price and currency come from one source together, so a
 * structured price is never paired with a visible strikethrough of another offer.
 */
import { readStructuredData, type StructuredData } from '../../extraction/structured-data.js';
import { Blocks } from '../../parsers/blocks.js';
import { all, loadHtml, type Document } from '../../parsers/dom.js';
import { scriptBodies } from '../../parsers/embedded.js';
import type { PageInput, Parsed } from '../../parsers/types.js';
import { isBlocked } from './blocked.js';
import { productInJson } from './json-product.js';
import { bodyJson, stateBlobs } from './state.js';
import { metaFacts, stripSiteName } from './meta.js';
import { structuredFacts } from './structured.js';
import type { Product, ProductFacts } from './types.js';
import { currencyHintOf, symbolOf, type MoneyHint } from './values.js';
import { visibleFacts } from './visible.js';

export function emptyProduct(url: string): Product {
  return {
    url,
    page_type: 'product',
    product_id: null,
    title: null,
    brand: null,
    image: null,
    images: [],
    description: null,
    price: null,
    old_price: null,
    currency: null,
    currency_symbol: null,
    availability: null,
    ids: [],
    additional_properties: [],
    rating: null,
    reviews_count: null,
    seller: null,
    breadcrumbs: [],
    variants: [],
  };
}

const SCALARS = ['product_id', 'title', 'brand', 'description', 'availability', 'rating', 'reviews_count', 'seller'] as const;

/** Layers facts in order: the first source that has a field gives it. */
export function mergeFacts(url: string, layers: readonly (ProductFacts | null | undefined)[]): Product {
  const out = emptyProduct(url);
  const ls = layers.filter((l): l is ProductFacts => !!l);
  for (const k of SCALARS) {
    const hit = ls.find((l) => l[k] !== undefined && l[k] !== null && l[k] !== '');
    if (hit) (out as unknown as Record<string, unknown>)[k] = hit[k];
  }
  const priced = ls.find((l) => l.price !== undefined && l.price !== null);
  if (priced) {
    out.price = priced.price ?? null;
    out.old_price = priced.old_price ?? null;
    out.currency = priced.currency ?? ls.find((l) => l.currency)?.currency ?? null;
    out.currency_symbol = (priced.currency === out.currency ? priced.currency_symbol : null) ?? ls.find((l) => l.currency === out.currency && l.currency_symbol)?.currency_symbol ?? symbolOf(out.currency);
  }
  for (const l of ls) for (const img of l.images ?? []) if (!out.images.includes(img) && out.images.length < 20) out.images.push(img);
  out.image = out.images[0] ?? null;
  const ids: Record<string, string> = {};
  for (const l of ls) for (const [k, v] of Object.entries(l.ids ?? {})) ids[k] ??= v;
  out.ids = Object.keys(ids).length > 0 ? [ids] : [];
  out.additional_properties = ls.find((l) => (l.additional_properties?.length ?? 0) > 0)?.additional_properties ?? [];
  out.breadcrumbs = ls.find((l) => (l.breadcrumbs?.length ?? 0) > 0)?.breadcrumbs ?? [];
  out.variants = ls.find((l) => (l.variants?.length ?? 0) > 0)?.variants ?? [];
  return out;
}

/** The product a state blob or a kept JSON response describes (the best-filled one). */
function fromJsons(values: readonly unknown[], url: string, hint: MoneyHint): ProductFacts | null {
  let best: ProductFacts | null = null;
  for (const v of values) {
    const f = productInJson(v, url, hint);
    if (f && (!best || (best.price === null && f.price !== null))) best = f;
  }
  return best;
}

function partsJson(input: PageInput): unknown[] {
  const out: unknown[] = [];
  for (const bodies of Object.values(input.parts ?? {})) for (const b of bodies) {
    const v = bodyJson(b);
    if (v !== undefined) out.push(v);
  }
  return out;
}

/** The requested product id (product routes), the last resort for `product_id`. */
function requested(input: PageInput): ProductFacts {
  return { product_id: typeof input.params.query === 'string' ? input.params.query : null };
}

export interface ProductPage {
  doc: Document;
  sd: StructuredData;
}

/** Loads the page once for the product and listing parsers. */
export function loadPage(input: PageInput, meta = true): ProductPage {
  const doc = loadHtml(input.html);
  const jsonLd = input.html.includes('ld+json') ? scriptBodies(input.html) : [];
  // The microdata and RDFa walks cover the whole tree: skip them on pages without the attributes.
  // `meta: false` (a listing, which reads only the entities) skips the meta candidates' walk;
  // such a page's `sd.candidates` lacks the page-level meta, link and title candidates.
  const opts = { jsonLd, microdata: all('[itemscope]', doc).length > 0, rdfa: all('[typeof]', doc).length > 0, meta };
  return { doc, sd: readStructuredData(doc, input.url, opts) };
}

/**
 * The parse result: `unrecognised` without a title and a price; `partial`, naming what is
 * missing, when a block failed or a section every product page has (its title, its price;
 * without a price, its id) was not found.
 */
export function productResult(p: Product, b: Blocks): Parsed {
  if (p.title === null && p.price === null) return { json: p, status: 'unrecognised' };
  b.expect('title', p.title !== null);
  if (!b.expect('price', p.price !== null)) b.expect('product id', p.product_id !== null);
  return b.result(p, true);
}

export function parseProductWith(input: PageInput, page: ProductPage | null): Parsed {
  const url = input.url;
  if (isBlocked(input.html)) return { json: emptyProduct(url), status: 'blocked' };
  const b = new Blocks();
  const hint = currencyHintOf(url, input.html);
  const json = bodyJson(input.html);
  if (json !== undefined) {
    const p = mergeFacts(url, [b.run('json', () => productInJson(json, url, hint), null), fromJsons(partsJson(input), url, hint), requested(input)]);
    return productResult(p, b);
  }
  const loaded = page ?? b.run('load', () => loadPage(input), null);
  if (!loaded) return { json: emptyProduct(url), status: 'unrecognised' };
  const { doc, sd } = loaded;
  const meta = b.run('meta', () => metaFacts(sd, url, hint), { facts: {}, canonical: null, siteName: null, documentTitle: null });
  // A currency the structured data names decides what a bare `$` on the page means.
  const layers: (ProductFacts | null)[] = [
    b.run('jsonld', () => structuredFacts(sd, 'jsonld', url, meta.canonical, hint), null),
    b.run('microdata', () => structuredFacts(sd, 'microdata', url, meta.canonical, hint), null),
    b.run('rdfa', () => structuredFacts(sd, 'rdfa', url, meta.canonical, hint), null),
    meta.facts,
  ];
  const named = layers.find((l) => l?.currency)?.currency;
  const pageHint: MoneyHint = named ? { currency: named, decimal: hint.decimal } : hint;
  layers.push(b.run('state', () => fromJsons([...stateBlobs(input.html), ...partsJson(input)], url, pageHint), null));
  layers.push(b.run('visible', () => visibleFacts({ doc, url, canonical: meta.canonical, hint: pageHint }), null));
  layers.push({ title: stripSiteName(meta.documentTitle, meta.siteName) }, requested(input));
  const p = mergeFacts(url, layers);
  return productResult(p, b);
}

/** `/{token}/product` and `/{token}/shop/product`. */
export function parseProduct(input: PageInput): Parsed {
  return parseProductWith(input, null);
}
