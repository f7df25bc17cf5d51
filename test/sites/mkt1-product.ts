/**
 * The mkt1 simulator's product page (`/dp/<id>`), in the 2024+ layout of the captured pages:
 * `#productTitle`, `#bylineInfo`, `#acrPopover`, `#corePriceDisplay_desktop_feature_div`
 * (`.priceToPay`, `.basisPrice`, `.savingsPercentage`), the buybox (`#availability`,
 * `#mir-layout-DELIVERY_BLOCK` with `data-csa-c-delivery-*`, `#merchantInfoFeature_feature_div`,
 * `#fulfillerInfoFeature_feature_div`, `select#quantity`, `#add-to-cart-button`),
 * `#feature-bullets`, `table.prodDetTable` rows with the sales rank, `#histogramTable`,
 * `[data-hook=review]` cards, and the inline `'colorImages'` and twister scripts.
 *
 * A parent product without `psc=1` shows its variations and no buybox; a `regional` product
 * has no buybox until a delivery postal code is set.
 */
import type { SimProduct } from './mkt1-data.js';
import { convert, productById, sellerById } from './mkt1-data.js';
import type { View } from './mkt1-shell.js';
import { esc, priceHtml, shell, starsHtml } from './mkt1-shell.js';

export const DELIVERY_DATE = 'Friday, June 27';

function images(asin: string): string[] {
  return [1, 2].map((i) => `https://images.sim.example/images/I/${asin}-${i}._AC_SL1500_.jpg`);
}

function imageScript(asin: string): string {
  const list = images(asin).map((hiRes) => ({ hiRes, thumb: hiRes.replace('SL1500', 'US40'), large: hiRes.replace('_AC_SL1500_', '_AC_'), variant: 'MAIN' }));
  return `<script type="text/javascript">P.when('A').register("ImageBlockATF", function(A){ var data = { 'colorImages': { 'initial': ${JSON.stringify(list)}}, 'colorToAsin': {'initial': {}} }; return data; });</script>`;
}

function twister(p: SimProduct, selected: string): string {
  const kids = p.parentOf ?? [];
  const values = Object.fromEntries(kids.map((k) => [k.asin, [k.size, k.color]]));
  const data = `{"parentAsin" : "${p.asin}", "dimensions" : ["size_name","color_name"], "dimensionValuesDisplayData" : ${JSON.stringify(values)}, "variationDisplayLabels" : {"size_name":"Size","color_name":"Color"} }`;
  const swatches = kids.map((k) => `<li data-asin="${k.asin}" class="${k.asin === selected ? 'swatchSelect' : 'swatchAvailable'}"><span class="a-list-item">${esc(k.size)}</span></li>`).join('');
  return (
    `<div id="twister_feature_div"><div id="twister"><div id="variation_size_name"><label class="a-form-label">Size: </label><ul>${swatches}</ul></div></div></div>` +
    `<script type="a-state" data-a-state='{"key":"twister-js-init-dpx-data"}'>${data}</script>`
  );
}

function buybox(p: SimProduct, asin: string, v: View): string {
  const seller = sellerById(p.sellerId);
  const price = convert(p.price, v.currency);
  const shipsFrom = p.fulfilledByMarketplace ? 'Amazon' : (seller?.name ?? '');
  const qty = Array.from({ length: 10 }, (_, i) => `<option value="${i + 1}">${i + 1}</option>`).join('');
  return (
    `<div id="buybox"><div id="qualifiedBuybox">` +
    `<div id="deliveryBlockMessage"><div id="mir-layout-DELIVERY_BLOCK"><div id="mir-layout-DELIVERY_BLOCK-slot-PRIMARY_DELIVERY_MESSAGE_LARGE">` +
    `<span data-csa-c-type="element" data-csa-c-delivery-price="FREE" data-csa-c-delivery-time="${DELIVERY_DATE}" data-csa-c-delivery-type="delivery">${esc(v.words.freeDelivery)} <span class="a-text-bold">${DELIVERY_DATE}</span></span>` +
    `</div></div></div>` +
    `<div id="availability" class="a-section a-spacing-base"><span class="a-size-medium a-color-success"> ${esc(v.words.inStock)} </span></div>` +
    `<div id="selectQuantity"><span class="a-dropdown-container"><select name="quantity" autocomplete="off" id="quantity" class="a-native-dropdown">${qty}</select></span></div>` +
    `<span id="submit.add-to-cart" class="a-button a-button-primary"><input id="add-to-cart-button" name="submit.add-to-cart" title="Add to Cart" type="submit" value="Add to Cart"></span>` +
    `<div id="offerDisplayFeatures_desktop"><div id="fulfillerInfoFeature_feature_div" class="celwidget"><div class="offer-display-feature-label"><span class="a-size-small a-color-tertiary">${esc(v.words.shipsFrom)}</span></div>` +
    `<div class="offer-display-feature-text"><span class="a-size-small offer-display-feature-text-message">${esc(shipsFrom)}</span></div></div>` +
    `<div id="merchantInfoFeature_feature_div" class="celwidget"><div class="offer-display-feature-label"><span class="a-size-small a-color-tertiary">${esc(v.words.soldBy)}</span></div>` +
    `<div class="offer-display-feature-text"><span class="a-size-small offer-display-feature-text-message"><a id="sellerProfileTriggerId" href="/gp/help/seller/at-a-glance.html/ref=dp_merchant_link?ie=UTF8&amp;seller=${p.sellerId}&amp;asin=${asin}">${esc(seller?.name ?? '')}</a></span></div></div></div>` +
    `</div></div>` +
    `<div id="olpLinkWidget_feature_div"><div id="dynamic-aod-ingress-box"><span class="daodi-header-font">Other sellers on Amazon</span>` +
    `<a class="a-link-normal" href="/gp/offer-listing/${asin}/ref=dp_olp_NEW_mbc?ie=UTF8&amp;condition=NEW"><span class="a-color-base">New (3) from</span> ${priceHtml(price, v, { size: 'base_plus' })} <span class="a-color-base">&amp; FREE Shipping</span></a></div></div>`
  );
}

function detailRows(p: SimProduct, asin: string): string {
  const row = (k: string, val: string) => `<tr><th class="a-color-secondary a-size-base prodDetSectionEntry"> ${k} </th><td class="a-size-base prodDetAttrValue"> ${val} </td></tr>`;
  return (
    `<div id="prodDetails"><table id="productDetails_techSpec_section_1" class="a-keyvalue prodDetTable" role="presentation">${row('Brand', esc(p.brand))}${row('Model Number', `SIM-${asin.slice(-4)}`)}</table>` +
    `<table id="productDetails_detailBullets_sections1" class="a-keyvalue prodDetTable" role="presentation">${row('ASIN', asin)}` +
    `<tr><th class="a-color-secondary a-size-base prodDetSectionEntry"> Best Sellers Rank </th><td><span><span>#1,234 in Home &amp; Kitchen (<a href="/gp/bestsellers/home/ref=pd_zg_ts_home">See Top 100 in Home &amp; Kitchen</a>)</span><br><span>#7 in <a href="/gp/bestsellers/${p.category.slug}/${p.category.node}/ref=pd_zg_hrsr_${p.category.slug}">${esc(p.category.name)}</a></span><br></span></td></tr>` +
    `${row('Date First Available', '1 March 2024')}</table></div>`
  );
}

function reviewsHtml(p: SimProduct, v: View): string {
  const histogram = [5, 4, 3, 2, 1]
    .map((s, i) => {
      const pct = [70, 15, 8, 3, 4][i] as number;
      return `<li class="a-align-center a-spacing-none"><span class="a-list-item"><a aria-label="${pct} percent of reviews have ${s} stars" class="a-size-base a-link-normal" href="/product-reviews/${p.asin}/ref=acr_dp_hist_${s}"><div class="a-section a-spacing-none a-text-left aok-nowrap">${s} star</div><div class="a-section a-spacing-none"><div class="a-meter"></div></div><div class="a-section a-spacing-none a-text-right aok-nowrap">${pct}%</div></a></span></li>`;
    })
    .join('');
  const review = (id: string, author: string, stars: number, title: string, body: string, verified: boolean) =>
    `<div id="${id}" data-hook="review" class="a-section review aok-relative"><div class="a-row a-spacing-mini"><a href="/gp/profile/amzn1.account.SIM${author.toUpperCase()}/ref=cm_cr_dp_d_gw_tr" class="a-profile"><div class="a-profile-content"><span class="a-profile-name">${esc(author)}</span></div></a></div>` +
    `<div class="a-row"><a class="a-link-normal" href="/gp/customer-reviews/${id}/ref=cm_cr_dp_d_rvw_ttl" data-hook="review-title"><i data-hook="review-star-rating" class="a-icon a-icon-star a-star-${stars} review-rating"><span class="a-icon-alt">${stars}.0 out of 5 stars</span></i><span class="a-letter-space"></span><span>${esc(title)}</span></a></div>` +
    `<span data-hook="review-date" class="a-size-base a-color-secondary review-date">Reviewed in the United States on May 2, 2025</span>` +
    `${verified ? '<div class="a-row a-spacing-mini review-data review-format-strip"><span data-hook="avp-badge" class="a-size-mini a-color-state a-text-bold">Verified Purchase</span></div>' : ''}` +
    `<div class="a-row a-spacing-small review-data"><span data-hook="review-body" class="a-size-base review-text"><div class="a-expander-content reviewText review-text-content"><span>${esc(body)}</span></div></span></div>` +
    `<div class="a-row a-spacing-small"><span data-hook="helpful-vote-statement" class="a-size-base a-color-tertiary cr-vote-text">12 people found this helpful</span></div></div>`;
  return (
    `<div id="reviewsMedley"><span data-hook="total-review-count" class="a-size-base a-color-secondary">${esc(v.words.ratings(p.reviews))}</span>` +
    `<ul id="histogramTable" class="a-unordered-list a-nostyle a-vertical">${histogram}</ul>` +
    review('R1SIMREVIEW1', 'Ada', 5, 'Just right', 'Bright enough for reading.', true) +
    review('R2SIMREVIEW2', 'Ben', 3, 'Fine', 'Does the job.', false) +
    `</div>`
  );
}

export function productPage(v: View, asin: string, autoselect: boolean): string | null {
  const found = productById(asin);
  if (!found) return null;
  const { product: p } = found;
  // A parent asks for a variation unless the default one is auto-selected.
  const child = found.child ?? (autoselect ? p.parentOf?.[0] : undefined);
  const shown = child?.asin ?? asin;
  const withBuybox = !(p.parentOf && !child) && !(p.regional && !v.zip);
  const price = convert(p.price, v.currency);
  const list = p.listPrice !== undefined ? convert(p.listPrice, v.currency) : undefined;
  const pct = list !== undefined ? Math.round((1 - p.price / (p.listPrice as number)) * 100) : undefined;
  const corePrice = withBuybox
    ? `<div id="corePriceDisplay_desktop_feature_div" class="celwidget"><div class="a-section apex-core-price-identifier"><div class="a-section a-spacing-none aok-align-center aok-relative">` +
      `${pct !== undefined ? `<span class="a-size-large a-color-price savingPriceOverride aok-align-center reinventPriceSavingsPercentageMargin savingsPercentage">-${pct}%</span>` : ''}` +
      `${priceHtml(price, v, { cls: 'aok-align-center reinventPricePriceToPayMargin priceToPay' })}</div>` +
      `${list !== undefined ? `<div class="a-section a-spacing-small aok-align-center"><span class="a-size-small a-color-secondary aok-align-center basisPrice">List Price: ${priceHtml(list, v, { size: 's', strike: true })}</span></div>` : ''}` +
      `</div></div>`
    : `<div id="buybox-see-all-buying-choices"><span class="a-button"><a href="/gp/offer-listing/${shown}/ref=dp_olp_unknown_mbc" class="a-button-text">See All Buying Options</a></span></div>`;
  const body =
    `<div id="dp" class="sim en_US"><div id="wayfinding-breadcrumbs_feature_div"><ul class="a-unordered-list a-horizontal">` +
    `<li><span class="a-list-item"><a class="a-link-normal a-color-tertiary" href="/b/ref=dp_bc_1?ie=UTF8&amp;node=900000">Home &amp; Kitchen</a></span></li>` +
    `<li><span class="a-list-item"><a class="a-link-normal a-color-tertiary" href="/b/ref=dp_bc_2?ie=UTF8&amp;node=${p.category.node}">${esc(p.category.name)}</a></span></li></ul></div>` +
    `<div id="imageBlock"><img id="landingImage" src="${images(shown)[0]!.replace('_AC_SL1500_', '_AC_SX466_')}" data-old-hires="${images(shown)[0]}"></div>` +
    `<div id="centerCol"><div id="title_feature_div"><h1 id="title" class="a-size-large a-spacing-none"><span id="productTitle" class="a-size-large product-title-word-break"> ${esc(p.title)} </span></h1></div>` +
    `<div id="bylineInfo_feature_div"><a id="bylineInfo" class="a-link-normal" href="/stores/${encodeURIComponent(p.brand)}/page/00000000-SIM">Visit the ${esc(p.brand)} Store</a></div>` +
    `<div id="averageCustomerReviews_feature_div"><div id="averageCustomerReviews" data-asin="${shown}"><span id="acrPopover" class="reviewCountTextLinkedHistogram noUnderline" title="${esc(v.words.stars(p.rating))}">${starsHtml(p.rating, v, 'a-icon-star')}</span>` +
    `<a id="acrCustomerReviewLink" href="#customerReviews"><span id="acrCustomerReviewText" class="a-size-base">${esc(v.words.ratings(p.reviews))}</span></a></div></div>` +
    `${p.boughtLastMonth ? `<div id="socialProofingAsinFaceout_feature_div"><span id="social-proofing-faceout-title-tk_bought" class="a-text-bold">${esc(p.boughtLastMonth)}</span></div>` : ''}` +
    corePrice +
    `${p.parentOf ? twister(p, shown) : ''}` +
    `<div id="featurebullets_feature_div"><div id="feature-bullets" class="a-section a-spacing-medium a-spacing-top-small"><ul class="a-unordered-list a-vertical a-spacing-mini">` +
    `${p.bullets.map((b) => `<li><span class="a-list-item"> ${esc(b)} </span></li>`).join('')}</ul></div></div></div>` +
    `${withBuybox ? buybox(p, shown, v) : ''}` +
    `${detailRows(p, shown)}` +
    `<div id="productDescription_feature_div"><div id="productDescription" class="a-section a-spacing-small"><p><span>${esc(p.title)}. ${esc(p.bullets.join('. '))}.</span></p></div></div>` +
    `${reviewsHtml(p, v)}` +
    `<form id="addToCart"><input type="hidden" id="ASIN" name="ASIN" value="${shown}"></form></div>` +
    imageScript(shown);
  const head = `<link rel="canonical" href="https://www.sim.example/${encodeURIComponent(p.title.split(',')[0]!.replace(/\s+/g, '-'))}/dp/${shown}">`;
  return shell(v, `${p.title} : Amazon`, body, head);
}
