/**
 * Listing grids and a product page in the markup of three kinds of retail site the generic
 * commerce parsers must read without rules of their own, written by hand in the structure of
 * the real pages (their conventions, not their content):
 *
 * - a handmade-goods marketplace's search grid: `div[data-listing-id]` tiles in
 *   `li.wt-list-unstyled`, each tile rendered twice (a desktop and a mobile copy), the title in
 *   `h3.v2-listing-card__title`, prices split into `currency-symbol` / `currency-value` spans
 *   with a screen-reader copy, a sale price beside its struck-through original and "(20% off)",
 *   "from" prices of listings with variations, and the two rating markups met on the live site
 *   (a custom element with `rating` / `review-count-text` attributes, and a star sprite with an
 *   aria-label and "(7)" beside it);
 * - an auction marketplace's results: `li.s-item` cards whose first one is the site's hidden
 *   "Shop on eBay"-style placeholder, a "New Listing" tag inside the title, prices and price
 *   ranges ("$10.00 to $25.00"), bids and "Buy It Now", an off-screen "Opens in a new window"
 *   text, and ratings as "4.5 out of 5 stars." with "(123)";
 * - a furniture retailer's product page with no structured data at all: the rating and review
 *   count only in the visible markup (a bare "4,7" in a rating element beside star bars drawn
 *   by width, and "2.310 Bewertungen"), a decimal-comma price split over two elements
 *   ("53" ",11 €").
 */
import type { SimProduct } from './commerce-data.js';

const esc = (s: string): string => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (lang: string, title: string, body: string): string =>
  `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${esc(title)}</title></head><body>${body}</body></html>`;
const usd = (n: number): string => n.toFixed(2);

/** A listing id per catalogue product (digits, as the marketplace numbers its listings). */
export const listingId = (p: SimProduct): string => `9${p.id.slice(1)}77`;

function handmadeTile(p: SimProduct, i: number, mobile: boolean): string {
  const id = listingId(p);
  const href = `https://www.handmade.test/listing/${id}/${p.title.toLowerCase().replace(/\W+/g, '-')}?ga_order=most_relevant&ref=search_grid-${i}&sts=1&ls=s`;
  const rating =
    i % 2 === 0
      ? `<clg-static-review-stars rating="${p.rating.toFixed(1)}" review-count-text="(${p.reviews})"><span class="wt-screen-reader-only">${p.rating} star rating with ${p.reviews} reviews</span></clg-static-review-stars>`
      : `<div class="sprite-img black-stars star-rating-${Math.round(p.rating)}" aria-label="${p.rating} out of 5 stars"></div><span class="wt-text-body-smaller">(${p.reviews})</span>`;
  const from = p.id === 'P1005' ? '<span class="wt-text-caption">From </span>' : '';
  const sale = p.old
    ? `<p class="wt-text-caption search-collage-promotion-price wt-text-slime"><span class="wt-text-strikethrough"><span class="wt-screen-reader-only">Original Price $${usd(p.old)}</span><span aria-hidden="true"><span class="currency-symbol">$</span><span class="currency-value">${usd(p.old)}</span></span></span> (${Math.round((1 - p.price / p.old) * 100)}% off)</p>`
    : '';
  return (
    `<div class="js-merch-stash-check-listing v2-listing-card wt-position-relative ${mobile ? 'wt-hide-lg' : 'wt-show-lg'}" data-listing-id="${id}" data-shop-id="5501">` +
    `<a class="listing-link wt-display-inline-block" data-listing-id="${id}" href="${esc(href)}" title="${esc(p.title)}" target="etsy.${id}">` +
    `<div class="v2-listing-card__img"><img data-listing-card-listing-image src="https://i.handmade.test/il_340x270.${id}.jpg" alt="${esc(p.title)}"></div>` +
    `<div class="v2-listing-card__info"><h3 class="wt-text-caption v2-listing-card__title wt-text-truncate" id="listing-title-${id}"> ${esc(p.title)} </h3>` +
    `<div class="wt-display-flex-xs wt-align-items-center">${rating}</div>` +
    `<div class="n-listing-card__price"><p class="wt-text-title-01 lc-price">${from}<span class="wt-screen-reader-only">${p.old ? 'Sale Price' : 'Price'} $${usd(p.price)}</span>` +
    `<span aria-hidden="true"><span class="currency-symbol">$</span><span class="currency-value">${usd(p.price)}</span></span></p>${sale}</div>` +
    `<p class="wt-text-caption wt-text-gray"><span class="clickable-shop-name">${esc(p.brand)}Studio</span></p></div></a>` +
    `<button class="favorite-listing-button-icon-container" data-listing-id="${id}" aria-label="Add to Favourites"></button></div>`
  );
}

/** The handmade marketplace's search page: one grid item per listing, each tile twice (desktop and mobile). */
export function handmadeGrid(items: readonly SimProduct[], query: string): string {
  const tiles = items.map((p, i) => `<li class="wt-list-unstyled wt-grid__item-xs-6 wt-grid__item-md-4 wt-show-xs">${handmadeTile(p, i, false)}${handmadeTile(p, i, true)}</li>`).join('');
  // The site's JSON-LD ItemList names only some of the tiles (the first two here).
  const ld = {
    '@context': 'https://schema.org', '@type': 'ItemList', numberOfItems: 2,
    itemListElement: items.slice(0, 2).map((p, i) => ({
      '@type': 'Product', position: i + 1, name: p.title, url: `https://www.handmade.test/listing/${listingId(p)}/${p.title.toLowerCase().replace(/\W+/g, '-')}`,
      image: `https://i.handmade.test/il_fullxfull.${listingId(p)}.jpg`, offers: { '@type': 'Offer', price: p.price.toFixed(2), priceCurrency: 'USD' },
    })),
  };
  return page(
    'en-US',
    `${query} - Etsy`,
    `<script type="application/ld+json">${JSON.stringify(ld)}</script><div id="content"><div class="wt-mb-xs-2"><span class="wt-text-caption">${items.length} results</span></div>` +
      `<div class="search-listings-group"><ol class="wt-grid wt-grid--block wt-pl-xs-0 tab-reorder-container" data-results-grid-container>${tiles}</ol></div>` +
      `<nav class="search-pagination"><a class="wt-action-group__item" href="/search?q=${encodeURIComponent(query)}&page=2">2</a></nav></div>`,
  );
}

export const AUCTION_ID = (p: SimProduct): string => `2${p.id.slice(1)}00451276`;

function auctionCard(p: SimProduct, i: number): string {
  const id = AUCTION_ID(p);
  const price = p.id === 'P1006' ? `$${usd(p.price)} to $${usd(p.price + 20)}` : `$${usd(p.price)}`;
  const tag = i === 0 ? '<span class="LIGHT_HIGHLIGHT">New Listing</span>' : '';
  return (
    `<li class="s-item s-item__pl-on-bottom" data-viewport='{"trackableId":"${id}"}' id="item${id.slice(-6)}"><div class="s-item__wrapper clearfix">` +
    `<div class="s-item__image-section"><div class="s-item__image"><a href="https://www.auction.test/itm/${id}?hash=item${id}&amdata=enc" tabindex="-1"><div class="s-item__image-wrapper"><img class="s-item__image-img" src="https://i.auction.test/images/g/${id}/s-l225.jpg" alt="${esc(p.title)}"></div></a></div></div>` +
    `<div class="s-item__info clearfix"><a class="s-item__link" href="https://www.auction.test/itm/${id}?hash=item${id}&amdata=enc">` +
    `<div class="s-item__title"><span role="heading" aria-level="3">${tag}${esc(p.title)}</span></div><span class="clipped">Opens in a new window or tab</span></a>` +
    `<div class="s-item__subtitle"><span class="SECONDARY_INFO">Brand New</span></div>` +
    `<div class="s-item__reviews"><a href="https://www.auction.test/p/${id}#UserReviews"><div class="x-star-rating"><span class="clipped">${p.rating} out of 5 stars.</span></div><span class="s-item__reviews-count"><span>(${p.reviews})</span><span class="clipped">${p.reviews} product ratings</span></span></a></div>` +
    `<div class="s-item__details clearfix"><div class="s-item__detail s-item__detail--primary"><span class="s-item__price">${price}</span></div>` +
    `<div class="s-item__detail s-item__detail--primary"><span class="s-item__bids s-item__bidCount">${i + 2} bids</span> · <span class="s-item__time-left">1d 4h</span></div>` +
    `<div class="s-item__detail s-item__detail--primary"><span class="s-item__shipping s-item__logisticsCost">+$5.99 shipping</span></div></div></div></div></li>`
  );
}

/** The auction marketplace's results: the hidden placeholder card first, then the listings. */
export function auctionGrid(items: readonly SimProduct[], query: string): string {
  const placeholder =
    `<li class="s-item s-item__before-answer s-item__pl-on-bottom" data-viewport='{"trackableId":"0"}'><div class="s-item__wrapper clearfix"><div class="s-item__image-section"><div class="s-item__image"><a href="https://www.auction.test/itm/123456?hash=item28caef0a3a:g:E3kAAOSwlGJiMikD&amdata=enc" tabindex="-1"><img class="s-item__image-img" src="https://ir.auction.test/rs/v3/placeholder.png" alt=""></a></div></div>` +
    `<div class="s-item__info clearfix"><a class="s-item__link" href="https://www.auction.test/itm/123456?hash=item28caef0a3a:g:E3kAAOSwlGJiMikD&amdata=enc"><div class="s-item__title"><span role="heading" aria-level="3">Shop on eBay</span></div></a>` +
    `<div class="s-item__subtitle"><span class="SECONDARY_INFO">Brand New</span></div><div class="s-item__details clearfix"><div class="s-item__detail s-item__detail--primary"><span class="s-item__price">$20.00</span></div></div></div></div></li>`;
  return page(
    'en-US',
    `${query} | eBay`,
    `<div id="srp-river-main"><h1 class="srp-controls__count-heading"><span class="BOLD">${items.length}</span> results for <span class="BOLD">${esc(query)}</span></h1>` +
      `<div id="srp-river-results" class="srp-river-results clearfix"><ul class="srp-results srp-list clearfix">${placeholder}${items.map(auctionCard).join('')}</ul></div></div>`,
  );
}

/** A furniture retailer's product page: no JSON-LD, microdata or meta prices; rating and reviews in visible markup only. */
export function furnitureProduct(p: SimProduct): string {
  const [whole, cents] = p.price.toFixed(2).split('.');
  return page(
    'de-DE',
    `${p.title} - Möbelhaus`,
    `<div class="pip-page"><nav class="bc"><a href="/de/de/">Startseite</a> › <a href="/de/de/cat/outdoor/">Outdoor</a></nav>` +
      `<div class="pip-product-summary"><h1 class="pip-header-section"><span class="pip-header-section__title--big">${esc(p.title)}</span>\n` +
      `<span class="pip-header-section__description-text">${esc(p.brand)}</span></h1>` +
      `<div class="pip-price-package"><span class="pip-temp-price"><span class="pip-temp-price__integer">${whole}</span>\n<span class="pip-temp-price__decimal">,${cents}</span> <span class="pip-temp-price__currency">€</span></span></div>` +
      `<div class="product-rating"><span class="rating-stars"><span class="rating-stars__fill" style="width: ${Math.round(p.rating * 20)}%"></span></span>` +
      `<span class="rating-value">${p.rating.toLocaleString('de-DE')}</span> <a href="#reviews" class="rating-count">${p.reviews.toLocaleString('de-DE')} Bewertungen</a></div>` +
      `<div class="pip-product-identifier">Artikelnummer <span class="pip-product-identifier__value">${p.id.slice(1)}.${p.id.slice(1)}</span></div>` +
      `<form class="pip-buy-module" action="/de/de/cart/add"><input type="hidden" name="itemNo" value="${p.id.slice(1)}${p.id.slice(1)}"><button class="pip-btn pip-btn--emphasised">In den Warenkorb</button></form></div>` +
      `<div class="pip-media-grid"><img class="pip-image" src="https://www.furniture.test/images/${p.id}.jpg" alt="${esc(p.title)}"></div>` +
      `<div class="pip-product-details"><p>${esc(p.description)}</p></div></div>`,
  );
}
