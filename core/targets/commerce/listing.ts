/**
 * The listing parser for search and category pages (issue 11, point 3). Sources in order:
 * a JSON page (an API response served as the page), structured data (`ItemList`, or several
 * top-level `Product` items), the page's state blobs, then the repeated product cards of the
 * visible page. The first source with results gives the list; later sources fill the fields it
 * lacks for the same product (an `ItemList` of names and links gets its prices from the cards).
 */
import type { Entity } from '../../extraction/model.js';
import { Blocks } from '../../parsers/blocks.js';
import { all, shortText, type Document } from '../../parsers/dom.js';
import type { PageInput, Parsed } from '../../parsers/types.js';
import { isBlocked } from './blocked.js';
import { cardFacts, findCards } from './cards.js';
import { deferredCards } from './deferred.js';
import { elements } from './marks.js';
import { productsInJson, totalInJson } from './json-product.js';
import { loadPage, type ProductPage } from './product.js';
import { bodyJson, stateBlobs } from './state.js';
import { entityFacts, PRODUCT_TYPES } from './structured.js';
import type { Listing, ListingItem, ProductFacts } from './types.js';
import { absolute, clean, currencyHintOf, idFromUrl, symbolOf, type MoneyHint } from './values.js';

export type ListingKind = Listing['page_type'];

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export function emptyListing(input: PageInput, kind: ListingKind): Listing {
  return {
    url: input.url,
    page_type: kind,
    query: typeof input.params.query === 'string' ? input.params.query : null,
    page: input.page,
    total_results_count: null,
    next_page_url: null,
    results: [],
  };
}

/** ItemList members, or the top-level Product items when a page lists several. */
function structuredItems(entities: Entity[], base: string, hint: MoneyHint): ProductFacts[] {
  for (const origin of ['jsonld', 'microdata', 'rdfa'] as const) {
    const lists = entities.filter((e) => e.origin === origin && e.types.includes('ItemList') && Array.isArray(e.data.itemListElement));
    const list = lists.sort((a, b) => (b.data.itemListElement as unknown[]).length - (a.data.itemListElement as unknown[]).length)[0];
    if (list) {
      const items = (list.data.itemListElement as unknown[]).filter(isObj).map((m) => {
        const item = isObj(m.item) ? m.item : m;
        const f = entityFacts(item, base, hint);
        return { ...f, title: f.title ?? clean(m.name), url: f.url ?? absolute(typeof m.item === 'string' ? m.item : m.url, base) };
      });
      if (items.some((i) => i.title)) return items;
    }
    const products = entities.filter((e) => e.origin === origin && e.topLevel && e.types.some((t) => PRODUCT_TYPES.has(t)));
    if (products.length >= 2) return products.map((e) => entityFacts(e.data, base, hint));
  }
  return [];
}

const key = (f: ProductFacts): string | null => f.url ?? f.product_id ?? null;

/** Fills what the primary source lacks from a secondary one, matched by URL or id. */
function enrich(primary: ProductFacts[], secondary: ProductFacts[]): void {
  if (secondary.length === 0) return;
  const byKey = new Map<string, ProductFacts>();
  for (const s of secondary) for (const k of [s.url, s.product_id]) if (k) byKey.set(k, s);
  for (const p of primary) {
    const s = (p.url && byKey.get(p.url)) || (p.product_id && byKey.get(p.product_id)) || undefined;
    if (!s) continue;
    for (const k of ['title', 'url', 'product_id', 'rating', 'reviews_count'] as const) if (p[k] == null && s[k] != null) (p as Obj)[k] = s[k];
    if (p.price == null && s.price != null) Object.assign(p, { price: s.price, old_price: s.old_price, currency: s.currency, currency_symbol: s.currency_symbol });
    if ((p.images?.length ?? 0) === 0) p.images = s.images ?? [];
  }
}

/** Index of the visible-cards source in `parseListingWith`'s sources. */
const CARDS = 2;

const distinct = (facts: ProductFacts[]): number => new Set(facts.map((f) => key(f) ?? f.title)).size;

function toItems(facts: ProductFacts[]): ListingItem[] {
  return facts
    .filter((f) => f.title)
    // A tile rendered twice in a row (a desktop and a mobile copy) is one result; the same
    // product shown again further down (a second placement) stays.
    .filter((f, i, all) => i === 0 || key(f) === null || key(f) !== key(all[i - 1] as ProductFacts))
    .map((f, i) => ({
      pos: i + 1,
      title: f.title as string,
      url: f.url ?? null,
      product_id: f.product_id ?? idFromUrl(f.url) ?? null,
      price: f.price ?? null,
      old_price: f.old_price ?? null,
      currency: f.currency ?? null,
      currency_symbol: f.currency_symbol ?? symbolOf(f.currency ?? null),
      rating: f.rating ?? null,
      reviews_count: f.reviews_count ?? null,
      image: f.images?.[0] ?? null,
    }));
}

const COUNT_LINE =
  /(?:of|von|de|sur|di|из|z)\s+(?:over\s+|about\s+|mehr als\s+|más de\s+|plus de\s+)?(\d[\d.,\s]*)\s+(?:results|items|products|Ergebnissen|Ergebnisse|resultados|résultats|risultati|resultaten|artículos|productos)|^(\d[\d.,\s]*)\s+(?:results|items|products|Ergebnisse|resultados|résultats|risultati|resultaten|artículos|productos)\b/i;

const COUNT_TAGS = new Set(['h1', 'h2', 'h3', 'span', 'div', 'p']);
const DIGIT = /\d/;
const COUNT_WORD = /\b(results|items|products|Ergebnisse|résultats|resultados|risultati|resultaten|artículos|productos)\b/i;

function totalOnPage(doc: Document): number | null {
  for (const el of elements(doc)) {
    if (!COUNT_TAGS.has(el.name) || el.children.length > 6) continue;
    // Only elements that hold a number themselves: reading every container's whole text is slow.
    // "1,234 results", or "<b>6</b> results for" with the number in a child. The text children
    // are joined only when there are several and none holds a digit (most elements have one).
    let own: string | null = null;
    let digit = false;
    for (const c of el.children) {
      if (c.type !== 'text') continue;
      if (DIGIT.test(c.data)) {
        digit = true;
        break;
      }
      own = own === null ? c.data : own + c.data;
    }
    if (!digit && !COUNT_WORD.test(own ?? '')) continue;
    const t = shortText(el, 160);
    if (t === null) continue;
    const m = COUNT_LINE.exec(t);
    if (m) return Number((m[1] ?? m[2] ?? '').replace(/\D/g, '')) || null;
  }
  return null;
}

const NEXT_TEXT = /^(next|next page|next ›|›|»|>|weiter|nächste seite|siguiente|suivant|successivo|próxima)$/i;
/** The longest text NEXT_TEXT matches ("nächste seite"): a link's longer text is not built. */
const NEXT_MAX = 13;
const NEXT_MARK = /pagination-?next|next-?page|pager-?next/i;
const NEXT_LABEL = /^next( page)?$/i;

function nextPage(doc: Document, base: string): string | null {
  const rel = all('link[rel=next], a[rel=next]', doc)[0];
  if (rel) return absolute(rel.attribs.href, base);
  // The class and the id are tested one by one (no match spans the space that would join them).
  const a = all('a[href]', doc).find((x) => NEXT_MARK.test(x.attribs.class ?? '') || NEXT_MARK.test(x.attribs.id ?? '') || NEXT_TEXT.test(shortText(x, NEXT_MAX) ?? '') || NEXT_LABEL.test(x.attribs['aria-label'] ?? ''));
  return a ? absolute(a.attribs.href, base) : null;
}

/**
 * A results page that says it found nothing ("0 results for …", "No exact matches found", "We
 * couldn't find any results for …", "没有…的搜索结果。"): read from short texts only, and only asked of a page
 * without results, so a cart's "0 items" on a page of results never counts (nor does a
 * product page's: the bare count form takes result words only, not "items" or "products").
 */
const NO_RESULTS =
  /^(?:0|no|zero|keine|aucun|nessun|geen)\s+(?:results|matches|listings|resultaten|resultados|résultats|risultati|Ergebnisse|Treffer)\b|\bno (?:exact )?(?:results|matches|products|listings) (?:found|were found|for)\b|^no exact matches\b|\bcouldn['’]?t find any (?:results|items|matches|products)|\bdid not match any (?:products|items|results)|^aucun résultat|^sin resultados|^nessun risultato|^没有.{1,120}搜索结果|一致する商品はありませんでした|^検索結果はありません/i;

export function saysNoResults(doc: Document): boolean {
  for (const el of elements(doc)) {
    if (!COUNT_TAGS.has(el.name) || el.children.length > 6) continue;
    // The count and the words may sit in spans of their own (`<h1><span>0</span><span>results for …`,
    // `<span>没有</span><span>…</span><span>的搜索结果。</span>`): any short element is read (only pages without results ask).
    const t = shortText(el, 160);
    if (t !== null && NO_RESULTS.test(t)) return true;
  }
  return false;
}

/**
 * `unrecognised` without results, unless the page says it found nothing (then `parsed`, with a
 * total of 0); `partial`, naming what is missing, when a block failed or no result shows a price.
 */
export function listingResult(l: Listing, b: Blocks, doc: Document | null = null): Parsed {
  if (l.results.length === 0) {
    if (doc && saysNoResults(doc)) return { json: { ...l, total_results_count: 0 }, status: 'parsed' };
    return { json: l, status: 'unrecognised' };
  }
  b.expect('prices', l.results.some((r) => r.price !== null));
  return b.result(l, true);
}

export function parseListingWith(input: PageInput, kind: ListingKind, page: ProductPage | null): Parsed {
  const out = emptyListing(input, kind);
  if (isBlocked(input.html)) return { json: out, status: 'blocked' };
  const b = new Blocks();
  const hint = currencyHintOf(input.url, input.html);
  const json = bodyJson(input.html);
  if (json !== undefined) {
    out.results = toItems(b.run('json', () => productsInJson(json, input.url, hint), []));
    out.total_results_count = totalInJson(json);
    return listingResult(out, b);
  }
  // The listing reads only the structured data's entities, never its meta candidates.
  const loaded = page ?? b.run('load', () => loadPage(input, false), null);
  if (!loaded) return { json: out, status: 'unrecognised' };
  const { doc, sd } = loaded;
  let blobTotal: number | null = null;
  const sources: (() => ProductFacts[])[] = [
    () => structuredItems(sd.entities, input.url, hint),
    () => {
      for (const blob of stateBlobs(input.html)) {
        const items = productsInJson(blob, input.url, hint);
        if (items.length > 0) {
          blobTotal = totalInJson(blob);
          return items;
        }
      }
      return [];
    },
    () => {
      const { cards, prices } = findCards(doc, hint);
      // Cards the page keeps as markup text for its script to render (a lazy-render textarea) follow the shown ones.
      return [...cards.map((c) => cardFacts(c, prices.get(c) ?? [], input.url, hint)), ...deferredCards(input.html, doc, cards, input.url, hint)];
    },
  ];
  let primary: ProductFacts[] = [];
  let from = -1;
  for (const [i, source] of sources.entries()) {
    const items = b.run(`source${i}`, source, []);
    if (primary.length === 0) [primary, from] = [items, i];
    else if (primary.some((p) => p.price == null || key(p) === null)) enrich(primary, items);
    if (primary.length > 0 && primary.every((p) => p.price != null)) break;
  }
  // Structured lists can be partial (a marketplace's JSON-LD names 8 of its 64 tiles): when the
  // visible grid shows more products, the grid is the list and the structured data fills it in.
  if (from >= 0 && from < CARDS) {
    const grid = b.run('cards', sources[CARDS] as () => ProductFacts[], []);
    if (distinct(grid) > distinct(primary)) {
      enrich(grid, primary);
      primary = grid;
    }
  }
  out.results = toItems(primary);
  const declared = sd.entities.map((e) => Number(e.data.numberOfItems)).find((n) => Number.isInteger(n) && n > 0) ?? blobTotal;
  // A partial structured list's count is its own, not the page's.
  out.total_results_count = b.run('total', () => (declared != null && declared >= out.results.length ? declared : totalOnPage(doc)), null);
  out.next_page_url = b.run('next', () => nextPage(doc, input.url), null);
  return listingResult(out, b, doc);
}

export function parseListing(kind: ListingKind): (input: PageInput) => Parsed {
  return (input) => parseListingWith(input, kind, null);
}
