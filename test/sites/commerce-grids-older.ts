/**
 * More listing pages in the markup of real retail sites the generic parsers have no rules
 * for, written by hand in the structure of captured pages (their conventions, not their
 * content), each carrying the trap the captured page set:
 *
 * - an auction marketplace's 2012 results table (`table.li` rows): the shown title is cut
 *   short ("…Top Hand...") with the full one in the link's `title`, a title may name a price
 *   ("für 3,95€"), and a payment icon's `alt` ("This seller accepts PayPal") sits in the row;
 * - a handmade-goods marketplace's 2019–2021 grid: the price box holds a "FREE shipping" badge
 *   after the price, the stars are hidden inputs with a screen-reader "5 out of 5 stars";
 * - a wholesale marketplace's 2013 list: the seller's link reads "(min. order $10)" (in the
 *   2016–2017 markup, `li > div.item`, also "10$ Min..." cut short, before the card's marked
 *   price), and the
 *   feedback and orders links go to the product's own URL with a `#feedback` / `#thf` anchor;
 * - an electronics chain's search tiles: the title in a `div.h2`, a "QUICK VIEW" button whose
 *   link hides the product name in a `hide-text` span, and a rating label "5.0 out of 5 stars.
 *   3 reviews" beside a bare "5.0" and "(3)";
 * - a search that found nothing: `<h1><span>0</span><span>results for <b>…</b></span></h1>`.
 */
import type { SimProduct } from './commerce-data.js';

const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (lang: string, body: string): string => `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>results</title></head><body>${body}</body></html>`;
const slug = (t: string): string => t.toLowerCase().replace(/\W+/g, '-');

/** The id the auction marketplace numbers a catalogue product with (12 digits). */
export const OLD_AUCTION_ID = (p: SimProduct): string => `3208${p.id.slice(1)}7679`;

/** The auction row's full title: the product's, with a contract price in its words. */
export const oldAuctionTitle = (p: SimProduct): string => `${p.title} für 3,95€ | Top Angebot von ${p.brand} mit Garantie`;

function oldAuctionRow(p: SimProduct, i: number): string {
  const id = OLD_AUCTION_ID(p);
  const href = `http://www.auction.test/itm/${slug(p.title)}-/${id}?pt=DE_Sport&amp;hash=item4ab5ecfe9f`;
  const full = oldAuctionTitle(p);
  return (
    `<a name="item${id.slice(-6)}" class="lv-1st"></a><table class="li rsittlref" r="${i + 1}"><tbody><tr>` +
    `<td class="pic p140 lt"><a href="${href}" class="img"><img src="http://thumbs.auction.test/m/${id}/140.jpg" class="img" alt=''></a></td>` +
    `<td class="dtl"><div class="ittl"><a href="${href}" class="vip" title='${esc(full)}'>${esc(full.slice(0, 40))}...</a></div>` +
    `<div class="sttl dyn">${esc(p.description)}</div><div class="anchors"><a class="lnk mi-a" t="EL" url="" iid="${id}">Vergrößern</a></div></td>` +
    `<td class="trs"></td><td class="pay rt"><img src="http://pics.auction.test/s.gif" height="16" width="16" alt="Dieser Verkäufer akzeptiert PayPal" class="sprIcons1 iippl"></td>` +
    `<td class="bids bin1"><div>Sofort-Kaufen</div></td>` +
    `<td class='prc'><div class="g-b">EUR ${p.price.toFixed(2).replace('.', ',')}</div><span class="ship"><span class='tfsp'>Kostenloser Versand</span></span></td><td class="tme"></td></tr></tbody></table>`
  );
}

export function oldAuctionTable(items: readonly SimProduct[]): string {
  return page('de', `<div id="ResultSetItems"><div id="e17" class="rs rsw">${items.map(oldAuctionRow).join('')}</div></div>`);
}

export const HANDMADE_ID = (p: SimProduct): string => `55${p.id.slice(1)}4197`;

function handmadeCard(p: SimProduct, i: number): string {
  const id = HANDMADE_ID(p);
  return (
    `<li class="wt-list-unstyled wt-grid__item-xs-6 wt-grid__item-lg-4"><div class="js-merch-stash-check-listing v2-listing-card position-relative" data-listing-id="${id}" data-listing-card-v2>` +
    `<a class="organic-impression display-inline-block listing-link" data-listing-id="${id}" href="https://www.handmade.test/listing/${id}/${slug(p.title)}?ref=sr_gallery-1-${i + 1}&amp;organic_search_click=1" title="${esc(p.title)}">` +
    `<div class="v2-listing-card__img"><img data-listing-card-listing-image src="https://i.handmade.test/il_340x270.${id}.jpg" alt=""></div>` +
    `<div class="v2-listing-card__info"><div><h2 class="text-gray text-truncate mb-xs-0 text-body"> ${esc(p.title)} </h2><p><div class="v2-listing-card__shop">` +
    `<p class="text-gray-lighter text-body-smaller display-inline-block">${esc(p.brand)}Studio</p><span class="v2-listing-card__rating icon-t-2 display-block"><span class="stars-svg stars-smaller">` +
    `<input type="hidden" name="initial-rating" value="${p.rating}"><input type="hidden" name="rating" value="${p.rating}"><span class="screen-reader-only">${Math.round(p.rating)} out of 5 stars</span>` +
    `<span data-rating="1" class="rating lit rating-first" aria-hidden="true"><span class="etsy-icon stars-svg-star"><svg viewBox="3 3 18 18"><path d="M19.985,10.36Z"/></svg></span></span></span>` +
    `<span class="text-body-smaller text-gray-lighter display-inline-block icon-b-1">(${p.reviews})</span></span></div>` +
    `<span class="n-listing-card__price text-gray mt-xs-0 strong display-block text-body-larger"><span class='currency-symbol'>$</span><span class='currency-value'>${p.price.toFixed(2)}</span>` +
    `<span class="text-body-smaller no-wrap"><span class="wt-badge wt-badge--small wt-badge--sale-01"> FREE shipping </span></span></span></p></div></div></a>` +
    `<div class="v2-listing-card__actions"><button class="favorite-listing-button" data-listing-id="${id}"><span class="screen-reader-only">Add to Favorites</span></button></div></div></li>`
  );
}

export function handmadeFreeShippingGrid(items: readonly SimProduct[]): string {
  return page('en-US', `<div class="search-listings-group"><ul class="responsive-listing-grid wt-grid wt-grid--block">${items.map(handmadeCard).join('')}</ul></div>`);
}

export const WHOLESALE_ID = (p: SimProduct): string => `6340${p.id.slice(1)}869`;

/** The seller's link: a minimum order in its name, written out or cut short ("Jewelry 10$ Min..."). */
const store = (p: SimProduct, i: number, cut: boolean): string =>
  cut && i % 3 === 2
    ? `<a class="store" href="http://www.wholesale.test/store/10530${i}" title="${esc(p.brand)} Jewelry 10$ Min Order">${esc(p.brand)} Jewelry 10$ Min...</a>`
    : `<a class="store" href="http://www.wholesale.test/store/10530${i}" title="${esc(p.brand)} Limited (min. order $10)">${esc(p.brand)} Limited (min. order $10)</a>`;

function wholesaleItem(p: SimProduct, i: number, wrapped = false, cut = wrapped): string {
  const id = WHOLESALE_ID(p);
  const href = `http://www.wholesale.test/item/${slug(p.title)}/${id}.html`;
  const rate = i % 2 === 0 ? `<span class="star star-s" title="Star Rating: ${p.rating} out of 5"><span class="rate-percent" style="width: 97.8%;"></span></span><a class="rate-num" href="${href}#feedback" rel="nofollow">Feedback (${p.reviews})</a><span class="rate-separator">|</span>` : '';
  return (
    `<li class="list-item${i === 0 ? ' list-item-first' : ''} util-clearfix" qrdata="100006749|${id}|cn117371666">${wrapped ? '<div class="item">' : ''}<div class="img"><a id="limagebox_${id}" class="picRind" href="${href}"><img class="picCore" src="http://i01.wholesale.test/wsphoto/${id}_1.jpg_140x140.jpg" alt="${esc(p.title)}(China (Mainland))"></a></div>` +
    `<div class="detail"><h3><a class="product product-title" href="${href}" title="${esc(p.title)}">${esc(p.title)}</a></h3><span class="brief"></span>` +
    `<div class="util-clearfix address-chat"><span class="address util-clearfix">${store(p, i, cut)}</span></div></div>` +
    `<div class="info infoprice"><span class="price price-m"><span class="value">US $${p.price.toFixed(2)}</span><span class="separator">/</span> <span class="unit">piece</span></span>` +
    `<span class="free-s"> Free Shipping </span><div class="rate-history">${rate}<span rel="nofollow" class="order-num"><a class="order-num-a" href="${href}#thf" rel="nofollow"><em title="Total Orders"> Orders  (${i + 7})</em></a></span></div>` +
    `<input class="atc-product-id" type="hidden" value="${id}"></div>${wrapped ? '</div>' : ''}</li>`
  );
}

/**
 * The wholesale list (with `wrapped`, in the 2016–2017 markup; with `cut`, a seller's name
 * "10$ Min..." in every third card). With `shown` set, only that many cards are in the list; the others come
 * as markup text in a `textarea.lazy-render` after it (as the 2013–2016 pages ship them), and
 * a second lazy textarea holds a strip of recommended products, which are not results.
 */
export function wholesaleList(items: readonly SimProduct[], shown = items.length, wrapped = false, cut = wrapped): string {
  const cards = items.map((p, i) => wholesaleItem(p, i, wrapped, cut));
  const recs = items.map((p) => `<div class="rec-item"><a href="http://www.wholesale.test/item/rec/${WHOLESALE_ID(p)}1.html">${esc(p.brand)} bestseller</a><span class="rec-price">US $${(p.price + 1).toFixed(2)}</span></div>`).join('');
  const later = shown < items.length ? `<div id="hs-below-list-items" class="util-clearfix lazy-load list-items"><textarea class="lazy-render">\n<ul>${cards.slice(shown).join('')}</ul></textarea></div>` : '';
  return page(
    'en',
    `<div class="search-result"><p class="result-overview"><strong class="search-count">41,812</strong> Results</p></div><ul id="hs-list-items" class="util-clearfix lazy-load list-items">${cards.slice(0, shown).join('')}</ul>${later}` +
      `<div class="recommend lazy-load"><textarea class="lazy-render">\n<div class="rec-list">${recs}</div></textarea></div>`,
  );
}

export const CHAIN_ID = (p: SimProduct): string => `69${p.id.slice(1)}72`;

function chainTile(p: SimProduct, i: number): string {
  const id = CHAIN_ID(p);
  const href = `/product/${id}/${slug(p.title)}`;
  const data = `data-id="${id}" data-name="${esc(p.title)}" data-price="${p.price}"`;
  return (
    `<li class="product_wrapper" id="pwrapper_${i}"><div class="result_left"><a class="favorite fa fa-heart-o" ${data} href="https://account.chain.test/auth/signin/?RedirectUrl=x"><span class="hide-text">Add SKU:${id} to wishlist</span></a>` +
    `<a class="image2 productClickItemV2" ${data} href="${href}"><img alt=" ${esc(p.title)}" class="SearchResultProductImage" src="https://productimages.chain.test/${id}.jpg"></a></div>` +
    `<div class="result_right"><div class="details"><div class="detail_wrapper"><p class="sku">SKU: ${id}</p><div class="pDescription compressedNormal3"><div class="normal"><div class="h2">` +
    `<a class="productClickItemV2 ProductLink_${id}" ${data} href="${href}"> ${esc(p.title)}</a></div></div></div></div>` +
    `<div class="price_wrapper"><div class="stock"><div data-bv-show="inline_rating"><div class=""><a aria-label="${p.rating.toFixed(1)} out of 5 stars. ${p.reviews} reviews " class="bv_main_container" href="${href}#tab-reviews">` +
    `<div class="bv_sub_container"><div aria-hidden="true" class="bv_averageRating_component_container"><div class="bv_text">${p.rating.toFixed(1)}</div></div><div aria-hidden="true" class="bv_numReviews_component_container"><div class="bv_text">(${p.reviews})</div></div></div></a></div></div>` +
    `<span class="availabilityTrunc">Usually ships in 5-7 business days.</span></div>` +
    `<div class="price"><span itemprop="price"><span class="sr-only">Our price </span><span class="upper">$</span>${p.price.toFixed(2)}</span></div>` +
    `<div class="row cartActions"><div class="quickview"><a class="btn-add quickView" href="/quickView/${id}/${slug(p.title)}" rel="nofollow">QUICK VIEW<span class="hide-text"> ${esc(p.title)}</span></a></div>` +
    `<form action="/store/add_product.aspx" class="crtfrm" method="POST"><input name="productID" type="hidden" value="${id}"><button class="btn-add" type="submit">Add to Cart</button></form></div></div></div></li>`
  );
}

export function chainSearch(items: readonly SimProduct[]): string {
  return page('en-US', `<div id="productGrid"><ul>${items.map(chainTile).join('')}</ul></div>`);
}

/** An auction marketplace's results page for a search that found nothing (2018–2019 markup). */
export function noResultsPage(query: string): string {
  return page(
    'en',
    `<div class="clt"><h1 class="rsHdr" tabindex="0">\n<span class="rcnt">0</span>\n<span class="kwcat">results for <b>${esc(query)}</b></span>\n</h1></div>` +
      `<div id="Results" class="results"><div class="srp-save-null-search__title"><h3 class="srp-save-null-search__heading">No exact matches found</h3></div></div>`,
  );
}

/**
 * A marketplace's 2018–2020 media product page: the buy box's "Buy new" price in a header row
 * outside the add-to-cart form, and inside the form an offers summary "40 New from $47.75"
 * (the cheapest other seller). With `buyBox` false the page has no buy box at all, only the
 * summary ("11 used & new from $18.93" and "See All Buying Options").
 */
export function buyBoxProduct(p: SimProduct, buyBox: boolean): string {
  const summary = (n: number, low: number) => `<div class="a-row a-spacing-mini"><a href="/gp/offer-listing/${p.id}/ref=dp_olp_new?condition=new">${n} New</a> from <span class='a-color-price'>$${low.toFixed(2)}</span></div>`;
  const box = buyBox
    ? `<div id="buyNewSection" class="a-section"><div class="a-row"><div class="a-column a-span8"><span class="a-size-medium header-text">Buy new</span></div>` +
      `<div class="a-column a-span4 a-text-right"><span class="a-size-medium a-color-price header-price">$${p.price.toFixed(2)}</span></div></div></div>` +
      `<form id="addToCart" method="post" action="/gp/product/handle-buy-box/ref=dp_start-bbf_1_glance"><input type="hidden" name="ASIN" value="${p.id}">` +
      `<div class="a-section">${summary(40, p.price - 2.64)}</div><input type="submit" name="submit.add-to-cart" value="Add to Cart"></form>`
    : `<form id="addToCart" method="post" action="/gp/product/handle-buy-box/ref=dp_start-bbf_1_glance"><input type="hidden" name="ASIN" value="${p.id}">` +
      `<div id="buybox" class="a-row"><div id="unqualifiedBuyBox" class="a-box"><div class="a-box-inner"><div class="a-text-center a-spacing-mini">11&nbsp;used&nbsp;&amp;&nbsp;new &nbsp;from&nbsp; <span class="a-color-price">$${(p.price - 6).toFixed(2)}</span></div>` +
      `<a class="a-button-text" href="/gp/offer-listing/${p.id}">See All Buying Options</a></div></div></div></form>`;
  return page('en-US', `<div id="centerCol"><h1 id="title"><span id="productTitle">${esc(p.title)}</span></h1></div><div id="rightCol"><div id="buybox_feature_div">${box}</div></div>`);
}

/**
 * The wholesale marketplace's 2010 list: a "hot product" icon drawn before the photo, the photo
 * lazily loaded from an `image-src` attribute (no `src` yet), and the product id opening the
 * URL's slug (`/product-gs/<id>-<slug>-wholesalers.html`).
 */
export function wholesale2010List(items: readonly SimProduct[]): string {
  const li = (p: SimProduct): string => {
    const id = WHOLESALE_ID(p);
    const href = `http://www.wholesale.test/product-gs/${id}-${slug(p.title)}-wholesalers.html`;
    return (
      `<li class="list-item clearfix"><div class="img"><img class="hot" src="http://style.wholesale.test/images/sale/icon/hotproduct_20x20.gif" alt="">` +
      `<a id="limagebox_${id}" class="picRind history-item" href="${href}"><img id="limage_${id}" class="picCore" image-src="http://img.wholesale.test/photo/${id}/${slug(p.title)}.summ.jpg" alt="${esc(p.title)}"></a></div>` +
      `<div class="info"><span class="price price-m"><span class="currency">US</span> <span class="value">$${p.price.toFixed(2)}</span> <span class="separator">/</span> <span class="unit">piece</span></span>` +
      `<p class="tip"><span>Min. Order: 5 pieces</span></p></div>` +
      `<div class="detail"><h3><a id="lsubject_${id}" class="history-item" href="${href}" title="${esc(p.title)}">${esc(p.title)}</a></h3></div></li>`
    );
  };
  return page('en', `<ul id="list-items" class="list-items">${items.map(li).join('')}</ul>`);
}

/**
 * A marketplace's 2021–2022 search results for books: each card lists its formats (Kindle with
 * its struck list price, Hardcover, Paperback), each with "More Buying Choices $x (N used & new
 * offers)", five or more distinct amounts in one card.
 */
export function mediaSearch(items: readonly SimProduct[]): string {
  const offer = (a: number, n: number) => `<div class="a-row a-size-base a-color-secondary"><span>More Buying Choices</span><br><span class="a-color-base">$${a.toFixed(2)}</span><span> (${n} used &amp; new offers)</span></div>`;
  const format = (name: string, a: number) => `<div class="a-row"><a class="a-size-base a-link-normal a-text-bold" href="/dp/x">${name}</a></div><div class="a-row"><span class="a-price" data-a-size="l"><span class="a-offscreen">$${a.toFixed(2)}</span></span></div>`;
  const card = (p: SimProduct, i: number) =>
    `<div data-asin="B0${p.id.slice(1)}XYZ1" data-index="${i + 2}" data-component-type="s-search-result" class="s-result-item s-asin sg-col s-widget-spacing-small"><div class="sg-col-inner">` +
    `<h2 class="a-size-mini a-spacing-none a-color-base"><a class="a-link-normal a-text-normal" href="/${slug(p.title)}/dp/B0${p.id.slice(1)}XYZ1/ref=sr_1_${i + 1}"><span class="a-size-medium a-color-base a-text-normal">${esc(p.title)}</span></a></h2>` +
    `<div class="a-row"><span aria-label="${p.rating} out of 5 stars"><i class="a-icon a-icon-star-small"></i></span><span aria-label="${p.reviews}"><span class="a-size-base s-underline-text">${p.reviews}</span></span></div>` +
    format('Kindle', p.price) + `<span class="a-price a-text-price" data-a-strike="true"><span class="a-offscreen">$${(p.price + 50).toFixed(2)}</span></span>` +
    format('Hardcover', p.price + 40) + offer(p.price - 1, 16) + format('Paperback', p.price + 30) + offer(p.price + 20, 2) + `</div></div>`;
  return page('en-US', `<div class="s-main-slot s-result-list s-search-results sg-row">${items.map(card).join('')}</div>`);
}
