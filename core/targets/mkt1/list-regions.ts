/**
 * What the mkt1 search parser reads of a search page, as the elements `loadPruned` keeps
 * (core/parsers/prune.ts; regions.ts does the same for product pages). A 1.3 MB search page is
 * almost all result cards, carousels and the filter panel, so the cut goes inside them: a card
 * of 20-40 kB keeps its title, price and reviews recipes and the few elements `indexCard`
 * looks for, not its swatches, add-to-cart forms and certification side sheets.
 *
 * The rule of regions.ts holds here: every element a query of search.ts, search-item.ts or
 * `pageOf` can RETURN is kept (an element kept whole keeps everything inside it); ancestors of
 * kept elements keep their start tags. A new query on the search page needs its element here,
 * else it sees nothing; `test/unit/mkt1-search-regions.test.ts` parses pages both ways.
 *
 * A card is cut on the assumption that it has the title, price and reviews recipes: without
 * one, `readCard` reads the whole card (`text(card)` for a price range, the card's first link).
 * `cardsComplete` checks the cut for that, and the search parser loads the whole page when any
 * card lacks one (or when the cut has no result card at all: not a search page we know). Grid
 * widgets (`sg-col`) are cut the same way, their cards found by `cardOf` and checked by the
 * parser (`cutComplete` in search.ts); the full-width ones hold brand and video cards without
 * recipes and are kept whole. A page that breaks these guesses parses as before, only slower.
 */
import type { AnyNode, Document, Element } from '../../parsers/dom.js';
import { all } from '../../parsers/dom.js';
import type { Keep } from '../../parsers/prune.js';
import type { TagAttributes } from '../../parsers/tag-cursor.js';
import { CARD_KEY_CLASS, CARD_RECIPES } from './search-item.js';

/** The result cards `results()` reads (search.ts). */
export const RESULT = 'div.s-result-item[data-component-type=s-search-result]';

/** Recipes without which `readCard` reads the whole card (a cut card then lacks what it reads). */
const NEEDED_RECIPES = ['title-recipe', 'price-recipe', 'reviews-block'] as const;

/** Component types kept whole wherever they are: sponsored video cards, the result count bar, pagination. */
const WHOLE_COMPONENTS: ReadonlySet<string> = new Set(['sbv-video-single-product', 's-result-info-bar', 's-pagination']);
const CARD_COMPONENTS: ReadonlySet<string> = new Set(['s-status-badge-component', 's-coupon-component']);
const RECIPES: ReadonlySet<string> = new Set(CARD_RECIPES);

/**
 * Class tests, as one regular expression each: `test` runs on every start tag of the page, and
 * splitting every class list was a third of the scan.
 */
const classes = (names: readonly string[]) => new RegExp(`(?:^|\\s)(?:${names.join('|')})(?=\\s|$)`);
/** Pagination containers `lastVisiblePage` reads (kept whole). */
const PAGINATION = classes(['s-pagination-strip', 'a-pagination']);
/** What `recognised` only tests for presence: kept as shells (start tags). */
const MARKS = classes(['s-no-outline', 's-no-results', 's-main-slot']);
/** Headings of a filter group (`refinements` reads the first in each group). */
const HEADING = classes(['sf-refinement-heading']);
const BOLD = classes(['a-text-bold', 'puis-bold-weight-text', 's-bold-weight-text']);
const RESULT_ITEM = classes(['s-result-item']);
/** Any of the classes looked for outside shells (result items, pagination, marks). */
const PAGE_CLASSES = classes(['s-result-item', 's-pagination-strip', 'a-pagination', 's-no-outline', 's-no-results', 's-main-slot']);
/** Grid-column widgets (carousels and grids of recipe cards): cut; the full-width ones (brand and video cards without recipes) are kept whole. */
const GRID_WIDGET = classes(['sg-col']);
/** Heading classes of a widget (`widgets` reads the first heading in each). */
const WIDGET_HEADING = classes(['a-carousel-heading', 's-shopping-adviser-heading', 's-product-header']);
const WIDGET_SPAN_HEADING = classes(['a-size-medium-plus', 'a-size-large']);
const WIDGET = classes(['s-widget']);
const AD = classes(['AdHolder']);

/** Inside a result card shell: the recipes, images, badges, coupons and index classes `readCard` reads. */
function readInCard(tag: string, a: TagAttributes, cls: string, component: string | undefined): boolean {
  if (tag === 'img') return true;
  const cy = a.get('data-cy');
  if (cy !== undefined && RECIPES.has(cy)) return true;
  if (component !== undefined && CARD_COMPONENTS.has(component)) return true;
  return CARD_KEY_CLASS.test(cls);
}

/** Inside a widget shell: its headings, images and product ids (`cardOf` finds a card by them); the cards' parts are read by `readInCard`. */
function readInWidget(tag: string, a: TagAttributes, cls: string): boolean | string {
  if (tag === 'img' || tag === 'h2' || WIDGET_HEADING.test(cls) || (tag === 'span' && WIDGET_SPAN_HEADING.test(cls))) return true;
  return a.has('data-asin') ? 'asin' : false;
}

/** Whether the cut keeps a (not sponsored) widget as a shell: the search parser checks its cards for recipes. */
export function isCutWidget(cls: string): boolean {
  return GRID_WIDGET.test(cls);
}

/** Inside the filter panel (`#s-refinements`): every `div[id]` (a group, or what bounds one), headings, `rh=` links. */
function readInRefinements(tag: string, a: TagAttributes, cls: string): boolean | string {
  if (tag === 'div' && a.has('id')) return 'refinements';
  if (tag === 'h2' || HEADING.test(cls)) return true;
  if (tag === 'span' && BOLD.test(cls)) return true;
  return tag === 'a' && (a.get('href')?.includes('rh=') ?? false);
}

/** The elements of a search page the search parser reads. */
export const SEARCH_KEEP: Keep = {
  attrs: ['id', 'class', 'data-component-type', 'data-cy', 'data-asin', 'rel', 'property', 'href', 'title'],
  test(tag, a, within) {
    const component = a.get('data-component-type');
    if (component !== undefined && WHOLE_COMPONENTS.has(component)) return true;
    const cls = a.get('class') ?? '';
    // One test for the classes looked for anywhere; most tags have none of them.
    const named = cls !== '' && PAGE_CLASSES.test(cls);
    if (named) {
      if (tag === 'div' && RESULT_ITEM.test(cls)) {
        // Widgets between the results: sponsored ones are skipped (a shell); grid widgets are cut, others read whole.
        if (WIDGET.test(cls)) return AD.test(cls) ? 'mark' : isCutWidget(cls) ? 'widget' : true;
        if (component === 's-search-result') return 'card';
      }
      if (PAGINATION.test(cls)) return true;
    }
    const id = a.get('id');
    if (id === 's-refinements') return 'refinements';
    if (id === 'twotabsearchtextbox') return true;
    if (tag === 'link' ? a.get('rel') === 'canonical' : tag === 'meta' && a.get('property') === 'og:url') return true;
    if (within.length > 0) {
      const inWidget = within.includes('widget');
      if ((inWidget || within.includes('card')) && readInCard(tag, a, cls, component)) return true;
      if (inWidget) {
        const verdict = readInWidget(tag, a, cls);
        if (verdict !== false) return verdict;
      }
      if (within.includes('refinements')) {
        const verdict = readInRefinements(tag, a, cls);
        if (verdict !== false) return verdict;
      }
    }
    if (component === 's-search-results' || id === 'search' || (named && MARKS.test(cls))) return 'mark';
    return false;
  },
};

/** Whether a card holds the recipes `indexCard` finds (`tag` elements below the card), in one walk. */
export function hasRecipes(card: Element): boolean {
  const missing = new Set<string>(NEEDED_RECIPES);
  const stack: AnyNode[] = [...card.children];
  while (stack.length > 0) {
    const node = stack.pop() as AnyNode;
    if (node.type !== 'tag') continue;
    const cy = node.attribs['data-cy'];
    if (cy !== undefined && missing.delete(cy) && missing.size === 0) return true;
    for (const c of node.children) stack.push(c);
  }
  return false;
}

/**
 * Whether the cut answers as the whole page: it has result cards, and each has the recipes
 * `readCard` reads instead of the whole card. (Cards are cut; the recipes, when present, are whole.)
 */
export function cardsComplete(doc: Document): boolean {
  const cards = all(RESULT, doc);
  return cards.length > 0 && cards.every(hasRecipes);
}
