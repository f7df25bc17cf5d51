/**
 * The mkt1 simulator's other pages: the all-offers fragment (`/gp/aod/ajax`: `#aod-container`,
 * the pinned buybox offer and `#aod-offer` blocks whose child ids repeat in every block, as on
 * the storefront), the seller profile in the "At a Glance" markup of the captured seller page
 * (`.aagLegalRow`, `.feedbackRow`, `.feedbackTable`), the home page, and the address-selection
 * fragment carrying `CSRF_TOKEN`.
 */
import { convert, formatMoney, productById, SELLERS, sellerById, type SimSeller } from './mkt1-data.js';
import { card } from './mkt1-lists.js';
import type { View } from './mkt1-shell.js';
import { esc, priceHtml, shell } from './mkt1-shell.js';

export const OFFERS_PER_PAGE = 2;

export interface SimOffer {
  sellerId: string;
  condition: 'New' | 'Used - Like New' | 'Used - Good';
  /** Price in dollars. */
  price: number;
  /** Shipping in dollars; 0 is free. */
  shipping: number;
  ratings: number;
}

/** The offers of a product: the buybox offer first. */
export function offersOf(asin: string): SimOffer[] {
  const found = productById(asin);
  if (!found) return [];
  const p = found.product;
  const others = SELLERS.filter((s) => s.id !== p.sellerId);
  return [
    { sellerId: p.sellerId, condition: 'New', price: p.price, shipping: 0, ratings: 1200 },
    { sellerId: others[0]!.id, condition: 'New', price: p.price + 1, shipping: 4.99, ratings: 310 },
    { sellerId: others[1]!.id, condition: 'Used - Like New', price: Math.round(p.price * 70) / 100, shipping: 0, ratings: 58 },
    { sellerId: p.sellerId, condition: 'Used - Good', price: Math.round(p.price * 60) / 100, shipping: 2.5, ratings: 1200 },
  ];
}

/** Offers the `filters` JSON of the fragment keeps (`{"all":true,"new":true}`, used grades). */
export function filterOffers(offers: SimOffer[], filters: string | null): SimOffer[] {
  if (!filters) return offers;
  let f: Record<string, boolean>;
  try {
    f = JSON.parse(filters) as Record<string, boolean>;
  } catch {
    return offers;
  }
  const keep = (o: SimOffer) => (f.new && o.condition === 'New') || (f.usedLikeNew && o.condition === 'Used - Like New') || (f.usedGood && o.condition === 'Used - Good');
  return Object.keys(f).some((k) => k !== 'all' && f[k]) ? offers.filter(keep) : offers;
}

function offerBlock(o: SimOffer, asin: string, v: View, id: string, n: number): string {
  const seller = sellerById(o.sellerId);
  const shipping = o.shipping === 0 ? 'FREE' : formatMoney(convert(o.shipping, v.currency), v.currency, v.home);
  const shipsFrom = o.sellerId === 'A1SIMSELLER01' ? 'Amazon' : (seller?.name ?? '');
  return (
    `<div id="${id}" class="a-section a-spacing-none a-padding-base aod-information-block aod-clear-float" role="listitem">` +
    `<div id="aod-offer-price" class="a-fixed-right-grid"><div class="a-fixed-right-grid-inner"><div id="aod-price-${n}" class="a-section a-spacing-none aok-align-center aok-relative">${priceHtml(convert(o.price, v.currency), v, { cls: 'aok-align-center centralizedApexPricePriceToPayMargin' })}</div>` +
    `<div id="mir-layout-DELIVERY_BLOCK"><span data-csa-c-delivery-price="${esc(shipping)}" data-csa-c-delivery-time="Monday, June 30" data-csa-c-delivery-type="delivery">${esc(shipping === 'FREE' ? 'FREE delivery' : `${shipping} delivery`)} <span class="a-text-bold">Monday, June 30</span></span></div></div></div>` +
    `<div id="aod-offer-heading" class="a-row"><h5>${esc(o.condition)}</h5></div>` +
    `<div id="aod-offer-shipsFrom" class="a-fixed-left-grid"><div class="a-fixed-left-grid-inner"><div class="a-fixed-left-grid-col a-col-left"><span class="a-size-small a-color-tertiary">Ships from</span></div><div class="a-fixed-left-grid-col a-col-right"><span class="a-size-small a-color-base">${esc(shipsFrom)}</span></div></div></div>` +
    `<div id="aod-offer-soldBy" class="a-fixed-left-grid"><div class="a-fixed-left-grid-inner"><div class="a-fixed-left-grid-col a-col-left"><span class="a-size-small a-color-tertiary">Sold by</span></div><div class="a-fixed-left-grid-col a-col-right">` +
    `<a class="a-size-small a-link-normal" href="/gp/aag/main?ie=UTF8&amp;seller=${o.sellerId}&amp;asin=${asin}&amp;ref_=olp_merch_name_${n}" role="link">${esc(seller?.name ?? '')}</a>` +
    `<div id="aod-offer-seller-rating"><i class="a-icon a-icon-star-mini a-star-mini-4-5"></i><span id="seller-rating-count-{iter}"><span>(${o.ratings.toLocaleString('en-US')} ratings)</span><br><span>96% positive over last 12 months</span></span></div>` +
    `</div></div></div></div>`
  );
}

/** The all-offers fragment for one page: the pinned buybox offer on page 1, then the list. */
export function aodFragment(v: View, asin: string, pageno: number, filters: string | null): string | null {
  const found = productById(asin);
  if (!found) return null;
  const all = offersOf(asin);
  // Without a filter the buybox offer is pinned above the list (on page 1 only) and not listed.
  const pinned = !filters && pageno === 1 ? all[0] : undefined;
  const listed = filterOffers(filters ? all : all.slice(1), filters);
  const slice = listed.slice((pageno - 1) * OFFERS_PER_PAGE, pageno * OFFERS_PER_PAGE);
  const p = found.product;
  return (
    `<div id="aod-container" class="a-section a-spacing-none"><div id="aod-asin-block" class="a-section">` +
    `<div id="aod-asin-title"><h5 id="aod-asin-title-text" class="a-size-base-plus a-spacing-none a-color-base a-text-normal">${esc(p.title)}</h5></div>` +
    `<div id="aod-asin-reviews-block"><i class="a-icon a-icon-star-mini"><span class="a-icon-alt">${esc(v.words.stars(p.rating))}</span></i> <span id="aod-asin-reviews-count-title" class="a-size-small">${esc(v.words.ratings(p.reviews))}</span></div></div>` +
    `<input type="hidden" id="aod-total-offer-count" name="aod-total-offer-count" value="${listed.length + (filters ? 0 : 1)}">` +
    `${pinned ? `<div id="aod-pinned-offer" class="a-section a-spacing-none">${offerBlock(pinned, asin, v, 'aod-pinned-offer-main', 0)}</div>` : ''}` +
    `<div id="aod-offer-list">${slice.map((o, i) => offerBlock(o, asin, v, 'aod-offer', (pageno - 1) * OFFERS_PER_PAGE + i + 1)).join('')}</div></div>`
  );
}

export function sellerPage(v: View, id: string): string | null {
  const s = sellerById(id);
  if (!s) return null;
  if (s.storefront) return storefrontPage(v, s);
  const feedback = [
    { stars: 5, text: 'Fast and as described', by: 'Cara', date: '2 June 2025' },
    { stars: 2, text: 'Arrived late', by: 'Dev', date: '30 May 2025' },
  ];
  const rows = feedback
    .map((f, i) => `<li class="feedbackRow feedbackRow-${i % 2 ? 'odd' : 'even'}"><ul><li class="feedback-num ${f.stars > 3 ? 'feedbackGreen' : 'feedbackRed'}"><b>${f.stars}</b> out of <b>5</b>:</li><li class="feedback-comment">"${esc(f.text)}"</li><li class="feedback-rater-date"> ${esc(f.by)}, ${f.date}</li></ul></li>`)
    .join('');
  const cell = (cls: string, pct: number) => `<span class="${cls}">${pct}</span><span class="feedbackPercent">%</span>`;
  const line = (label: string, cls: string, v4: number[]) =>
    `<tr><td class="feedbackColumnHeader" nobr> ${label}</td>${['feedback30Days', 'feedback90Days', 'feedback365Days', 'feedbackLifetime ie8hax'].map((c, i) => `<td class="${c}"> ${cell(cls, v4[i] as number)} </td>`).join('')}</tr>`;
  const body =
    `<div id="page-wrap"><div id="content"><div class="amabot_right" id="rightcol"><div class="blueBorder aag_legalinfo"><h1 class="a-size-base-plus a-color-state a-text-bold"> Detailed Seller Information </h1>` +
    `<ul class="a-unordered-list a-nostyle a-vertical aagLegalData"><li class="aagLegalRow"><span class="bold">Business Name:</span> ${esc(s.businessName)}</li>` +
    `<li class="aagLegalRow"><span class="bold">Business Address:</span> <ul class="displayAddress">${s.address.map((a) => `<li>${esc(a)}</li>`).join('')}</ul></li></ul></div>` +
    `<h3> About Seller </h3><p class="a-text-normal"> <div>${esc(s.about)}</div></p>` +
    `<div class="aag_feebackContainer aag_glanceFeedback"><ul class="a-unordered-list a-nostyle a-vertical feedback-glance"><li class="feedback-inlineHdr"><h3> Recent Feedback: </h3></li>${rows}</ul>` +
    `<table class="feedbackTable"><tbody><tr class="feedbackRowHeader"><td class='feedbackTableCorner'>Feedback</td><td class='feedback30DaysLabel'><nobr>30 days</nobr></td><td class='feedback90DaysLabel'><nobr>90 days</nobr></td><td class='feedback365DaysLabel'><nobr>365 days</nobr></td><td class='feedbackLifetimeLabel ie8hax'>Lifetime</td></tr>` +
    line('Positive', 'feedbackPosPercent', [90, 92, 95, 96]) + line('Neutral', 'feedbackNeuPercent', [5, 3, 2, 2]) + line('Negative', 'feedbackNegPercent', [5, 5, 3, 2]) +
    `<tr><td class="feedbackColumnHeader" nobr> Count</td><td class="feedback30Days"> 20 </td><td class="feedback90Days"> 61 </td><td class="feedback365Days"> 1,200 </td><td class="feedbackLifetime ie8hax"> 4,321 </td></tr></tbody></table></div></div>` +
    `<div id="aag_header"><h1> ${esc(s.name)} </h1><ul class="a-unordered-list a-nostyle a-vertical"><li class="aag_hdrFeedback"><h4>Feedback Rating:</h4><div class="feedbackMeanRating"><b>4.7</b> stars over the past 12 months (<b>1,200</b> ratings)</div></li></ul></div></div></div>`;
  return shell(v, `Amazon.com Seller Profile: ${s.name}`, body);
}

/**
 * The 2021+ seller page (`#seller-profile-container`: `#seller-name`, the feedback summary,
 * `#page-section-detail-seller-info` rows, the about text) with the seller's storefront grid
 * below it: search-result cards, the first one a sponsored card of another seller's product.
 */
function storefrontPage(v: View, s: SimSeller): string {
  const products = (s.storefront ?? []).map((asin) => productById(asin)?.product).filter((p) => p !== undefined);
  const ad = productById('B0SIMLMP01')?.product;
  const cards = [...(ad ? [card(ad, v, 1, 1, '', true)] : []), ...products.map((p, i) => card(p, v, i + 2, i + 1, '', false))];
  const row = (label: string, value: string) => `<div class="a-row a-spacing-none"><span class="a-text-bold">${label}</span><span>${esc(value)}</span></div>`;
  const body =
    `<div id="seller-profile-container" class="a-section"><div class="a-row"><h1 id="seller-name" class="a-size-extra-large">${esc(s.name)}</h1></div>` +
    `<div id="seller-info-storefront-link" class="a-row"><span class="a-size-base"><a class="a-link-normal" href="/s?me=${s.id}&marketplaceID=ATVPDKIKX0DER">Visit the ${esc(s.name)} storefront</a></span></div>` +
    `<div id="seller-info-feedback-summary" class="a-row"><i class="a-icon a-icon-star a-star-4-5"><span class="a-icon-alt">4.5 out of 5 stars</span></i> <span class="a-color-base">93% positive in the last 12 months (812 ratings)</span></div>` +
    `<div id="spp-expander-about-seller" class="a-section"><div class="a-row">${esc(s.about)}</div></div>` +
    `<div id="page-section-detail-seller-info" class="a-section">${row('Business Name:', s.businessName)}<div class="a-row a-spacing-none"><span class="a-text-bold">Business Address:</span></div>` +
    `${s.address.map((l) => `<div class="a-row a-spacing-none indent-left"><span>${esc(l)}</span></div>`).join('')}</div></div>` +
    `<div id="seller-products" class="a-section"><h2>Products</h2><div class="s-main-slot s-result-list s-search-results sg-row">${cards.join('')}</div></div>`;
  return shell(v, `Amazon.com Seller Profile: ${s.name}`, body);
}

export function homePage(v: View): string {
  return shell(v, 'Amazon.com. Spend less. Smile more.', '<div id="desktop-banner"><h2>Welcome</h2></div>');
}

/** The address-selection fragment: the CSRF token the address change must send back. */
export function addressFragment(v: View): string {
  return (
    `<div id="GLUXAddressBlock"><div class="a-section"><span class="a-size-base">Delivery options and delivery speeds may vary for different locations</span></div>` +
    `<input id="GLUXZipUpdateInput" type="text" maxlength="10" aria-label="or enter a US zip code" class="GLUX_Full_Width a-declarative">` +
    `<script type="text/javascript">P.when('GLUXWidget').execute(function(w){ w.init({ isSignedIn : false, CSRF_TOKEN : "${v.token}", IDs : {} }); });</script></div>`
  );
}
