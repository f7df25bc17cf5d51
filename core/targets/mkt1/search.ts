/**
 * mkt1 search page (`/s?k=<query>`; output-shapes §2.2). Result cards are split into `paid`
 * (sponsored cards: `pos` among the paid ones, `rel_pos` the card's place among all result
 * cards) and `organic`; cards of carousels and grids between the results go to `suggested`
 * with the widget's heading as `suggested_query` (to `choice_picks` when the heading names the
 * marketplace's choice); a sponsored video card is a paid item with `is_video`. Refinements are
 * the filter groups of the side panel keyed by their snake-cased heading, each link with its
 * `rh` value.
 */
import { Blocks, resultCount } from '../../parsers/blocks.js';
import type { Document, Element } from '../../parsers/dom.js';
import { all, attr, closest, hasClass, one, text } from '../../parsers/dom.js';
import { pageSlot } from '../../parsers/page-memo.js';
import type { PageInput, Parsed } from '../../parsers/types.js';
import type { Page } from './common.js';
import { hrefOf, inside, isBotWall, pageOf, statusCode } from './common.js';
import { cardsComplete, hasRecipes, isCutWidget, RESULT, SEARCH_KEEP } from './list-regions.js';
import { refinements } from './search-refinements.js';
import type { SearchItem } from './search-item.js';
import { indexCard, isSponsored, readCard } from './search-item.js';

export type { Refinement } from './search-refinements.js';

function results(doc: Document, page: Page): { organic: SearchItem[]; paid: SearchItem[] } {
  const organic: SearchItem[] = [];
  const paid: SearchItem[] = [];
  const cards = all(RESULT, doc);
  for (const [i, card] of cards.entries()) {
    if (!/^[A-Z0-9]{10}$/.test(attr(card, 'data-asin') ?? '')) continue;
    const idx = indexCard(card);
    if (isSponsored(idx)) {
      const item = readCard(card, page, paid.length + 1, idx);
      item.rel_pos = i + 1;
      item.is_video = false;
      paid.push(item);
    } else {
      organic.push(readCard(card, page, organic.length + 1, idx));
    }
  }
  for (const video of all('[data-component-type="sbv-video-single-product"]', doc)) {
    const card = one('[data-asin]', video) ?? video;
    if (!/^[A-Z0-9]{10}$/.test(attr(card, 'data-asin') ?? '')) continue;
    const item = readCard(card, page, paid.length + 1);
    item.is_sponsored = true;
    item.is_video = true;
    paid.push(item);
  }
  return { organic, paid };
}

/**
 * The card an id-carrying element belongs to: itself when it shows an image, else the nearest
 * ancestor inside the widget that shows one and holds no other product (carousels put the id
 * on an add-to-cart form deep inside the card).
 */
function cardOf(marked: Element, widget: Element, asin: string): Element | null {
  for (let el: Element | null = marked; el && el !== widget; el = el.parent && el.parent.type === 'tag' ? el.parent : null) {
    if (one('img', el)) {
      const others = all('[data-asin]', el).some((e) => /^[A-Z0-9]{10}$/.test(attr(e, 'data-asin') ?? '') && attr(e, 'data-asin') !== asin);
      return others ? null : el;
    }
  }
  return null;
}

interface WidgetCards {
  widget: Element;
  cards: { card: Element; asin: string }[];
}

const widgetCache = pageSlot<WidgetCards[]>('gleaner.mkt1.widgets');

/**
 * A sponsored-brand banner ("Sponsored ad from LG …") that, in 2021 pages, lacks the
 * `AdHolder` class: its slot is named in the class of the widget's `celwidget` wrapper, a few
 * levels down (`widgetId=loom-desktop-top-slot_hsa-id`). Only those levels are looked at: a
 * selector over the whole widget cost more than the rest of the widget reading. Skipped like
 * every sponsored widget.
 */
function isBrandAd(w: Element): boolean {
  let level: Element[] = [w];
  for (let depth = 0; depth < 3 && level.length > 0; depth++) {
    level = level.flatMap((e) => e.children.filter((c): c is Element => c.type === 'tag'));
    if (level.some((e) => /_hsa-id(?:\s|$)/.test(e.attribs.class ?? ''))) return true;
  }
  return false;
}

/**
 * The widgets between the results that `widgets` reads (not sponsored, not inside another
 * widget), each with the cards it reads, in page order. Kept per document: the check of a cut
 * page (`cutComplete`) and `widgets` walk the same cards.
 */
function widgetCards(doc: Document): WidgetCards[] {
  const cached = widgetCache.get(doc);
  if (cached) return cached;
  const out: WidgetCards[] = [];
  for (const w of all('div.s-result-item.s-widget', doc)) {
    if (hasClass(w, 'AdHolder') || isBrandAd(w) || closest(w, (e) => hasClass(e, 's-widget') && hasClass(e, 's-result-item'))) continue;
    const seen = new Set<string>();
    const cards: WidgetCards['cards'] = [];
    for (const marked of all('[data-asin]', w)) {
      const asin = attr(marked, 'data-asin') ?? '';
      if (!/^[A-Z0-9]{10}$/.test(asin) || seen.has(asin)) continue;
      const card = cardOf(marked, w, asin);
      if (!card) continue;
      seen.add(asin);
      cards.push({ card, asin });
    }
    out.push({ widget: w, cards });
  }
  widgetCache.set(doc, out);
  return out;
}

/** Cards of the widgets between results (carousels, "Trending now" grids), by widget heading. */
function widgets(doc: Document, page: Page): { suggested: SearchItem[]; choice: SearchItem[] } {
  const suggested: SearchItem[] = [];
  const choice: SearchItem[] = [];
  for (const { widget: w, cards } of widgetCards(doc)) {
    // 2021 "shopping adviser" widgets head their cards with an h3 (the cards' h2 are titles),
    // and each card with the query it stands for, quoted (`.s-product-header`: "gaming monitor";
    // editorial picks put a label there instead: Best Overall).
    // (2026 advisers head with an h2 beside a "Sponsored" label: read as before.)
    const heading = text(one('.s-shopping-adviser-heading h3', w) ?? one('h2, .a-carousel-heading, span.a-size-medium-plus, span.a-size-large', w));
    const into = /choice|elección|tipp|choix|scelta/i.test(heading) ? choice : suggested;
    for (const { card } of cards) {
      const item = readCard(card, page, into.length + 1);
      if (hasClass(w, 'AdHolder')) item.is_sponsored = true;
      item.suggested_query = /^"(.+)"$/.exec(text(one('.s-product-header .a-text-bold', card)))?.[1] ?? heading;
      into.push(item);
    }
  }
  return { suggested, choice };
}

/**
 * Whether a cut page (list-regions.ts) answers as the whole page: its result cards are
 * complete, and so is every card read in a widget the cut kept as a shell.
 */
export function cutComplete(doc: Document): boolean {
  return cardsComplete(doc) && widgetCards(doc).every(({ widget, cards }) => !isCutWidget(widget.attribs.class ?? '') || cards.every(({ card }) => hasRecipes(card)));
}


function lastVisiblePage(doc: Document, current: number): number {
  let last = current;
  for (const el of inside('.s-pagination-strip, .a-pagination, [data-component-type=s-pagination]', '.s-pagination-item, li', doc)) {
    const n = Number(text(el));
    if (Number.isInteger(n) && n > last) last = n;
  }
  return last;
}

/**
 * The "nothing found" notice. 2019+ pages print it in the top banner, split over spans
 * (`<span>没有</span><span>query</span><span>的搜索结果。</span>`, "No results for …"), not as
 * `.s-no-results`; only asked of a page without result cards.
 */
const NO_RESULTS = /^(?:no results for|no hay resultados para|keine ergebnisse für|aucun résultat pour|nessun risultato per|nenhum resultado para)|did not match any products|^没有.{0,300}的搜索结果|に一致する商品はありませんでした|検索結果はありません/i;

function saysNoResults(doc: Document): boolean {
  if (one('.s-no-results, #noResultsTitle', doc)) return true;
  return inside('[data-component-type=s-top-banner], [data-component-type=s-result-info-bar]', '.a-row', doc).some((e) => NO_RESULTS.test(text(e)));
}

function queryOf(input: PageInput, doc: Document): string {
  if (typeof input.params.query === 'string') return input.params.query;
  try {
    const k = new URL(input.url).searchParams.get('k');
    if (k) return k;
  } catch {
    // Not a URL: read the search box.
  }
  return attr(one('#twotabsearchtextbox', doc), 'value') ?? '';
}

/**
 * The search page. Its DOM is cut to the elements the blocks below read (list-regions.ts);
 * a page whose cut lacks complete result cards is loaded whole.
 */
export function parseSearch(input: PageInput): Parsed {
  if (isBotWall(input.html)) return { json: null, status: 'blocked' };
  return searchOf(input, pageOf(input, SEARCH_KEEP, cutComplete));
}

/** The search JSON of a loaded page (the cut one, or the whole one: the same answer). */
export function searchOf(input: PageInput, page: Page): Parsed {
  const { doc } = page;
  const b = new Blocks();
  const { organic, paid } = b.run('results', () => results(doc, page), { organic: [], paid: [] });
  const { suggested, choice } = b.run('widgets', () => widgets(doc, page), { suggested: [], choice: [] });
  // The first `h1, h2, .a-section` inside the count bar, looked up inside the bars: as a
  // page-wide selector it tested every `.a-section` of the page against its ancestors.
  const bar = text(inside('[data-component-type=s-result-info-bar]', 'h1, h2, .a-section', doc)[0]);
  const count = resultCount(bar.split(/ for | für | pour | para | per | voor /)[0] ?? '');
  const json = {
    url: input.url,
    query: queryOf(input, doc),
    page: input.page,
    pages: typeof input.params.pages === 'number' ? input.params.pages : 1,
    last_visible_page: b.run('pagination', () => lastVisiblePage(doc, input.page), input.page),
    total_results_count: count ?? organic.length + paid.length,
    results: { paid, organic, suggested, choice_picks: choice, instant_recommendations: [] as SearchItem[] },
    refinements: b.run('refinements', () => refinements(doc), {}),
    parse_status_code: 0,
  };
  const recognised = organic.length + paid.length > 0 || one('[data-component-type=s-search-results], .s-no-outline, .s-no-results', doc) !== null || (one('#search', doc) !== null && one('.s-main-slot', doc) !== null);
  // A results page without result cards says it found nothing; one that does not is a layout change.
  // (A page past the last one may be empty without saying so.)
  b.expect('results', organic.length + paid.length > 0 || count === 0 || input.page > 1 || saysNoResults(doc));
  const parsed = b.result(json, recognised);
  json.parse_status_code = statusCode(parsed.status);
  return parsed;
}

