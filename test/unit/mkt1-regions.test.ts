/**
 * The mkt1 product parser reads a cut page (core/targets/mkt1/regions.ts): its JSON must be
 * the JSON of the same parser on the whole page, for every simulator product page and for
 * hand-written pages that put the fields' elements in other layouts and next to look-alikes
 * (prices and prime badges in carousels, reviews in several lists, shells inside shells). A
 * page whose cut lacks a product title or id is loaded whole (the fallback).
 */
import { describe, expect, test } from 'vitest';
import { one } from '../../core/parsers/dom.js';
import type { PageInput } from '../../core/parsers/types.js';
import { pageOf } from '../../core/targets/mkt1/common.js';
import { parseProduct, productOf } from '../../core/targets/mkt1/product.js';
import { hasVideos } from '../../core/targets/mkt1/product-media.js';
import { PRODUCT_KEEP } from '../../core/targets/mkt1/regions.js';
import { PRODUCTS, WORDS } from '../sites/mkt1-data.js';
import { productPage } from '../sites/mkt1-product.js';
import type { View } from '../sites/mkt1-shell.js';

const VIEWS: View[] = [
  { domain: 'com', base: '/mkt1/com', currency: 'USD', home: 'USD', words: WORDS.en, city: 'New York', countryName: 'United States', token: 'tok' },
  { domain: 'de', base: '/mkt1/de', currency: 'EUR', home: 'EUR', words: WORDS.de, city: 'Berlin', countryName: 'Deutschland', token: 'tok' },
];

/** The parser's answer on the whole page. */
const whole = (input: PageInput) => productOf(input, pageOf(input));
const input = (html: string, url = 'https://www.example.com/dp/B0TEST0001'): PageInput => ({ html, url, page: 1, params: {} });

describe('simulator product pages: the cut gives the whole page answer', () => {
  const pages: [string, string][] = [];
  for (const v of VIEWS) {
    for (const p of PRODUCTS) {
      for (const asin of [p.asin, ...(p.parentOf ?? []).map((c) => c.asin)]) {
        for (const auto of [false, true]) {
          const html = productPage(v, asin, auto);
          if (html) pages.push([`${v.domain} ${asin}${auto ? ' psc' : ''}`, html]);
        }
      }
    }
  }
  test.each(pages)('%s', (_name, html) => {
    const i = input(html);
    const cut = parseProduct(i);
    expect(cut.status).not.toBe('unrecognised');
    expect(cut).toEqual(whole(i));
  });
});

const shell = (body: string) => `<!DOCTYPE html><html><head><title>T</title><link rel="canonical" href="https://www.example.co.uk/dp/B0TEST0001"></head><body>${body}</body></html>`;

/** Look-alikes outside the regions the parser reads: a sponsored carousel of cards. */
const carousel =
  '<div id="sims-consolidated-2_feature_div"><ol class="a-carousel"><li class="a-carousel-card"><div data-asin="B0OTHER001"><span class="a-price"><span class="a-offscreen">£1.00</span></span>' +
  '<i class="a-icon a-icon-prime"></i><span class="a-icon-alt">1.0 out of 5 stars</span><input type="hidden" name="ASIN.1" value="B0OTHER001"></div></li></ol></div>';

const HAND: Record<string, string> = {
  '2016 layout: legacy price, merchant sentence, SalesRank row, classic reviews': shell(
    '<div id="centerCol"><h1 id="title"><span id="productTitle"> Trail Compass </span></h1><a id="bylineInfo" href="/stores/Trail">Visit the Trail Store</a>' +
      '<table><tr id="priceblock_ourprice_row"><td><span id="priceblock_ourprice">£9.50</span><span class="a-text-strike">£12.00</span></td></tr></table>' +
      '<div id="merchant-info">Dispatched from and sold by <a href="/gp/help/seller?seller=A1B2C3">Trail Ltd</a>.</div>' +
      '<div id="olp_feature_div"><a href="/gp/offer-listing/B0TEST0001">16 new from £8.00</a></div></div>' +
      carousel +
      '<div id="prodDetails"><table><tr><td class="label">Weight</td><td class="value">120 g</td></tr><tr id="SalesRank"><td class="label">Best Sellers Rank</td><td class="value">#1,234 in Sports (<a href="/gp/bestsellers/sports">See Top 100</a>) #5 in <a href="/gp/bestsellers/compasses">Compasses</a></td></tr></table></div>' +
      '<div id="cm-cr-dp-review-list"><div id="R1" data-hook="review"><i data-hook="review-star-rating" class="a-icon-star"><span class="a-icon-alt">4.0 out of 5 stars</span></i><a data-hook="review-title"><span>Good</span></a><span data-hook="review-date">1 May 2016</span><span data-hook="review-body"><span>Works.</span><a class="a-expander-header">Read more</a></span><a class="a-profile" href="/gp/profile/amzn1.account.ABC"><span class="a-profile-name">Ann</span></a><span data-hook="helpful-vote-statement">One person found this helpful</span><span data-hook="avp-badge">Verified</span><div class="popover">lots of markup<span class="a-price"><span class="a-offscreen">£2</span></span></div></div></div>' +
      '<input type="hidden" id="ASIN" name="ASIN" value="B0TEST0001">',
  ),
  '2024 layout: shells inside shells, coupon, prime under the buybox, global reviews': shell(
    '<div id="ppd"><div id="centerCol"><span id="productTitle">Lumen Lamp</span><div id="averageCustomerReviews" data-asin="B0TEST0001"><span id="acrPopover" title="4.5 out of 5 stars"></span><span id="acrCustomerReviewText">1,234 ratings</span></div>' +
      '<div id="apex_desktop"><div id="corePriceDisplay_desktop_feature_div"><span class="a-price aok-align-center priceToPay"><span class="a-offscreen">$29.99</span></span><span class="savingsPercentage">-25%</span>' +
      '<div class="basisPrice">List: <span class="a-price a-text-price" data-a-strike="true"><span class="a-offscreen">$39.99</span></span></div><i class="a-icon a-icon-prime"></i></div>' +
      '<div id="promoPriceBlockMessage_feature_div"><div class="side"><span class="couponLabelText"> Save 5% with coupon </span><div>extra</div></div></div></div>' +
      '<div id="feature-bullets"><ul><li><span>One</span></li><li class="aok-hidden"><span>Hidden</span></li><li><span>Two</span></li></ul></div></div>' +
      '<div id="rightCol"><div id="buybox"><div class="x"><div id="availability"><span class="a-color-success">In Stock</span></div><span class="a-price"><span class="a-offscreen">$1</span></span>' +
      '<div id="deliveryBlockMessage"><span data-csa-c-delivery-time="Friday, June 27" data-csa-c-delivery-price="FREE">FREE delivery <b class="a-text-bold">Friday, June 27</b></span></div>' +
      '<div id="merchantInfoFeature_feature_div"><div class="offer-display-feature-text"><span class="offer-display-feature-text-message"><a id="sellerProfileTriggerId" href="/gp/help/seller/at-a-glance.html?seller=A9">Lumen Co</a></span></div><div class="popover">Sold by Lumen Co ...</div></div>' +
      '<div id="fulfillerInfoFeature_feature_div"><span class="offer-display-feature-text-message">Amazon</span></div><div id="primeBadge-wrap"><i class="a-icon a-icon-prime"></i></div>' +
      '<select id="quantity"><option value="1">1</option><option value="2">2</option></select><input id="add-to-cart-button" type="submit"></div></div></div></div>' +
      carousel +
      '<div id="customerReviews"><ul id="histogramTable"><li><a aria-label="72 percent of reviews have 5 stars"><span class="a-text-left">5 star</span><span class="a-text-right">72%</span></a></li></ul>' +
      '<ul id="cm-cr-global-review-list"><li id="customer_review_foreign-R9" data-hook="review"><span data-hook="genome-widget"><a href="/gp/profile/amzn1.account.XYZ"><span class="a-profile-name">Bo</span></a></span>' +
      '<i class="a-icon-star"><span class="a-icon-alt">5.0 out of 5 stars</span></i><span data-hook="reviewTitle">Great</span><div data-hook="reviewRichContentContainer">Bright.<span class="cr-translate">Translate</span></div><span data-hook="format-strip">Colour: White</span></li></ul></div>',
  ),
  'ids repeated in a carousel, rows and bullets beside look-alike tables': shell(
    '<span id="productTitle">First</span>' +
      carousel.replace('<div data-asin', '<span id="productTitle">Second</span><div data-asin') +
      '<table class="prodDetTable"><tr><th>Brand</th><td>Lumen</td></tr><tr><th>Manufacturer</th><td>Lumen GmbH</td></tr></table><table class="other"><tr><th>Brand</th><td>Other</td></tr></table>' +
      '<div id="detailBullets_feature_div"><ul><li><span class="a-text-bold">Publisher ‏ : ‎</span><span>Ryland</span></li><li class="zg_hrsr"><span class="a-text-bold">Rank</span></li></ul></div>' +
      '<div id="wayfinding-breadcrumbs_feature_div"><a href="/a">Home</a><a id="breadcrumb-back-link" href="/s">Back to results</a><a href="/b">Lamps</a></div>',
  ),
};

describe('hand-written product pages: the cut gives the whole page answer', () => {
  test.each(Object.entries(HAND))('%s', (_name, html) => {
    const i = input(html);
    const cut = parseProduct(i);
    expect(cut.status).not.toBe('unrecognised');
    expect(cut).toEqual(whole(i));
  });
});

describe('fallback to the whole page', () => {
  const strange = shell('<div class="hero"><h1 class="name">Not a product page</h1><span class="a-price"><span class="a-offscreen">$5</span></span></div><div id="availability">In Stock</div>');

  test('a cut without a product title or id: the whole page is loaded, and parsed as before', () => {
    const i = input(strange);
    const recognised = (doc: Parameters<typeof one>[1]) => one('#productTitle, #title, #ebooksProductTitle, input#ASIN, input[name="ASIN"]', doc) !== null;
    expect(one('h1.name', pageOf(i, PRODUCT_KEEP, recognised).doc)).not.toBeNull();
    expect(parseProduct(i)).toEqual(whole(i));
  });

  test('a product page is cut: elements no field reads are not in its DOM', () => {
    const i = input(HAND['2016 layout: legacy price, merchant sentence, SalesRank row, classic reviews'] as string);
    const page = pageOf(i, PRODUCT_KEEP, (doc) => one('#productTitle', doc) !== null);
    expect(one('#productTitle', page.doc)).not.toBeNull();
    expect(one('.a-carousel', page.doc)).toBeNull();
  });

  test('markup the scan leaves to the full parse (CDATA), and pages that end inside a tag, parse as before', () => {
    for (const html of [HAND['ids repeated in a carousel, rows and bullets beside look-alike tables'] + '<math><![CDATA[x]]></math>', strange + '<div title="unclosed']) {
      expect(parseProduct(input(html))).toEqual(whole(input(html)));
    }
  });
});

describe('raw-page reads', () => {
  test('the video block is looked for in the first 2,000,000 characters, as before', () => {
    const doc = pageOf(input('<p>x</p>')).doc;
    const block = '"videos" :\n [ {"url":"v"}]';
    expect(hasVideos(doc, `<script>var d = {${block}};</script>`)).toBe(true);
    expect(hasVideos(doc, `<script>var d = {"videos": []};</script>`)).toBe(false);
    expect(hasVideos(doc, `${' '.repeat(1_999_990)}${block}`)).toBe(false);
    expect(hasVideos(doc, `${' '.repeat(1_999_970)}${block}`)).toBe(true);
  });
});
