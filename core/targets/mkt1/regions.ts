/**
 * What the mkt1 product parser reads of a product page, as the elements `loadPruned` keeps
 * (core/parsers/prune.ts): a 2 MB product page is mostly sponsored carousels, A+ content and
 * review widgets no field comes from, and building their DOM was most of the parse.
 *
 * The rule for this list: every element a query of product.ts, product-info.ts,
 * product-offer.ts, product-media.ts or `pageOf` can RETURN is kept (an element kept whole
 * keeps everything inside it). Elements a selector only tests as ancestors (`#buybox` in
 * `#buybox i.a-icon-prime`) need not be: the cut keeps every kept element's ancestors with
 * their attributes. A new query on the product page needs its element here, else it sees
 * nothing; `test/unit/mkt1-regions.test.ts` parses pages both ways.
 */
import type { Keep } from '../../parsers/prune.js';

/** Ids the product queries name (each such element is kept whole). */
const IDS = new Set([
  // Identity, title, byline, ratings.
  'ASIN', 'averageCustomerReviews', 'productTitle', 'title', 'ebooksProductTitle', 'bylineInfo', 'byline', 'brand', 'bylineInfo_feature_div',
  'acrPopover', 'acrCustomerReviewText', 'askATFLink', 'product-summary', 'social-proofing-faceout-title-tk_bought', 'dealBadge_feature_div',
  'addOnItem_feature_div', 'addon', 'acBadge_feature_div', 'histogramTable', 'videoCount',
  // Detail tables, rank, overview, breadcrumb, bullets, description, important information.
  'prodDetails', 'productDetailsTable', 'detailBullets_feature_div', 'detail_bullets_id', 'detail-bullets', 'detailBulletsWrapper_feature_div', 'SalesRank',
  'productDetails_techSpec_section_1', 'productDetails_techSpec_section_2', 'technicalSpecifications_section_1', 'productOverview_feature_div',
  'wayfinding-breadcrumbs_feature_div', 'wayfinding-breadcrumbs_container', 'feature-bullets', 'featurebullets_feature_div',
  'productDescription', 'bookDescription_feature_div', 'drengr_DesktopTabbedDescriptionOverviewContent_feature_div', 'important-information', 'importantInformation_feature_div',
  // Prices (the price blocks themselves are shells, below), stock, quantity, delivery, merchant, other sellers, coupons, prime, buybox.
  'priceblock_dealprice', 'priceblock_saleprice', 'priceblock_ourprice', 'price_inside_buybox', 'newBuyBoxPrice', 'kindle-price', 'price',
  'listPrice', 'priceblock_ourprice_row', 'sns-base-price', 'snsPrice', 'snsDetailPagePrice',
  'mir-layout-DELIVERY_BLOCK', 'deliveryBlockMessage', 'price-shipping-message', 'ourprice_shippingmessage', 'saleprice_shippingmessage',
  'availability', 'quantity', 'selectQuantity', 'sellerProfileTriggerId', 'merchant-info', 'olpLinkWidget_feature_div', 'olp_feature_div', 'olp-upd-new', 'olp-new', 'buybox-see-all-buying-choices',
  'couponBadgeRegularVpc', 'vpcButton', 'prime-badge', 'primeBadge',
  'add-to-cart-button', 'buy-now-button', 'newAccordionRow', 'newAccordionCaption_feature_div', 'buyNew_cbb',
  'buyNewSection', 'newOfferAccordionRow', 'mediaNoAccordion', 'buyNew_noncbb', 'buyBoxInner', 'tmmSwatches', 'outOfStock', 'usedBuySection', 'unqualifiedBuyBox', 'almMultiOfferEgress',
  // Gallery.
  'landingImage', 'imgBlkFront', 'ebooksImgBlkFront', 'main-image',
]);

const HOOKS = new Set(['average-star-rating', 'cr-insights-widget-summary']);

/**
 * Shells: elements kept with their attributes but, of their content, only what their readers
 * query (`prices` in a price block, `reviewOf` in a review). A price block is 30-60 kB of
 * offer panels around a few `.a-price` spans; a review is 8 kB of buttons and pop-overs.
 */
const PRICE_ROOTS = ['corePriceDisplay_desktop_feature_div', 'corePrice_desktop', 'apex_desktop', 'corePrice_feature_div', 'apex_offerDisplay_desktop'];
/** Shells by id, with the classes read in them (`.basisPrice .a-price` needs only the `.a-price`). */
const SHELLS = new Map<string, string>([
  ...PRICE_ROOTS.map((id): [string, string] => [id, 'price']),
  ['buybox', 'buybox'],
  ['promoPriceBlockMessage_feature_div', 'coupon'],
  ['merchantInfoFeature_feature_div', 'merchant'],
  ['fulfillerInfoFeature_feature_div', 'merchant'],
]);
const COUPON_CLASSES = ['couponLabelText'];
const MERCHANT_CLASSES = ['offer-display-feature-text-message'];
const PRICE_CLASSES = ['priceToPay', 'apexPriceToPay', 'a-price', 'a-text-price', 'savingsPercentage', 'savingPriceOverride'];
const REVIEW_HOOKS = new Set([
  'review-star-rating', 'cmps-review-star-rating', 'review-title', 'reviewTitle', 'review-body', 'reviewRichContentContainer', 'review-date',
  'genome-widget', 'helpful-vote-statement', 'format-strip', 'avp-badge', 'avp-badge-linkless',
]);
/** Classes `reviewOf` reads in a review (`i.a-icon-star`, `.a-icon-alt`, `a.a-profile`, ...). */
const REVIEW_CLASSES = ['a-icon-star', 'a-icon-alt', 'review-text-content', 'a-profile', 'a-profile-name'];

function hasToken(list: string | undefined, token: string): boolean {
  return list !== undefined && list.split(/\s+/).includes(token);
}

function hasAny(list: string | undefined, tokens: readonly string[]): boolean {
  if (list === undefined) return false;
  const own = list.split(/\s+/);
  return tokens.some((t) => own.includes(t));
}

/** Whether a shell's reader queries the element (inside shells `within`). */
function readInShell(tag: string, cls: string | undefined, hook: string | undefined, within: readonly string[]): boolean {
  if (within.includes('review') && ((hook !== undefined && REVIEW_HOOKS.has(hook)) || hasAny(cls, REVIEW_CLASSES))) return true;
  if (within.includes('price') && hasAny(cls, PRICE_CLASSES)) return true;
  if (within.includes('coupon') && hasAny(cls, COUPON_CLASSES)) return true;
  if (within.includes('merchant') && hasAny(cls, MERCHANT_CLASSES)) return true;
  // `#buybox i.a-icon-prime, #corePriceDisplay_desktop_feature_div i.a-icon-prime`.
  return tag === 'i' && (within.includes('buybox') || within.includes('price')) && hasToken(cls, 'a-icon-prime');
}

/** The elements of a product page the product parser reads. */
export const PRODUCT_KEEP: Keep = {
  attrs: ['id', 'name', 'rel', 'property', 'data-hook', 'aria-label', 'data-csa-c-delivery-time', 'class'],
  test(tag, a, within) {
    const id = a.get('id');
    if (id !== undefined && (IDS.has(id) || id.startsWith('couponText'))) return true;
    const shell = id === undefined ? undefined : SHELLS.get(id);
    if (shell !== undefined) return shell;
    const name = a.get('name');
    if (name === 'ASIN' || name === 'submit.add-to-cart') return true;
    if (a.get('rel') === 'canonical' || a.get('property') === 'og:url') return true;
    const hook = a.get('data-hook');
    if (hook !== undefined && HOOKS.has(hook)) return true;
    if (hook === 'review') return 'review';
    if (within.length > 0 && readInShell(tag, a.get('class'), hook, within)) return true;
    if (a.has('data-csa-c-delivery-time') || a.get('aria-label')?.includes('percent of reviews have')) return true;
    // `table.prodDetTable` rows.
    return tag === 'table' && hasToken(a.get('class'), 'prodDetTable');
  },
};
