/**
 * Product facts from a page's structured data, as core/extraction/structured-data.ts reads it:
 * JSON-LD (`@graph`, arrays, `Product`, `ProductGroup` + `hasVariant`, `Offer`,
 * `AggregateOffer`, `AggregateRating`, `BreadcrumbList`), microdata and RDFa items, and the
 * OpenGraph / product meta tags. One function per source, so the product parser can layer them
 * in the order.
 */
import type { StructuredData } from '../../extraction/structured-data.js';
import type { Entity } from '../../extraction/model.js';
import type { Breadcrumb, NameValue, ProductFacts, Variant } from './types.js';
import { absolute, availabilityOf, clean, idFromUrl, parseCount, parseRating, priceOf, symbolOf, type MoneyHint } from './values.js';

type Obj = Record<string, unknown>;

export const PRODUCT_TYPES = new Set(['Product', 'IndividualProduct', 'ProductModel', 'SomeProducts', 'ProductGroup', 'Vehicle', 'Car']);

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);
const first = (v: unknown): unknown => list(v)[0];

/** A Brand, Organization or plain name as its name. */
function nameOf(v: unknown): string | null {
  const x = first(v);
  if (isObj(x)) return clean(first(x.name));
  return clean(x);
}

function urlsOf(v: unknown, base: string): string[] {
  const out: string[] = [];
  for (const x of list(v)) {
    const u = isObj(x) ? absolute(first(x.contentUrl ?? x.url ?? x['@id']), base) : absolute(x, base);
    if (u && !out.includes(u)) out.push(u);
  }
  return out;
}

/** Offers as a flat list: an object, an array, or an AggregateOffer with its own `offers`. */
function offersOf(v: unknown): Obj[] {
  const out: Obj[] = [];
  for (const o of list(v)) {
    if (!isObj(o)) continue;
    out.push(o);
    if (o.offers !== undefined) out.push(...offersOf(o.offers));
  }
  return out;
}

const OLD_PRICE_TYPE = /ListPrice|StrikethroughPrice|MSRP|SRP|RegularPrice|WasPrice/i;

interface OfferFacts {
  price: number | null;
  old_price: number | null;
  currency: string | null;
  availability: boolean | null;
  seller: string | null;
}

function offerFacts(offers: Obj[], hint: MoneyHint): OfferFacts | null {
  // The first offer that states a price: sites list their own offer first.
  for (const o of offers) {
    const specs = list(o.priceSpecification).filter(isObj);
    const current = specs.find((s) => !OLD_PRICE_TYPE.test(String(s.priceType ?? ''))) ?? specs[0];
    const old = specs.find((s) => OLD_PRICE_TYPE.test(String(s.priceType ?? '')));
    const raw = first(o.price) ?? first(o.lowPrice) ?? (current ? first(current.price) : undefined);
    const currency = first(o.priceCurrency) ?? (current ? first(current.priceCurrency) : undefined);
    const p = priceOf(raw, currency, hint);
    if (!p || p.amount === null) continue;
    const oldP = old ? priceOf(first(old.price), first(old.priceCurrency) ?? currency, hint) : null;
    return {
      price: p.amount,
      old_price: oldP?.amount !== undefined && oldP.amount !== null && oldP.amount > p.amount ? oldP.amount : null,
      currency: p.currency,
      availability: availabilityOf(first(o.availability)),
      seller: nameOf(o.seller ?? o.offeredBy),
    };
  }
  return null;
}

const ID_NAMES = ['sku', 'gtin', 'gtin8', 'gtin12', 'gtin13', 'gtin14', 'mpn', 'productID', 'isbn', 'nsn'] as const;
const PROPERTY_FIELDS = ['color', 'material', 'size', 'pattern', 'model', 'weight', 'width', 'height', 'depth'] as const;

function idsOf(d: Obj): Record<string, string> {
  const ids: Record<string, string> = {};
  for (const k of ID_NAMES) {
    const v = clean(first(d[k]));
    if (v) ids[k] = v.replace(/^https?:\/\/schema\.org\/\w+:?/i, '');
  }
  return ids;
}

function propertiesOf(d: Obj): NameValue[] {
  const out: NameValue[] = [];
  for (const p of list(d.additionalProperty).filter(isObj)) {
    const name = clean(first(p.name));
    const value = clean(first(p.value));
    if (name && value) out.push({ name, value: p.unitText ? `${value} ${clean(first(p.unitText)) ?? ''}`.trim() : value });
  }
  for (const k of PROPERTY_FIELDS) {
    const v = first(d[k]);
    const value = isObj(v) ? clean([first(v.value), first(v.unitText)].filter((x) => x !== undefined).join(' ')) ?? nameOf(v) : clean(v);
    if (value) out.push({ name: k, value });
  }
  return out;
}

function ratingOf(v: unknown): { rating: number | null; reviews_count: number | null } {
  const r = first(v);
  if (!isObj(r)) return { rating: null, reviews_count: null };
  const value = first(r.ratingValue);
  const count = first(r.reviewCount) ?? first(r.ratingCount);
  return {
    rating: typeof value === 'number' ? value : parseRating(clean(value)),
    reviews_count: typeof count === 'number' ? count : parseCount(clean(count)),
  };
}

function variantsOf(d: Obj, base: string, hint: MoneyHint): Variant[] {
  const varies = list(d.variesBy).map((v) => String(v).replace(/^.*[/#]/, ''));
  return list(d.hasVariant)
    .filter(isObj)
    .map((v) => {
      const offer = offerFacts(offersOf(v.offers), hint);
      const options: NameValue[] = [];
      for (const k of varies) {
        const value = nameOf(v[k]);
        if (value) options.push({ name: k, value });
      }
      return {
        product_id: clean(first(v.sku)) ?? clean(first(v.productID)) ?? idFromUrl(absolute(first(v.url), base)),
        title: clean(first(v.name)),
        url: absolute(first(v.url) ?? first(v['@id']), base),
        image: urlsOf(v.image, base)[0] ?? null,
        price: offer?.price ?? null,
        currency: offer?.currency ?? null,
        availability: offer?.availability ?? null,
        options,
      };
    });
}

/** The variant a ProductGroup page shows: the one whose URL is the page's, else the first with a price. */
function shownVariant(variants: Variant[], pageUrl: string): Variant | undefined {
  return variants.find((v) => v.url !== null && v.url === pageUrl) ?? variants.find((v) => v.price !== null);
}

/** Facts of one Product / ProductGroup item. */
export function entityFacts(d: Obj, pageUrl: string, hint: MoneyHint): ProductFacts {
  const offer = offerFacts(offersOf(d.offers), hint);
  const variants = variantsOf(d, pageUrl, hint);
  const shown = offer ? undefined : shownVariant(variants, pageUrl);
  const ids = idsOf(d);
  const url = absolute(first(d.url), pageUrl);
  const currency = offer?.currency ?? shown?.currency ?? null;
  return {
    product_id: ids.sku ?? ids.productID ?? clean(first(d.productGroupID)) ?? shown?.product_id ?? idFromUrl(url) ?? null,
    title: clean(first(d.name)),
    brand: nameOf(d.brand) ?? nameOf(d.manufacturer),
    images: urlsOf(d.image, pageUrl),
    description: clean(first(d.description)),
    price: offer?.price ?? shown?.price ?? null,
    old_price: offer?.old_price ?? null,
    currency,
    currency_symbol: symbolOf(currency),
    availability: offer?.availability ?? shown?.availability ?? null,
    seller: offer?.seller ?? null,
    ids,
    additional_properties: propertiesOf(d),
    ...ratingOf(d.aggregateRating),
    variants,
    url,
  };
}

function breadcrumbsOf(entities: Entity[], base: string): Breadcrumb[] {
  const bl = entities.find((e) => e.types.includes('BreadcrumbList'));
  if (!bl) return [];
  const items = list(bl.data.itemListElement).filter(isObj);
  items.sort((a, b) => Number(first(a.position) ?? 0) - Number(first(b.position) ?? 0));
  return items
    .map((it) => {
      const item = first(it.item);
      const name = clean(first(it.name)) ?? (isObj(item) ? clean(first(item.name)) : null);
      const url = absolute(isObj(item) ? first(item['@id'] ?? item.url) : item, base) ?? absolute(first(it.url), base);
      return name ? { name, url } : null;
    })
    .filter((b): b is Breadcrumb => b !== null);
}

/**
 * The product the page is about, per syntax (`jsonld`, `microdata`, `rdfa`): a top-level item
 * before a nested one (a product named inside a review), the one whose URL is the page's, then
 * the one with offers, then the first.
 */
export function structuredFacts(sd: StructuredData, origin: Entity['origin'], pageUrl: string, canonical: string | null, hint: MoneyHint): ProductFacts | null {
  const products = sd.entities.filter((e) => e.origin === origin && e.types.some((t) => PRODUCT_TYPES.has(t)));
  const rank = (e: Entity): number => {
    const url = absolute(first(e.data.url) ?? first(e.data['@id']), pageUrl);
    return (e.topLevel ? 4 : 0) + (url !== null && (url === pageUrl || url === canonical) ? 2 : 0) + (e.data.offers !== undefined ? 1 : 0);
  };
  const best = products.reduce<Entity | undefined>((a, e) => (a === undefined || rank(e) > rank(a) ? e : a), undefined);
  const crumbs = breadcrumbsOf(sd.entities.filter((e) => e.origin === origin), pageUrl);
  if (!best) return crumbs.length > 0 ? { breadcrumbs: crumbs } : null;
  const facts = entityFacts(best.data, pageUrl, hint);
  if (facts.rating === null) {
    // A rating item outside the product (`itemprop="aggregateRating"` at page level).
    const loose = sd.entities.find((e) => e.origin === origin && e.types.includes('AggregateRating'));
    if (loose) Object.assign(facts, ratingOf(loose.data));
  }
  return { ...facts, breadcrumbs: crumbs };
}
