/**
 * The mkt1 simulator's list pages, in the markup of the captured pages: the search page
 * (`/s`: `s-search-result` cards with `data-cy` recipes, sponsored cards with `AdHolder`, the
 * `s-result-info-bar` count, the `s-pagination-strip`, the `#s-refinements` panel) and the
 * bestseller grid (`/gp/bestsellers/...`, `/zgbs/...`: `#gridItemRoot` cards with the
 * `.zg-bdg-text` rank badge). Search semantics: every query word in the title or keywords;
 * `rh` parts `n:<node>`, `p_36:<min>-<max>` (cents of the marketplace currency) and
 * `p_123:<brand>`; `me=<seller>`; `s=` orders; adult items only with `safe_search=false`.
 */
import type { SimProduct } from './mkt1-data.js';
import { convert, formatMoney, PRODUCTS } from './mkt1-data.js';
import type { View } from './mkt1-shell.js';
import { esc, priceHtml, shell, starsHtml } from './mkt1-shell.js';

export const SEARCH_PAGE_SIZE = 4;
export const BESTSELLER_PAGE_SIZE = 3;

const slugOf = (p: SimProduct) => p.title.split(',')[0]!.replace(/[^A-Za-z0-9]+/g, '-');
const brandKey = (brand: string) => brand.toLowerCase().replace(/[^a-z0-9]+/g, '-');

export function searchMatches(sp: URLSearchParams, home: string): SimProduct[] {
  const words = (sp.get('k') ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  let list = PRODUCTS.filter((p) => words.every((w) => p.title.toLowerCase().includes(w) || p.keywords.includes(w)));
  if (sp.get('safe_search') !== 'false') list = list.filter((p) => !p.adult);
  for (const part of (sp.get('rh') ?? '').split(',').filter(Boolean)) {
    const [key, value = ''] = part.split(':');
    if (key === 'n') list = list.filter((p) => p.category.node === value);
    if (key === 'p_123') list = list.filter((p) => brandKey(p.brand) === value);
    if (key === 'p_36') {
      const [lo, hi] = value.split('-').map((x) => (x === '' ? undefined : Number(x)));
      const minor = (p: SimProduct) => Math.round(convert(p.price, home) * (home === 'JPY' ? 1 : 100));
      list = list.filter((p) => (lo === undefined || minor(p) >= lo) && (hi === undefined || minor(p) <= hi));
    }
  }
  const me = sp.get('me');
  if (me) list = list.filter((p) => p.sellerId === me);
  const order: Record<string, (a: SimProduct, b: SimProduct) => number> = {
    'price-asc-rank': (a, b) => a.price - b.price,
    'price-desc-rank': (a, b) => b.price - a.price,
    'review-rank': (a, b) => b.rating - a.rating,
    'date-desc-rank': (a, b) => b.asin.localeCompare(a.asin),
    'exact-aware-popularity-rank': (a, b) => b.reviews - a.reviews,
  };
  const sort = order[sp.get('s') ?? ''];
  return sort ? [...list].sort(sort) : list;
}

export function card(p: SimProduct, v: View, index: number, pos: number, q: string, paid: boolean): string {
  const organicUrl = `/${slugOf(p)}/dp/${p.asin}/ref=sr_1_${pos}?keywords=${encodeURIComponent(q)}&qid=1700000000&sr=8-${pos}`;
  const url = paid ? `/sspa/click?ie=UTF8&spc=SIM${index}&url=${encodeURIComponent(`/${slugOf(p)}/dp/${p.asin}/ref=sr_1_${pos}_sspa`)}` : organicUrl;
  const price = convert(p.price, v.currency);
  const list = p.listPrice !== undefined ? convert(p.listPrice, v.currency) : undefined;
  const link = (inner: string, cls = 'a-link-normal s-no-outline') => `<a class="${cls}" href="${esc(url)}">${inner}</a>`;
  return (
    `<div data-asin="${p.asin}" data-index="${index}" data-uuid="sim-${index}" data-component-type="s-search-result" class="sg-col-20-of-24 s-result-item s-asin sg-col-0-of-12 sg-col-16-of-20${paid ? ' AdHolder' : ''} sg-col s-widget-spacing-small" role="listitem">` +
    `<div class="sg-col-inner"><div class="puis-card-container s-card-container" data-cy="asin-faceout-container">` +
    `<div class="s-product-image-container" data-cy="image-container">${link(`<img class="s-image" src="https://images.sim.example/images/I/${p.asin}-1._AC_UY218_.jpg" alt="${esc(p.title)}">`)}</div>` +
    `<div data-cy="title-recipe" class="a-section a-spacing-none">` +
    `${paid ? '<span class="a-declarative"><a class="puis-label-popover puis-sponsored-label-text" href="javascript:void(0)"><span class="puis-label-popover-default"><span class="a-color-secondary">Sponsored</span></span></a></span>' : ''}` +
    link(`<h2 aria-label="${esc(p.title)}" class="a-size-medium a-spacing-none a-color-base a-text-normal"><span>${esc(p.title)}</span></h2>`, 'a-link-normal s-line-clamp-2 s-link-style a-text-normal') +
    `</div><div data-cy="reviews-block" class="a-section a-spacing-none a-spacing-top-micro"><div class="a-row a-size-small">` +
    `<span class="a-declarative"><a aria-label="${esc(v.words.stars(p.rating))}, rating details" href="javascript:void(0)" class="a-popover-trigger a-declarative">${starsHtml(p.rating, v)}</a></span>` +
    `<a aria-label="${esc(v.words.ratings(p.reviews))}" class="a-link-normal s-underline-text s-underline-link-text s-link-style" href="/dp/${p.asin}#customerReviews"><span class="a-size-base s-underline-text">${p.reviews.toLocaleString('en-US')}</span></a></div>` +
    `${p.boughtLastMonth ? `<div class="a-row a-size-base"><span class="a-size-base a-color-secondary">${esc(p.boughtLastMonth)}</span></div>` : ''}</div>` +
    `<div data-cy="price-recipe" class="a-section a-spacing-none a-spacing-top-small s-price-instructions-style"><div class="a-row a-size-base a-color-base">` +
    link(`${priceHtml(price, v)}${list !== undefined ? ` <div class="a-section aok-inline-block"><span class="a-size-base a-color-secondary">List: </span>${priceHtml(list, v, { size: 'b', strike: true })}</div>` : ''}`, 'a-link-normal s-no-hover s-underline-text s-underline-link-text s-link-style a-text-normal') +
    `</div></div><div data-cy="delivery-recipe" class="a-section a-spacing-none a-spacing-top-micro"><div class="a-row a-size-base a-color-secondary s-align-children-center"><span aria-label="${esc(v.words.freeDelivery)} Fri, Jun 27">${esc(v.words.freeDelivery)} <span class="a-color-base a-text-bold">Fri, Jun 27</span></span></div></div>` +
    `</div></div></div>`
  );
}

function refinementPanel(q: string, v: View): string {
  const link = (rh: string, name: string) =>
    `<li><span class="a-list-item"><a class="a-link-normal s-navigation-item" href="${esc(`${v.base}/s?k=${encodeURIComponent(q)}&rh=${encodeURIComponent(rh)}`)}"><span class="a-size-base a-color-base">${esc(name)}</span></a></span></li>`;
  const group = (id: string, heading: string, items: string) =>
    `<div id="${id}" class="a-section a-spacing-none" role="group"><div class="a-section a-spacing-small"><span class="a-size-base a-color-base puis-bold-weight-text">${heading}</span></div><ul class="a-unordered-list a-nostyle a-vertical a-spacing-medium">${items}</ul></div>`;
  const brands = [...new Set(PRODUCTS.map((p) => p.brand))];
  return (
    `<div id="s-refinements" class="a-section a-spacing-none">` +
    group('brandsRefinements', 'Brands', brands.map((b) => link(`p_123:${brandKey(b)}`, b)).join('')) +
    group('priceRefinements', 'Price', link('p_36:-1500', 'Up to 15') + link('p_36:1500-3000', '15 to 30') + link('p_36:3000-', '30 & above')) +
    `</div>`
  );
}

export function searchPage(v: View, sp: URLSearchParams): string {
  const q = sp.get('k') ?? '';
  const page = Math.max(1, Number(sp.get('page') ?? '1') || 1);
  const all = searchMatches(sp, v.home);
  const last = Math.max(1, Math.ceil(all.length / SEARCH_PAGE_SIZE));
  const slice = all.slice((page - 1) * SEARCH_PAGE_SIZE, page * SEARCH_PAGE_SIZE);
  const ad = page === 1 ? all.find((p) => p.sponsored) : undefined;
  const cards: string[] = [];
  if (ad) cards.push(card(ad, v, 1, 1, q, true));
  slice.forEach((p, i) => cards.push(card(p, v, cards.length + 1, (page - 1) * SEARCH_PAGE_SIZE + i + 1, q, false)));
  const from = all.length === 0 ? 0 : (page - 1) * SEARCH_PAGE_SIZE + 1;
  const to = (page - 1) * SEARCH_PAGE_SIZE + slice.length;
  const pages = Array.from({ length: last }, (_, i) => i + 1)
    .map((n) => (n === page ? `<span class="s-pagination-item s-pagination-selected" aria-label="Current page, page ${n}">${n}</span>` : `<a href="${esc(`${v.base}/s?k=${encodeURIComponent(q)}&page=${n}`)}" class="s-pagination-item s-pagination-button">${n}</a>`))
    .join('');
  const body =
    `<div id="search"><span data-component-type="s-result-info-bar" class="rush-component"><div class="sg-col-inner"><div class="a-section a-spacing-small a-spacing-top-small">` +
    `<h1 class="a-size-base s-desktop-toolbar a-text-normal"><span>${esc(v.words.results(from, to, all.length, q))}</span></h1></div></div></span>` +
    `<div class="s-main-slot s-result-list s-search-results sg-row" data-component-type="s-search-results">${cards.join('')}` +
    (all.length === 0 ? `<div class="s-no-results"><span>No results for ${esc(q)}.</span></div>` : '') +
    `<div class="s-result-item s-flex-full-width"><span class="s-pagination-strip">${pages}</span></div></div>` +
    `${refinementPanel(q, v)}</div>`;
  return shell(v, `Amazon.com : ${q}`, body);
}

const CATEGORY_NAMES: Readonly<Record<string, string>> = { lighting: 'Lighting', kitchen: 'Kitchen', sports: 'Sports & Outdoors' };

/** The bestseller list of a category slug (and node), or null past its last page. */
export function bestsellersPage(v: View, slug: string, node: string | undefined, pg: number): { status: number; html: string } {
  let items = PRODUCTS.filter((p) => p.category.slug === slug && !p.adult && (!node || p.category.node === node)).sort((a, b) => b.reviews - a.reviews);
  const name = node ? PRODUCTS.find((p) => p.category.node === node)?.category.name : CATEGORY_NAMES[slug];
  const pages = Math.max(1, Math.ceil(items.length / BESTSELLER_PAGE_SIZE));
  if (name && pg > pages) return { status: 404, html: shell(v, 'Page Not Found', '<div id="g">Page not found</div>') };
  if (!name) items = [];
  const slice = items.slice((pg - 1) * BESTSELLER_PAGE_SIZE, pg * BESTSELLER_PAGE_SIZE);
  const cards = slice
    .map((p, i) => {
      const rank = (pg - 1) * BESTSELLER_PAGE_SIZE + i + 1;
      const url = `/${slugOf(p)}/dp/${p.asin}/ref=zg_bs_g_${slug}_d_sccl_${rank}?psc=1`;
      return (
        `<div id="gridItemRoot" class="a-column a-span12 a-text-center _cDEzb_grid-column_2hIsc"><div id="p13n-asin-index-${rank - 1}" class="a-cardui _cDEzb_grid-cell_1uMOS expandableGrid p13n-grid-content" data-a-card-type="basic">` +
        `<div data-asin="${p.asin}" class="_cDEzb_iveVideoWrapper_JJ34T"><div class="a-section zg-bdg-ctr"><div class="a-section zg-bdg-body zg-bdg-clr-body aok-float-left"><span class="zg-bdg-text">#${rank}</span></div></div>` +
        `<div class="zg-grid-general-faceout"><span><div id="${p.asin}" class="p13n-sc-uncoverable-faceout">` +
        `<a aria-hidden="true" class="a-link-normal aok-block" tabindex="-1" href="${esc(url)}"><div class="a-section a-spacing-mini _cDEzb_noop_3Xbw5"><img alt="${esc(p.title)}" src="https://images.sim.example/images/I/${p.asin}-1._AC_UL300_SR300,200_.jpg" class="a-dynamic-image p13n-sc-dynamic-image p13n-product-image"></div></a>` +
        `<div><div><a class="a-link-normal aok-block" href="${esc(url)}" role="link"><span><div class="_cDEzb_p13n-sc-css-line-clamp-3_g3dy1">${esc(p.title)}</div></span></a>` +
        `<div class="a-row"><div class="a-icon-row"><a class="a-link-normal" title="${esc(v.words.stars(p.rating))}, ${esc(v.words.ratings(p.reviews))}" href="/product-reviews/${p.asin}/ref=zg_bs_g_${slug}_d_sccl_${rank}_cr">${starsHtml(p.rating, v)} <span aria-hidden="true" class="a-size-small">${p.reviews.toLocaleString('en-US')}</span></a></div></div>` +
        `<div class="a-row"><div class="a-row"><a class="a-link-normal a-text-normal" href="${esc(url)}" role="link"><div class="a-row"><span class="a-size-base a-color-price"><span class="_cDEzb_p13n-sc-price_3mJ9Z">${esc(formatMoney(convert(p.price, v.currency), v.currency, v.home))}</span></span></div></a></div></div>` +
        `</div></div></div></span></div></div></div></div>`
      );
    })
    .join('');
  const body =
    `<div id="zg"><div class="a-section"><h1 class="a-size-large a-spacing-medium a-text-bold">Best Sellers in ${esc(name ?? 'undefined')}</h1></div>` +
    `<div class="p13n-desktop-grid" data-acp-params="sim"><div class="p13n-gridRow _cDEzb_grid-row_3Cywl">${cards}</div></div>` +
    `<ul class="a-pagination">${Array.from({ length: pages }, (_, i) => `<li class="${i + 1 === pg ? 'a-selected' : 'a-normal'}"><a href="${v.base}/gp/bestsellers/${slug}?pg=${i + 1}">${i + 1}</a></li>`).join('')}</ul></div>`;
  return { status: 200, html: shell(v, `Amazon Best Sellers: Best ${name ?? 'undefined'}`, body) };
}
