/**
 * Products in JSON whose shape we do not know in advance: a page's state blob
 * (`__NEXT_DATA__`, `__PRELOADED_STATE__`, `window.__INITIAL_STATE__`) or a product API
 * response served as the page. A product is an object with a title and a price or an id; its
 * fields are found by key names (`name`/`title`, `price`/`current_retail`/`priceInfo.currentPrice`,
 * `sku`/`tcin`/`usItemId`, ...) a few levels down, never inside arrays (those hold other
 * products: recommendations, variants) or under keys that belong to something else (brand,
 * category, seller, reviews). Bounded walks: state blobs run to megabytes.
 */
import type { Breadcrumb, ProductFacts } from './types.js';
import { absolute, availabilityOf, clean, currencyCode, priceOf, shownPrice, symbolOf, type MoneyHint } from './values.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const TITLE = /^(title|name|product_?name|display_?name|product_?title|item_?name|short_?title)$/i;
const ID = /^(sku|sku_?id|product_?id|tcin|item_?id|us_?item_?id|asin|pid|goods_?id|offer_?id|article_?id|article_?number|item_?number|id)$/i;
const PRICE_BOX = /^(price|prices|pricing|price_?info|current_?price|sale_?price|final_?price|selling_?price|offer|offers|buy_?box|price_?range)$/i;
const PRICE = /^(price|amount|value|current|now|sale|final|current_?retail|current_?price|sale_?price|final_?price|offer_?price|selling_?price|formatted_?current_?price|formatted_?price|display_?price|price_?string|price_?value|min_?price|low_?price|price_?amount|retail)$/i;
const OLD = /^(was|was_?price|old_?price|reg_?retail|regular_?price|list_?price|original_?price|compare_?at_?price|strike_?through_?price|msrp|before_?price|price_?before|reg)$/i;
const CURRENCY = /^(currency|currency_?code|price_?currency|currency_?unit|currency_?iso)$/i;
const URL_KEY = /^(url|canonical_?url|product_?url|buy_?url|seo_?url|pdp_?url|product_?page_?url|link|href|permalink)$/i;
const IMAGE = /^(image|images|image_?url|image_?info|thumbnail|thumbnail_?url|primary_?image|main_?image|img|picture|photo|media)$/i;
const BRAND = /^(brand|brand_?name|primary_?brand|manufacturer|vendor)$/i;
const RATING = /^(average|average_?rating|avg_?rating|rating_?value|rating|stars|average_?overall_?rating|overall_?rating|score)$/i;
const REVIEWS = /^(review_?count|reviews_?count|number_?of_?reviews|total_?reviews|total_?review_?count)$/i;
const RATINGS = /^(rating_?count|ratings_?count|count|total|total_?count|number_?of_?ratings)$/i;
const STOCK = /^(available|availability|availability_?status|in_?stock|is_?in_?stock|stock_?status|is_?available|purchasable)$/i;
const NO_STOCK = /^(out_?of_?stock|is_?out_?of_?stock|sold_?out|is_?sold_?out)$/i;
const DESCRIPTION = /^(description|long_?description|short_?description|downstream_?description|product_?description|details)$/i;
const CRUMBS = /^(breadcrumbs?|bread_?crumbs|category_?path)$/i;
/** Sub-objects that describe something other than the product itself. */
const ELSEWHERE = /brand|categor|seller|merchant|store|vendor|shipping|fulfil|review|question|rating|protection|warranty|esp$|promo|sponsor|related|similar|recommend|variant|swatch|parent|child|accessor|bundle|seo|meta|tracking|analytics|breadcrumb|facet|filter/i;

/** Breadth-first: the first value under a key matching `key`, through non-array children not matching `skip`. */
function find(node: Obj, key: RegExp, accept: (v: unknown) => boolean, maxDepth: number, skip: RegExp = ELSEWHERE): unknown {
  let level: Obj[] = [node];
  for (let depth = 0; depth <= maxDepth && level.length > 0; depth++) {
    const next: Obj[] = [];
    for (const o of level) {
      for (const [k, v] of Object.entries(o)) {
        if (key.test(k) && accept(v)) return v;
        if (isObj(v) && !skip.test(k)) next.push(v);
      }
    }
    level = next;
  }
  return undefined;
}

const isText = (v: unknown): boolean => typeof v === 'string' && v.trim().length >= 2 && v.length <= 1000;
const isScalar = (v: unknown): boolean => (typeof v === 'string' && v.trim() !== '') || (typeof v === 'number' && Number.isFinite(v));
const isPriceish = (v: unknown): boolean => (typeof v === 'number' && v > 0) || (typeof v === 'string' && /\d/.test(v) && v.length < 40);

function priceFrom(node: Obj, hint: MoneyHint): { price: number | null; old: number | null; currency: string | null; symbol: string | null } {
  const direct = Object.entries(node).find(([k, v]) => PRICE.test(k) && k.toLowerCase() !== 'value' && isPriceish(v));
  const box = direct ? node : (find(node, PRICE_BOX, isObj, 1) as Obj | undefined);
  const boxCurrency = box ? find(box, CURRENCY, (v) => typeof v === 'string', 2, /^$/) : undefined;
  const currency = find(node, CURRENCY, (v) => typeof v === 'string', 1) ?? boxCurrency;
  const raw = direct ? direct[1] : box ? find(box, PRICE, isPriceish, 3, OLD) : undefined;
  const p = priceOf(raw, currency, hint);
  const oldBox = box ? find(box, OLD, (v) => isPriceish(v) || isObj(v), 2, /^$/) : undefined;
  const oldRaw = isObj(oldBox) ? find(oldBox, PRICE, isPriceish, 1, /^$/) : oldBox;
  const o = priceOf(oldRaw, currency, hint);
  const price = p?.amount ?? null;
  // A number without a currency: the box's formatted price ("$109.99") shows it.
  const shown = box && price !== null && !p?.currency ? shownPrice(String(find(box, /format|display|string|text/i, (v) => typeof v === 'string', 2, OLD) ?? ''), hint) : null;
  return {
    price,
    old: o?.amount != null && price !== null && o.amount > price ? o.amount : null,
    currency: p?.currency ?? shown?.currency ?? currencyCode(currency, hint),
    symbol: p?.symbol ?? shown?.symbol ?? null,
  };
}

function imageFrom(v: unknown, base: string, depth = 0): string | null {
  if (typeof v === 'string') return /\.(jpe?g|png|webp|gif|avif)|\/image|\/img|^https?:\/\//i.test(v) ? absolute(v, base) : null;
  if (Array.isArray(v)) return v.length > 0 && depth < 3 ? imageFrom(v[0], base, depth + 1) : null;
  if (!isObj(v) || depth > 3) return null;
  for (const k of ['url', 'src', 'href', 'large', 'main', 'primary_image', 'primaryImage', 'image_url', 'imageUrl', 'hiRes', 'contentUrl']) {
    const u = imageFrom(v[k], base, depth + 1);
    if (u) return u;
  }
  return null;
}

function crumbsFrom(v: unknown, base: string): Breadcrumb[] {
  if (!Array.isArray(v)) return [];
  return v
    .map((c) => {
      if (typeof c === 'string') return clean(c) ? { name: clean(c) as string, url: null } : null;
      if (!isObj(c)) return null;
      const name = clean(c.name ?? c.title ?? c.label ?? c.text);
      return name ? { name, url: absolute(c.url ?? c.canonical_url ?? c.canonicalUrl ?? c.href ?? c.link, base) } : null;
    })
    .filter((c): c is Breadcrumb => c !== null);
}

/** The facts of one product object. */
export function jsonFacts(node: Obj, base: string, hint: MoneyHint): ProductFacts {
  const title = clean(find(node, TITLE, isText, 3));
  const idEntry = Object.entries(node).find(([k, v]) => ID.test(k) && isScalar(v) && k.toLowerCase() !== 'id');
  const id = idEntry?.[1] ?? (isScalar(node.id) ? node.id : undefined);
  const price = priceFrom(node, hint);
  const brandRaw = find(node, BRAND, (v) => isText(v) || isObj(v), 2, /^$/);
  const brand = isObj(brandRaw) ? clean(brandRaw.name ?? brandRaw.title ?? brandRaw.label) : clean(brandRaw);
  const image = imageFrom(find(node, IMAGE, (v) => v !== null && v !== undefined, 2, /brand|seller|review|variant|swatch|related|recommend/i), base);
  const ratingBox = (find(node, /rating|review|statistic|score|stars/i, isObj, 2, /^$/) as Obj | undefined) ?? node;
  const rating = find(ratingBox, RATING, (v) => typeof v === 'number' && v > 0 && v <= 5, 3, /^$/) as number | undefined;
  const reviews = (find(ratingBox, REVIEWS, (v) => typeof v === 'number', 3, /^$/) ?? find(ratingBox, RATINGS, (v) => typeof v === 'number', 3, /^$/)) as number | undefined;
  const stock = find(node, STOCK, (v) => typeof v === 'boolean' || typeof v === 'string', 2);
  const noStock = find(node, NO_STOCK, (v) => typeof v === 'boolean', 2);
  const url = absolute(find(node, URL_KEY, (v) => typeof v === 'string' && /^(https?:)?\/|^[\w-]+\//.test(v), 2), base);
  return {
    product_id: clean(id),
    title,
    brand,
    images: image ? [image] : [],
    description: clean(find(node, DESCRIPTION, isText, 3, /brand|categor|seller|review|question|protection|warranty|esp$|promo|related|recommend|bullet/i)),
    price: price.price,
    old_price: price.old,
    currency: price.currency,
    currency_symbol: price.symbol ?? symbolOf(price.currency),
    availability: stock !== undefined ? availabilityOf(stock) : typeof noStock === 'boolean' ? !noStock : null,
    rating: rating ?? null,
    reviews_count: reviews !== undefined ? Math.round(reviews) : null,
    breadcrumbs: crumbsFrom(find(node, CRUMBS, Array.isArray, 3, /^$/), base),
    url,
  };
}

interface Scored {
  node: Obj;
  facts: ProductFacts;
  score: number;
  inList: boolean;
}

const BUDGET = 60_000;

/** Object nodes of a JSON value with their depth and whether they sit in an array of several. */
function walk(root: unknown, visit: (o: Obj, depth: number, inList: boolean) => void): void {
  let budget = BUDGET;
  const go = (v: unknown, depth: number, inList: boolean): void => {
    if (--budget < 0 || depth > 16) return;
    if (Array.isArray(v)) {
      for (const x of v) go(x, depth + 1, inList || v.length > 1);
    } else if (isObj(v)) {
      visit(v, depth, inList);
      for (const x of Object.values(v)) if (typeof x === 'object' && x !== null) go(x, depth + 1, inList);
    }
  };
  go(root, 0, false);
}

function score(f: ProductFacts): number {
  return (f.title ? 3 : 0) + (f.price !== null ? 3 : 0) + (f.product_id ? 2 : 0) + ((f.images?.length ?? 0) > 0 ? 1 : 0) + (f.brand ? 1 : 0) + (f.rating !== null ? 0.5 : 0);
}

const looksLikeProduct = (o: Obj): boolean => Object.keys(o).some((k) => ID.test(k) || TITLE.test(k));

/** The product a JSON document is about: the best-filled product object not inside a list, shallowest first. */
export function productInJson(root: unknown, base: string, hint: MoneyHint): ProductFacts | null;
/** With `where`: also whether the best product object sits in a list (then the document is a listing). */
export function productInJson(root: unknown, base: string, hint: MoneyHint, where: true): (ProductFacts & { inList: boolean }) | null;
export function productInJson(root: unknown, base: string, hint: MoneyHint, where = false): (ProductFacts & { inList?: boolean }) | null {
  let best: Scored | undefined;
  walk(root, (o, depth, inList) => {
    if (!looksLikeProduct(o)) return;
    const facts = jsonFacts(o, base, hint);
    if (!facts.title || (facts.price === null && !facts.product_id)) return;
    const s = score(facts) - depth * 0.1 - (inList ? 3 : 0);
    if (!best || s > best.score) best = { node: o, facts, score: s, inList };
  });
  if (!best) return null;
  const b = best as Scored;
  return where ? { ...b.facts, inList: b.inList } : b.facts;
}

/** Lists that are never the results: trails, filters, menus, reviews. */
const NOT_PRODUCTS = /breadcrumb|facet|filter|sort|refine|nav|menu|review|question|photo|image|media|swatch/i;

/** The largest list of product objects in a JSON document (search results, a category page). */
export function productsInJson(root: unknown, base: string, hint: MoneyHint): ProductFacts[] {
  let best: { items: ProductFacts[]; rank: number } | undefined;
  let budget = BUDGET;
  const go = (v: unknown, depth: number, key = ''): void => {
    if (--budget < 0 || depth > 16) return;
    if (Array.isArray(v)) {
      const objs = NOT_PRODUCTS.test(key) ? [] : v.filter(isObj);
      if (objs.length >= 1 && objs.length >= v.length / 2) {
        const sample = objs.slice(0, 10).map((o) => jsonFacts(o, base, hint));
        const good = sample.filter((f) => f.title && (f.price !== null || f.product_id));
        if (good.length >= Math.max(1, sample.length / 2)) {
          const items = objs.map((o, i) => sample[i] ?? jsonFacts(o, base, hint)).filter((f) => f.title);
          const rank = items.length + items.filter((f) => f.price !== null).length;
          if (!best || rank > best.rank) best = { items, rank };
        }
      }
      for (const x of v) if (typeof x === 'object' && x !== null) go(x, depth + 1);
    } else if (isObj(v)) {
      for (const [k, x] of Object.entries(v)) if (typeof x === 'object' && x !== null) go(x, depth + 1, k);
    }
  };
  go(root, 0);
  return best?.items ?? [];
}

const TOTAL = /^(total_?results|total_?count|total_?hits|total_?products|total_?items|num_?found|number_?of_?results|result_?count|total_?records|aggregated_?count|total)$/i;

/** The result count a listing's JSON states (`total_results`, `totalCount`, ...). */
export function totalInJson(root: unknown): number | null {
  let found: number | null = null;
  walk(root, (o) => {
    if (found !== null) return;
    for (const [k, v] of Object.entries(o)) if (TOTAL.test(k) && typeof v === 'number' && Number.isInteger(v) && v >= 0) found = v;
  });
  return found;
}
