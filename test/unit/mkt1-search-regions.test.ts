/**
 * The mkt1 search parser reads a cut page (core/targets/mkt1/list-regions.ts): its JSON must
 * be the JSON of the same parser on the whole page, for simulator search pages and for
 * hand-written pages in the captured pages' markup that put look-alikes next to what is read
 * (prices and links in swatches and add-to-cart forms, labels in pop-overs, widgets inside
 * sponsored widgets, groups inside groups). A page whose cut has no result card, or a card
 * without its title, price or reviews recipe, is loaded whole (the fallback).
 */
import { describe, expect, test } from 'vitest';
import { one } from '../../core/parsers/dom.js';
import type { PageInput } from '../../core/parsers/types.js';
import { pageOf } from '../../core/targets/mkt1/common.js';
import { SEARCH_KEEP } from '../../core/targets/mkt1/list-regions.js';
import { cutComplete, parseSearch, searchOf } from '../../core/targets/mkt1/search.js';
import { WORDS } from '../sites/mkt1-data.js';
import { searchPage } from '../sites/mkt1-lists.js';
import type { View } from '../sites/mkt1-shell.js';

const VIEWS: View[] = [
  { domain: 'com', base: '/mkt1/com', currency: 'USD', home: 'USD', words: WORDS.en, city: 'New York', countryName: 'United States', token: 'tok' },
  { domain: 'de', base: '/mkt1/de', currency: 'EUR', home: 'EUR', words: WORDS.de, city: 'Berlin', countryName: 'Deutschland', token: 'tok' },
];

/** The parser's answer on the whole page. */
const whole = (input: PageInput) => searchOf(input, pageOf(input));
const input = (html: string, url = 'https://www.example.com/s?k=charger'): PageInput => ({ html, url, page: 1, params: {} });
/** The page the parser reads: the cut, unless the fallback loaded the whole page. */
const readPage = (i: PageInput) => pageOf(i, SEARCH_KEEP, cutComplete).doc;

describe('simulator search pages: the cut gives the whole page answer', () => {
  const pages: [string, string][] = [];
  for (const v of VIEWS) {
    for (const q of ['lamp', 'light', 'lamp&page=2', 'lamp&rh=p_36%3A-1500', 'nothingmatches']) pages.push([`${v.domain} k=${q}`, searchPage(v, new URLSearchParams(`k=${q}`))]);
  }
  test.each(pages)('%s', (_name, html) => {
    const i = input(html);
    expect(parseSearch(i)).toEqual(whole(i));
  });
});

const shell = (body: string) =>
  `<!DOCTYPE html><html><head><title>Amazon.com : charger</title><link rel="canonical" href="https://www.amazon.com/s?k=charger"></head><body>` +
  `<input type="text" id="twotabsearchtextbox" value="charger">${body}</body></html>`;

/** A 2024+ card: recipes, and around them the parts no field reads (swatches, add-to-cart, side sheets). */
function card(asin: string, opts: { ad?: boolean; range?: boolean; noPriceRecipe?: boolean; badge?: string; coupon?: string; grid?: 'item' | 'inner' } = {}): string {
  const price = (amount: string, strike = false) =>
    `<span class="a-price"${strike ? ' data-a-strike="true"' : ''}><span class="a-offscreen">$${amount}</span><span aria-hidden="true"><span class="a-price-whole">${amount.split('.')[0]}.</span></span></span>`;
  const prices = `<div class="a-row a-size-base a-color-base"><a class="a-link-normal s-no-hover" href="/dp/${asin}">${price('19.99')}${opts.range ? ` - ${price('24.99')}` : ''}</a><div class="a-section aok-inline-block"><span class="a-size-base a-color-secondary">List: </span>${price('29.99', true)}</div></div>`;
  return (
    // A grid widget's card: the id on the grid item, or only on the add-to-cart container inside.
    (opts.grid === 'item' ? `<div data-asin="${asin}" class="sg-col-4-of-24 s-result-item sg-col">` : opts.grid === 'inner' ? '<div class="a-section a-spacing-base desktop-grid-content-view">' : `<div data-asin="${asin}" data-component-type="s-search-result" class="sg-col-20-of-24 s-result-item s-asin${opts.ad ? ' AdHolder' : ''}">`) +
    `<div class="sg-col-inner"><span class="a-declarative"><div class="puis-card-container" data-cy="asin-faceout-container">` +
    `<div class="puis-status-badge-container">${opts.badge ? `<span data-component-type="s-status-badge-component"><span class="a-badge-label"><span class="a-badge-text">${opts.badge}</span></span></span>` : ''}</div>` +
    `<div data-cy="image-container"><a class="a-link-normal s-no-outline" href="/dp/${asin}"><img class="s-image" src="https://m.media-amazon.com/images/I/${asin}.jpg" alt="Charger ${asin}"></a></div>` +
    `<div class="puisg-col"><div data-cy="title-recipe" class="a-section">${opts.ad ? '<a class="puis-sponsored-label-text" href="javascript:void(0)"><span class="a-color-secondary">Sponsored</span></a>' : ''}` +
    `<a class="a-link-normal s-line-clamp-2" href="/Charger-${asin}/dp/${asin}/ref=sr_1_1"><h2 aria-label="Charger ${asin}" class="a-size-medium"><span>Charger ${asin} 10000mAh</span></h2></a></div>` +
    `<div data-cy="reviews-block" class="a-section"><div class="a-row a-size-small"><span class="a-declarative"><a aria-label="4.4 out of 5 stars, rating details" href="javascript:void(0)"><i class="a-icon a-icon-star-small a-star-small-4-5"><span class="a-icon-alt">4.4 out of 5 stars</span></i></a></span>` +
    `<a aria-label="12,345 ratings" class="a-link-normal s-underline-text" href="/dp/${asin}#customerReviews"><span class="a-size-base s-underline-text">12,345</span></a></div><div class="a-row a-size-base"><span class="a-size-base a-color-secondary">2K+ bought in past month</span></div></div>` +
    `<div class="puisg-row"><div class="puisg-col-inner">${opts.noPriceRecipe ? prices : `<div data-cy="price-recipe" class="a-section">${prices}</div>`}` +
    `<div data-cy="delivery-recipe" class="a-section"><div class="a-row a-color-secondary"><div data-cy="delivery-block" class="udm-delivery-block"><div class="a-row a-color-base udm-primary-delivery-message">FREE delivery <span class="a-text-bold">Sat, Aug 22</span></div></div></div></div>` +
    (opts.coupon ? `<div class="a-row"><span data-component-type="s-coupon-component"><span class="s-coupon-unclipped">${opts.coupon}</span></span></div>` : '') +
    `<div data-cy="certification-recipe"><div id="pc-side-sheet-${asin}" class="aok-hidden"><a class="a-link-normal" href="/certs">Certified</a><span class="a-price"><span class="a-offscreen">$1.00</span></span></div></div>` +
    `<div class="puis-cta-capsule"><div data-cy="add-to-cart" class="puis-atcb-container"><div class="atc-faceout-container"${opts.grid === 'inner' ? ` data-asin="${asin}"` : ''}></div><form method="post" action="/cart/add-to-cart"><input type="hidden" name="items[0.base][asin]" value="${asin}"><button aria-label="Add to cart 12 items" class="a-button-text">Add to cart</button></form></div></div>` +
    `<div data-cy="secondary-offer-recipe" class="a-section"><div class="a-row a-size-base a-color-secondary"><a href="/gp/offer-listing/${asin}">More Buying Choices <span class="a-color-base">$14.50</span> (12+ used &amp; new offers)</a></div></div>` +
    // Swatches show images: not in a grid card whose id is deep inside (its card is the nearest box with an image).
    (opts.grid === 'inner' ? '' : `<div class="s-color-swatch-container"><div class="s-color-swatch-outer-circle"><a class="a-link-normal" href="/dp/B0SWATCH01"><img src="/swatch.jpg" alt="Black"></a><span class="a-price"><span class="a-offscreen">$2.00</span></span><i class="a-icon a-icon-prime"></i></div></div>`) +
    `</div></div></div></div></span></div></div>`
  );
}

/** A carousel between the results: cards without recipes, the id on an add-to-cart form deep inside. */
const carousel = (heading: string, cls = '') =>
  `<div class="sg-col-20-of-24 s-result-item s-widget${cls}" data-component-type="s-impression-logger"><div class="sg-col-inner"><span class="a-size-medium-plus">${heading}</span><ol class="a-carousel">` +
  ['B0CAROUSL1', 'B0CAROUSL2']
    .map((asin) => `<li class="a-carousel-card"><div class="a-section a-spacing-base"><img src="/c/${asin}.jpg" alt="Carousel ${asin}"><a href="/dp/${asin}"><h2><span>Carousel ${asin}</span></h2></a><span class="a-price"><span class="a-offscreen">$9.00</span></span><div class="atc-faceout-container" data-asin="${asin}"><form><input type="submit" aria-label="Add"></form></div></div></li>`)
    .join('') +
  `</ol></div></div>`;

/** A grid widget (cut: its cards must have recipes) of recipe cards, or of `cards` given. */
const grid = (heading: string, cards = card('B0GRIDITM1', { grid: 'item' }) + card('B0GRIDITM2', { grid: 'item', badge: 'Overall Pick' }).replace('<img class="s-image" ', '<img ') + card('B0GRIDINN1', { grid: 'inner' })) =>
  `<div class="sg-col-20-of-24 s-result-item sg-col-0-of-12 s-widget sg-col s-widget-spacing-large"><div class="sg-col-inner"><div class="a-section"><span class="a-size-medium-plus a-color-base">${heading}</span></div><div class="s-grid">${cards}</div></div></div>`;

const refinements =
  `<div id="s-refinements" class="a-section a-spacing-none"><div class="a-section a-spacing-double-large">` +
  `<div id="priceRefinements" class="a-section"><div id="filter-p_36" class="sf-refinements-panel"><span class="a-size-base a-color-base puis-bold-weight-text">Price</span><ul id="filter-p_36"><li><a class="s-navigation-item" href="/s?k=charger&amp;rh=p_36%3A-2500"><div class="a-checkbox"><label><input type="checkbox"></label></div><span class="a-size-base a-color-base">Up to $25</span></a></li></ul></div></div>` +
  `<div id="brandsRefinements" class="a-section"><div class="a-section a-spacing-small"><span class="a-size-base a-color-base puis-bold-weight-text">Brands</span></div><ul class="a-unordered-list"><span class="a-declarative"><li class="a-spacing-micro"><a aria-label="Apply Voltra filter" class="s-navigation-item" href="/s?k=charger&amp;rh=p_123%3A111111"><div class="a-checkbox"><i class="a-icon a-icon-checkbox"></i></div><span class="a-size-base a-color-base">Voltra</span></a></li>` +
  `<li><a class="s-navigation-item" href="/s?k=charger&amp;rh=p_123%3A5555">Anker</a></li><li><a href="/s?k=charger&amp;qid=1">See more</a></li></span></ul>` +
  `<div id="p_n_nested/123" class="a-section"><h2>Nested group</h2><a href="/s?k=charger&amp;rh=p_n_nested%3A1">One</a></div></div>` +
  `<div id="p_6/331556011" class="a-section"><div class="sf-refinement-heading"><span class="a-text-bold">Seller</span></div><ul><li><a href="/s?k=charger&amp;rh=p_6%3AATVPDKIKX0DER"><span class="a-size-base a-color-base">Amazon.com</span></a></li></ul></div>` +
  `</div></div>`;

const infoBar =
  `<span data-component-type="s-result-info-bar" class="rush-component"><div class="sg-col-inner"><div class="a-section a-spacing-small"><h2 class="a-size-base"><span>1-48 of over 10,000 results for</span> <span class="a-color-state">"charger"</span></h2></div></div></span>`;
const pagination =
  `<div class="s-result-item s-flex-full-width"><span class="s-pagination-strip"><ul class="s-pagination-container"><li><span class="s-pagination-item s-pagination-selected">1</span></li><li><a class="s-pagination-item" href="/s?page=2">2</a></li><li><span class="s-pagination-item s-pagination-disabled">…</span></li><li><a class="s-pagination-item" href="/s?page=20">20</a></li></ul></span></div>`;
const video =
  `<div class="s-result-item s-widget AdHolder s-flex-full-width"><div class="sg-col-inner">${carousel('Inside an ad')}<div data-component-type="sbv-video-single-product"><div data-asin="B0VIDEO001"><img src="/v.jpg" alt="Video charger"><a href="/dp/B0VIDEO001"><h2><span>Video charger</span></h2></a><span class="a-price"><span class="a-offscreen">$35.99</span></span></div></div></div></div>`;

const page = (cards: string, opts: { widgets?: string } = {}) =>
  shell(
    `<div id="search"><div class="s-desktop-width-max">${infoBar}<div class="s-main-slot s-result-list s-search-results sg-row" data-component-type="s-search-results">${cards}${opts.widgets ?? ''}${pagination}</div>${refinements}</div></div>`,
  );

const HAND: Record<string, string> = {
  'cards, sponsored cards, badges and coupons, look-alikes in swatches, forms and side sheets': page(
    card('B0CARD0001', { ad: true }) + card('B0CARD0002', { badge: 'Best Seller', coupon: 'Save 15% with coupon' }) + card('B0CARD0003', { range: true, badge: "Amazon's Choice" }) + card('B0CARD0004', { coupon: 'Save $5.00 with coupon' }),
  ),
  'widgets between the results: a carousel, a choice grid, a sponsored widget with a widget and a video inside': page(card('B0CARD0001') + card('B0CARD0002', { ad: true }), {
    widgets: carousel('Trending now') + grid('More results') + carousel("Amazon's Choice for charger") + grid("Amazon's Choice: Overall Pick") + video,
  }),
  'a card without data-asin, a card nested in a card, an image without its class': page(
    card('B0CARD0001').replace('data-asin="B0CARD0001"', 'data-asin=""') +
      card('B0CARD0002').replace('<div class="puisg-col">', `<div class="puisg-col">${card('B0CARD0003')}`) +
      card('B0CARD0004').replace('<img class="s-image" ', '<img '),
  ),
};

describe('hand-written search pages: the cut gives the whole page answer', () => {
  test.each(Object.entries(HAND))('%s', (_name, html) => {
    const i = input(html);
    const cut = parseSearch(i);
    expect(cut.status).toBe('parsed');
    expect(cut).toEqual(whole(i));
    // They are cut: what no field reads (the certification side sheet) is not in the DOM.
    expect(one('[data-cy=certification-recipe]', readPage(i))).toBeNull();
  });
});

describe('fallback to the whole page', () => {
  test('a card without its price recipe: the whole page is loaded, and parsed as before', () => {
    const i = input(page(card('B0CARD0001') + card('B0CARD0002', { noPriceRecipe: true, range: true })));
    expect(one('form', readPage(i))).not.toBeNull();
    expect(parseSearch(i)).toEqual(whole(i));
  });

  test('a grid widget with a card without recipes: the whole page is loaded, and parsed as before', () => {
    const i = input(page(card('B0CARD0001'), { widgets: grid('Related', card('B0GRIDITM1', { grid: 'item' }) + carousel('Inner').replace(/s-widget/, 'x-widget')) }));
    expect(one('form', readPage(i))).not.toBeNull();
    expect(parseSearch(i)).toEqual(whole(i));
  });

  test('a cut without a result card: the whole page is loaded, and parsed as before', () => {
    for (const html of [page('<form action="/no-results"></form>'), shell('<div id="productTitle">A product page</div><form action="/cart"></form>')]) {
      const i = input(html);
      expect(one('form', readPage(i))).not.toBeNull();
      expect(parseSearch(i)).toEqual(whole(i));
    }
  });

  test('markup the scan leaves to the full parse (CDATA), and pages that end inside a tag, parse as before', () => {
    const base = HAND['cards, sponsored cards, badges and coupons, look-alikes in swatches, forms and side sheets'] as string;
    for (const html of [base + '<math><![CDATA[x]]></math>', base + '<div title="unclosed']) expect(parseSearch(input(html))).toEqual(whole(input(html)));
  });
});

/**
 * A 2021-2022 card (no `data-cy` recipes), in the markup of the captured amazon.co.jp and
 * amazon.com pages of those years: unrated cards carry digit labels that are no review count
 * (the delivery window, the JP release note) and underlined links whose text has digits (the
 * title "…その4…", "(6 used & new offers)").
 */
function card2021(asin: string, title: string, opts: { rated?: boolean; label?: string } = {}): string {
  const href = `/${asin}/dp/${asin}/ref=sr_1_1`;
  return (
    `<div data-asin="${asin}" data-index="3" data-component-type="s-search-result" class="s-result-item s-asin sg-col-4-of-12 sg-col"><div class="sg-col-inner">` +
    `<div class="s-card-container s-include-content-margin s-latency-cf-section"><div class="a-section a-spacing-base">` +
    `<span data-component-type="s-product-image" class="rush-component"><a class="a-link-normal s-no-outline" href="${href}"><img class="s-image" src="https://m.media-amazon.com/images/I/${asin}.jpg" alt=""></a></span>` +
    `<h2 class="a-size-mini a-spacing-none a-color-base s-line-clamp-4"><a class="a-link-normal s-underline-text s-underline-link-text a-text-normal" href="${href}"><span class="a-size-base-plus a-color-base a-text-normal">${title}</span></a></h2>` +
    (opts.rated
      ? `<div class="a-section a-spacing-none a-spacing-top-micro"><div class="a-row a-size-small"><span aria-label="5つ星のうち4.5"><span class="a-declarative"><a href="javascript:void(0)" class="a-popover-trigger"><i class="a-icon a-icon-star-small a-star-small-4-5"><span class="a-icon-alt">5つ星のうち4.5</span></i></a></span></span> ` +
        `<span aria-label="2"><a class="a-link-normal s-underline-text" href="${href}#customerReviews"><span class="a-size-base s-underline-text">2</span></a></span></div></div>`
      : '') +
    `<div class="a-row a-size-base a-color-base"><a class="a-size-base a-link-normal s-underline-text a-text-bold" href="${href}">Tankobon Hardcover</a></div>` +
    `<div class="a-row a-size-base a-color-base"><a class="a-link-normal" href="${href}"><span class="a-price" data-a-size="l"><span class="a-offscreen">¥2,699</span><span aria-hidden="true"><span class="a-price-whole">2,699</span></span></span></a></div>` +
    `<div class="a-row a-size-base a-color-secondary"><span aria-label="${opts.label ?? 'Get it Tue, Oct 12 - Tue, Oct 19'}"><span>Get it </span><span class="a-text-bold">Tue, Oct 12</span></span></div>` +
    `<div class="a-row a-size-base a-color-secondary"><a class="a-link-normal s-underline-text" href="/gp/offer-listing/${asin}">(6 used &amp; new offers)</a></div>` +
    `</div></div></div></div>`
  );
}

describe('2021-2022 cards without a reviews block', () => {
  test('a date or release label, a title with a digit, an offers link are no review count; a bare count label is', () => {
    const html = shell(
      `<div id="search"><div class="s-main-slot s-result-list s-search-results sg-row" data-component-type="s-search-results">` +
        card2021('B07Z9GMDMB', 'Optical Power Meter 8 Wavelength') +
        card2021('B08CNN7ZZ7', 'オリジナルミニドラマ～その4～「初めての体験」', { label: 'この本の出版予定日は2021年7月19日です。' }) +
        card2021('B08GYW74PV', 'Optical Power Meter 800-1700nm', { rated: true }) +
        `</div></div>`,
    );
    const j = parseSearch(input(html, 'https://www.amazon.co.jp/s?k=meter')).json as { results: { organic: { product_id: string; rating: number; reviews_count: number; price: number }[] } };
    expect(j.results.organic.map((r) => [r.product_id, r.rating, r.reviews_count, r.price])).toEqual([
      ['B07Z9GMDMB', 0, 0, 2699],
      ['B08CNN7ZZ7', 0, 0, 2699],
      ['B08GYW74PV', 4.5, 2, 2699],
    ]);
  });
});

describe('2019+ "no results" notice in the top banner', () => {
  const noResults = (row: string) =>
    shell(
      `<div id="search"><div class="s-main-slot"><span data-component-type="s-top-banner" class="rush-component"><div class="a-section a-spacing-base a-spacing-top-medium">${row}` +
        `<div class="a-row a-size-base a-color-base"><span>请尝试检查您的拼写或使用更多常规术语</span></div></div></span>` +
        `<span data-component-type="s-search-results" class="rush-component"><div class="s-result-list s-search-results sg-row"></div></span></div></div>`,
    );
  test.each([
    ['zh-CN, split over spans', '<div class="a-row"><span class="a-size-medium a-color-base">没有</span><span class="a-size-medium a-color-base">灯饰加盟</span><span class="a-size-medium a-color-base">的搜索结果。</span></div>'],
    ['en', '<div class="a-row"><span class="a-size-medium a-color-base">No results for </span><span class="a-size-medium a-color-base a-text-bold">qwzx lamp</span></div>'],
  ])('%s: a page that found nothing, not a partial parse', (_name, row) => {
    const p = parseSearch(input(noResults(row), 'https://www.amazon.cn/s?k=x'));
    expect(p.status).toBe('parsed');
    expect((p.json as { results: { organic: unknown[] }; total_results_count: number }).results.organic).toEqual([]);
  });
  test('an empty result list without a notice stays partial', () => {
    expect(parseSearch(input(noResults(''), 'https://www.amazon.cn/s?k=x')).status).toBe('partial');
  });
});

describe('late-2021 refinement panel', () => {
  test('a group headed by `s-bold-weight-text` is read, and a star filter is named by its icon, not by "& Up"', () => {
    const star = (n: number, id: string) =>
      `<li id="p_72/${id}"><span class="a-list-item"><a class="a-link-normal s-navigation-item" href="/s?k=monitor&amp;rh=p_72%3A${id}&amp;ref=sr_nr_p_72_1"><section aria-label="${n} Stars &amp; Up"><i class="a-icon a-icon-star-medium a-star-medium-${n}"><span class="a-icon-alt">${n} Stars &amp; Up</span></i> <span class="a-size-small a-color-base" dir="auto">&amp; Up</span></section></a></span></li>`;
    const panel =
      `<div id="s-refinements" class="a-section a-spacing-none"><div class="a-section a-spacing-double-large">` +
      `<div id="reviewsRefinements" class="a-section a-spacing-none"><div id="p_72-title" class="a-section a-spacing-small"><span class="a-size-base a-color-base s-bold-weight-text" dir="auto">Customer Review</span></div>` +
      `<ul aria-labelledby="p_72-title" class="a-unordered-list">${star(4, '11192170011')}${star(3, '11192169011')}</ul></div>` +
      `<div id="brandsRefinements" class="a-section a-spacing-none"><div id="p_89-title" class="a-section a-spacing-small"><span class="a-size-base a-color-base s-bold-weight-text" dir="auto">Brand</span></div>` +
      `<ul aria-labelledby="p_89-title" class="a-unordered-list"><li id="p_89/Asus" aria-label="Asus"><span class="a-list-item"><a class="a-link-normal s-navigation-item" href="/s?k=monitor&amp;rh=n%3A667823011%2Cp_89%3AAsus"><div class="a-checkbox"><label><input type="checkbox"><i class="a-icon a-icon-checkbox"></i></label></div> <span class="a-size-base a-color-base" dir="auto">Asus</span></a></span></li></ul></div>` +
      `</div></div>`;
    const html = page(card('B0CARD0001')).replace(refinements, panel);
    const j = parseSearch(input(html, 'https://www.amazon.ca/s?k=monitor')).json as { refinements: Record<string, { name: string; value: string; refinement_display_name: string }[]> };
    const brief = Object.fromEntries(Object.entries(j.refinements).map(([k, v]) => [k, v.map((r) => [r.name, r.value, r.refinement_display_name])]));
    expect(brief).toEqual({
      customer_review: [
        ['4 Stars & Up', 'p_72:11192170011', 'Customer Review'],
        ['3 Stars & Up', 'p_72:11192169011', 'Customer Review'],
      ],
      brand: [['Asus', 'n:667823011,p_89:Asus', 'Brand']],
    });
  });
});

describe('2022 card opening with its "Best Seller" badge link', () => {
  test("the card's URL is its title link, not the badge's bestseller list", () => {
    const badge = `<div class="a-section a-spacing-none puis-status-badge-container"><a class="a-link-normal s-underline-text" href="/-/en/gp/bestsellers/pet-supplies/4254586031/ref=sr_bs_41_4254586031_1"><span data-component-type="s-status-badge-component" class="rush-component"><span id="B07N18943Q-best-seller" class="a-badge"><span class="a-badge-label"><span class="a-badge-text">Best Seller</span></span></span></span></a></div>`;
    const html = shell(
      `<div id="search"><div class="s-main-slot s-result-list s-search-results sg-row" data-component-type="s-search-results">` +
        card2021('B07N18943Q', 'Dreamies Mix Cat Snacks', { rated: true }).replace('<div class="a-section a-spacing-base">', `<div class="a-section a-spacing-base">${badge}`) +
        `</div></div>`,
    );
    const [item] = (parseSearch(input(html, 'https://www.amazon.de/s?k=katzenfutter')).json as { results: { organic: { url: string; best_seller: boolean }[] } }).results.organic;
    expect([item?.url, item?.best_seller]).toEqual(['/B07N18943Q/dp/B07N18943Q/ref=sr_1_1', true]);
  });
});

describe('2021 widgets between the results', () => {
  const adviserCard = (asin: string, header: string) =>
    `<li class="a-carousel-card"><div data-asin="${asin}" class="sg-col-4-of-12 s-inner-result-item sg-col"><div class="sg-col-inner"><div class="a-section a-spacing-micro s-product-header"><div class="a-row"><span class="a-size-base-plus a-text-bold" dir="auto">${header}</span></div></div>` +
    `<a class="a-link-normal s-no-outline" href="/dp/${asin}/ref=sxin_9"><img class="s-image" src="https://m.media-amazon.com/images/I/${asin}.jpg" alt=""></a>` +
    `<h2 class="a-size-mini"><a class="a-link-normal a-text-normal" href="/dp/${asin}/ref=sxin_9"><span class="a-size-base-plus a-color-base a-text-normal">Monitor ${asin}</span></a></h2>` +
    `<span class="a-price"><span class="a-offscreen">$184.99</span></span></div></div></li>`;
  const adviser = (heading: string, cards: string) =>
    `<div data-asin="" class="s-result-item sg-col-0-of-12 sg-col-16-of-20 s-widget sg-col s-widget-spacing-large"><div class="sg-col-inner"><span class="celwidget slot=MAIN template=SHOPPING_ADVISER widgetId=loom-desktop-inline-slot_ac-desktop-search-suggestion-modality-widget">` +
    `<div class="a-section s-shopping-adviser"><div class="a-section s-shopping-adviser-heading"><div class="a-row"><h3 class="a-spacing-none a-text-normal"><span class="a-size-medium a-color-base">${heading}</span></h3></div></div>` +
    `<ol class="a-carousel">${cards}</ol></div></span></div></div>`;
  const brandAd =
    `<div data-asin="" class="a-section a-spacing-none s-result-item s-flex-full-width s-widget s-widget-spacing-large"><span class="celwidget slot=MAIN template=CARDS widgetId=loom-desktop-top-slot_hsa-id">` +
    `<div class="_bXVsd_container_GMk6b sbx-desktop"><a aria-label="Sponsored ad from LG." href="https://aax-us-iad.amazon.com/x/c/x/https://www.amazon.ca/stores/page/1"></a>` +
    `<div data-asin="B01BV1XB2K"><img src="https://m.media-amazon.com/images/I/lg.jpg" alt="LG 25UM58-P 25&quot; 21:9"><a href="/dp/B01BV1XB2K"><span>LG 25UM58-P 25" 21:9</span></a></div></div></span></div>`;

  test('a sponsored-brand banner without AdHolder is no suggestion; a shopping adviser gives each card its quoted query', () => {
    const html = shell(
      `<div id="search"><div class="s-main-slot s-result-list s-search-results sg-row" data-component-type="s-search-results">` +
        brandAd +
        card2021('B07TGMC29J', 'Samsung 27-Inch Monitor', { rated: true }) +
        adviser("Amazon's Choice Customers shopped Amazon's Choice for…", adviserCard('B08D3Y5PFZ', '&#34;gaming monitor&#34;') + adviserCard('B083K17XLH', '&#34;gaming monitor 144hz&#34;')) +
        adviser('Recommended article', adviserCard('B089T73ZB9', 'Best Overall')) +
        `</div></div>`,
    );
    type R = { product_id: string; suggested_query: string };
    const j = parseSearch(input(html, 'https://www.amazon.ca/s?k=Gaming+Monitor')).json as { results: { suggested: R[]; choice_picks: R[] } };
    const brief = (l: R[]) => l.map((r) => [r.product_id, r.suggested_query]);
    expect({ suggested: brief(j.results.suggested), choice: brief(j.results.choice_picks) }).toEqual({
      suggested: [['B089T73ZB9', 'Recommended article']],
      choice: [
        ['B08D3Y5PFZ', 'gaming monitor'],
        ['B083K17XLH', 'gaming monitor 144hz'],
      ],
    });
  });
});

describe('2022 refinement wrapper holding several groups', () => {
  test('each `-title` div opens its own group; a colour swatch is named by its title; the cut reads the same', () => {
    const link = (rh: string, inner: string, title = '') =>
      `<li><span class="a-list-item"><a class="a-link-normal s-navigation-item"${title ? ` title="${title}"` : ''} href="/s?k=tee&amp;rh=${rh}&amp;ref=sr_nr_1">${inner}</a></span></li>`;
    const group = (key: string, heading: string, links: string) =>
      `<div id="${key}-title" class="a-section a-spacing-small"><span class="a-size-base a-color-base puis-bold-weight-text">${heading}</span></div><ul aria-labelledby="${key}-title" class="a-unordered-list">${links}</ul>`;
    const panel =
      `<div id="s-refinements" class="a-section a-spacing-none"><div class="a-section a-spacing-double-large">` +
      `<div id="brandsRefinements" class="a-section">${group('p_89', 'Brands', link('p_89%3ASolefit', '<span class="a-size-base a-color-base">Solefit</span>'))}</div>` +
      `<div id="filters" class="a-section">` +
      group('p_n_size_browse-vebin', 'Size', link('p_n_size_browse-vebin%3A1975394031', '<span class="a-size-base a-color-base">M</span>') + link('p_n_size_browse-vebin%3A1975395031', '<span class="a-size-base a-color-base">L</span>')) +
      group('p_n_size_two_browse-vebin', 'Colour', link('p_n_size_two_browse-vebin%3A1975317031', '<div class="colorsprite aok-float-left"></div>', 'Blacks')) +
      `</div></div></div>`;
    const html = page(card('B0CARD0001')).replace(refinements, panel);
    const i = input(html, 'https://www.amazon.in/s?k=tee');
    const j = parseSearch(i).json as { refinements: Record<string, { name: string; value: string }[]> };
    expect(Object.fromEntries(Object.entries(j.refinements).map(([k, v]) => [k, v.map((r) => `${r.name} ${r.value}`)]))).toEqual({
      brands: ['Solefit p_89:Solefit'],
      size: ['M p_n_size_browse-vebin:1975394031', 'L p_n_size_browse-vebin:1975395031'],
      colour: ['Blacks p_n_size_two_browse-vebin:1975317031'],
    });
    expect(parseSearch(i)).toEqual(whole(i));
  });
});

describe('2026 sponsored-brand card ratings', () => {
  test('"Rated 4.4 out of 5 stars by 10478 reviews" and a link showing "4.4" then "(10.4k)" give the count, not the rating', () => {
    const rated = (asin: string, label: string) =>
      card2021(asin, `Power Bank ${asin}`).replace(
        '<div class="a-row a-size-base a-color-base"><a class="a-size-base',
        `<div class="a-row"><a${label ? ` aria-label="${label}"` : ''} class="a-link-normal s-no-hover" href="/dp/${asin}#customerReviews"><div class="a-section"><span class="a-size-mini a-color-base">4.4</span> <i class="a-icon a-icon-star-mini a-star-mini-4-5"><span class="a-icon-alt">4.4 out of 5 stars.</span></i> <span class="a-size-mini a-color-base" data-rt="4.4">(10.4k)</span></div></a></div><div class="a-row a-size-base a-color-base"><a class="a-size-base`,
      );
    const html = shell(
      `<div id="search"><div class="s-main-slot s-result-list s-search-results sg-row" data-component-type="s-search-results">` +
        rated('B0H2YVZY2S', 'Rated 4.4 out of 5 stars by 10478 reviews. Go to review section.') +
        rated('B0BMW2985V', '') +
        `</div></div>`,
    );
    const j = parseSearch(input(html)).json as { results: { organic: { product_id: string; rating: number; reviews_count: number }[] } };
    expect(j.results.organic.map((r) => [r.product_id, r.rating, r.reviews_count])).toEqual([
      ['B0H2YVZY2S', 4.4, 10478],
      ['B0BMW2985V', 4.4, 10400],
    ]);
  });
});

describe('2019-2022 delivery row', () => {
  test('a card without a delivery recipe reads its grey aligned row; a price block with the same class is no delivery', () => {
    const row = `<div class="a-row a-size-base a-color-secondary s-align-children-center"><div class="a-row s-align-children-center"><span class="s-prime"><i class="a-icon a-icon-prime" aria-label="Amazon Prime"></i></span><span aria-label="Get it as soon as Today, Mar 17"><span>Get it as soon as </span><span class="a-text-bold">Today, Mar 17</span></span></div><div class="a-row"><span aria-label="FREE Shipping by Amazon"><span>FREE Shipping by Amazon</span></span></div></div>`;
    const priceBlock = `<div class="a-section a-spacing-none s-align-children-center"><span>Hardcover</span><span class="a-price"><span class="a-offscreen">$65.00</span></span><span>Ships to Canada</span></div>`;
    const html = shell(
      `<div id="search"><div class="s-main-slot s-result-list s-search-results sg-row" data-component-type="s-search-results">` +
        card2021('B0014WXD9I', 'Eye Pillow', { rated: true }).replace('<div class="a-row a-size-base a-color-secondary"><span aria-label="Get it', `${row}<div class="a-row a-size-base a-color-secondary"><span aria-label="Get it`) +
        card2021('4861865204', 'Powerful Medicine').replace('<h2 ', `${priceBlock}<h2 `) +
        `</div></div>`,
    );
    const j = parseSearch(input(html)).json as { results: { organic: { product_id: string; shipping_information: string; is_prime: boolean }[] } };
    expect(j.results.organic.map((r) => [r.product_id, r.shipping_information, r.is_prime])).toEqual([
      ['B0014WXD9I', 'Get it as soon as Today, Mar 17 FREE Shipping by Amazon', true],
      ['4861865204', '', false],
    ]);
  });
});
