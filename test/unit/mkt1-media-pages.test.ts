/**
 * The 2018-2020 media product page (books, music) and the classic offer-listing row, on small
 * pages written here in their markup: the byline's first contributor as the brand (not its
 * hidden author card, its role or its `Format:` label), the binding span left out of the title,
 * the add-to-cart form's id (not the variation family's), the media tab's "Buy new" price, the
 * `#detail-bullets` list of the US pages, and an offer row's estimated tax that is no shipping
 * price. The generic commerce reading of the same product page is checked beside it.
 */
import { describe, expect, it } from 'vitest';
import { parseProduct as parseGenericProduct } from '../../core/targets/commerce/product.js';
import { PARSERS } from '../../core/targets/mkt1/parsers.js';

type J = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const AUTHOR_CARD = `<div class="a-popover-preload" id="a-popover-contributor-info-B00AAAAAAA"><div class="a-section">
  <span class="a-size-medium">Ada North <span class="a-color-secondary">(Author)</span></span>
  <a class="a-link-normal" href="/Ada-North/e/B00AAAAAAA">Visit Amazon's Ada North Page</a> Find all the books, read about the author, and more.</div></div>`;

const MEDIA_PAGE = `<!doctype html><html><head><title>Quiet Harbour Songs</title></head><body>
<span id="twisterNonJsData"><input type="hidden" name="ASIN" value="B0FAMILY00"></span>
<div id="centerCol">
  <h1 id="title" class="a-size-large"><span id="productTitle" class="a-size-large">Quiet Harbour Songs
    <span class="a-size-medium a-color-secondary a-text-normal">Original recording</span></span></h1>
  <div id="byline" class="a-section a-spacing-micro bylineHidden feature"> by
    <span class="author notFaded">${AUTHOR_CARD}
      <a data-asin="B00AAAAAAA" class="a-link-normal contributorNameID" href="/Ada-North/e/B00AAAAAAA">Ada North</a>
      <span class="contribution"><span class="a-color-secondary">(Author), </span></span></span>
    <span class="author notFaded"><a class="a-link-normal" href="/s?field-author=Ben+South">Ben South</a>
      <span class="contribution"><span class="a-color-secondary">(Illustrator)</span></span></span>
    <i class="a-icon a-icon-text-separator"></i><span class="a-color-secondary">Format: </span><span>Audio CD</span>
  </div>
  <div id="averageCustomerReviews" data-asin="B0MEDIA001">
    <span id="acrPopover" title="4.6 out of 5 stars"><i class="a-icon a-icon-star a-star-4-5"><span class="a-icon-alt">4.6 out of 5 stars</span></i></span>
    <a id="acrCustomerReviewLink" href="/product-reviews/B0MEDIA001"><span id="acrCustomerReviewText" class="a-size-base">621 customer reviews</span></a>
  </div>
  <div id="imgBlkFront"><img id="imgBlkFront" src="https://images.example/I/41gHB8KelXL._SX258_.jpg"></div>
</div>
<div id="rightCol"><div id="buybox_feature_div">
  <div id="mediaNoAccordion" class="a-section no-accordion-row">
    <span class="a-size-medium header-text">Buy new</span>
    <span class="a-size-medium a-color-price header-price"> $50.39 </span>
    <div id="availability"><span class="a-size-medium a-color-success"> In Stock. </span></div>
    <div id="merchant-info"> Ships from and sold by Amazon.com. </div>
    <form id="addToCart"><input type="hidden" id="ASIN" name="ASIN" value="B0MEDIA001"><input id="add-to-cart-button" type="submit" value="Add to Cart"></form>
  </div>
</div></div>
<div id="detail-bullets"><table id="productDetailsTable"><tr><td class="bucket"><h2>Product details</h2><div class="content"><ul>
  <li><b>Audio CD:</b> 12 tracks</li>
  <li><b>Label:</b> Harbour Records (April 3, 2018)</li>
  <li><b>Average Customer Review:</b> 4.6 out of 5 stars 621 customer reviews</li>
  <li id="SalesRank"><b>Amazon Best Sellers Rank:</b> #5,838 in CDs &amp; Vinyl (<a href="https://www.amazon.com/gp/bestsellers/music">See Top 100 in CDs &amp; Vinyl</a>)</li>
</ul></div></td></tr></table></div>
</body></html>`;

/** A classic offer-listing row: the price, the shipping line (a price, or only an estimated tax), the seller. */
const olpRow = (price: string, shipping: string, seller: string, id: string) => `<div class="a-row a-spacing-mini olpOffer" role="row">
  <div class="a-column a-span2 olpPriceColumn"><span class="a-size-large a-color-price olpOfferPrice a-text-bold"> ${price} </span>
    <p class="olpShippingInfo"><span class="a-color-secondary">${shipping}</span></p></div>
  <div class="a-column a-span3 olpConditionColumn"><span class="a-size-medium olpCondition a-text-bold"> New </span></div>
  <div class="a-column a-span2 olpSellerColumn"><h3 class="olpSellerName"><span><a href="/gp/aag/main/ref=olp_merch_name_1?ie=UTF8&amp;asin=B0MEDIA001&amp;seller=${id}">${seller}</a></span></h3>
    <p>97% positive over the past 12 months. (1,720 total ratings)</p></div>
</div>`;

const OFFER_PAGE = `<!doctype html><html><body>
<div id="olpProductDetails"><h1 class="a-size-large">Quiet Harbour Songs</h1></div>
<div id="olpOfferList">
${olpRow('$19.99', '<span class="olpEstimatedTaxText"> + $1.65 estimated tax </span>', 'Oasis Sounds', 'A1OASIS0000001')}
${olpRow('$12.50', '+ <span class="olpShippingPrice">$3.99</span> <span class="olpShippingPriceText">shipping</span>', 'Harbour Books', 'A2HARBOR000002')}
</div></body></html>`;

const URL = 'https://www.amazon.com/Quiet-Harbour-Songs/dp/B0MEDIA001';

describe('2018-2020 media product page', () => {
  it('a 2023+ book keeps its blurb in the tabbed description panel, not in #productDescription', () => {
    const tab = `<div id="productDescription_feature_div" data-feature-name="productDescription" class="a-section feature"><div data-a-name="tab0" class="a-box a-box-tab a-tab-content productInfoTabContent" role="tabpanel"><div class="a-box-inner">
      <div id="productInfoTabExpander0" class="pInfoTabCExpander"><div class="pInfoTabCExpander-collapse"><div class="pInfoTabCExpander-content">
      <div id="drengr_DesktopTabbedDescriptionOverviewContent_feature_div" class="celwidget" data-feature-name="drengr_DesktopTabbedDescriptionOverviewContent">
      <span class="a-text-bold">A harbour town, a lost song </span><span class="a-text-bold a-text-italic">and a storm.</span><span><br><br>Twelve quiet tracks.</span></div></div></div></div></div></div></div>`;
    const html = MEDIA_PAGE.replace('</body>', `${tab}</body>`);
    expect((PARSERS['mkt1/product']!({ html, url: URL, page: 1, params: {} }).json as J).description).toBe('A harbour town, a lost song and a storm. Twelve quiet tracks.');
  });

  it('a 2018-2020 `zg_hrsr` sub-rank keeps its whole ladder, and a padded twister label is trimmed', () => {
    const ladder = `<ul class="zg_hrsr"><li class="zg_hrsr_item"><span class="zg_hrsr_rank">#12</span>
    <span class="zg_hrsr_ladder">in&nbsp;<a href="https://www.amazon.com/gp/bestsellers/music/ref=pd_zg_hrsr_music_1_1">CDs &amp; Vinyl</a> &gt; <b><a href="https://www.amazon.com/gp/bestsellers/music/67207/ref=pd_zg_hrsr_music_1_2_last">Folk</a></b></span></li></ul>`;
    const twister = `<script>var dataToReturn = { "dimensions" : ["size_name"], "dimensionValuesDisplayData" : {"B0MEDIA001":["Deluxe"],"B0MEDIA002":["Standard"]}, "variationDisplayLabels" : {"size_name":"Edition\\r\\n\\r\\n"} };</script>`;
    const html = MEDIA_PAGE.replace('See Top 100 in CDs &amp; Vinyl</a>)', `See Top 100 in CDs &amp; Vinyl</a>)${ladder}`).replace('</body>', `${twister}</body>`);
    const j = PARSERS['mkt1/product']!({ html, url: URL, page: 1, params: {} }).json as J;
    expect(j.sales_rank).toEqual([
      { rank: 5838, ladder: [{ url: 'https://www.amazon.com/gp/bestsellers/music', name: 'CDs & Vinyl' }] },
      {
        rank: 12,
        ladder: [
          { url: 'https://www.amazon.com/gp/bestsellers/music/ref=pd_zg_hrsr_music_1_1', name: 'CDs & Vinyl' },
          { url: 'https://www.amazon.com/gp/bestsellers/music/67207/ref=pd_zg_hrsr_music_1_2_last', name: 'Folk' },
        ],
      },
    ]);
    expect(j.variation).toEqual([
      { product_id: 'B0MEDIA001', selected: true, dimensions: { Edition: 'Deluxe' } },
      { product_id: 'B0MEDIA002', selected: false, dimensions: { Edition: 'Standard' } },
    ]);
  });

  it('mkt1 reads the contributor, the bare title, the form id, the buy-new price and the detail bullets', () => {
    const j = PARSERS['mkt1/product']!({ html: MEDIA_PAGE, url: URL, page: 1, params: {} }).json as J;
    expect({
      title: j.title,
      brand: j.brand,
      product_id: j.product_id,
      parent_product_id: j.parent_product_id,
      price: j.price,
      price_buybox: j.price_buybox,
      currency: j.currency,
      stock: j.stock,
      rating: j.rating,
      reviews_count: j.reviews_count,
      product_details: j.product_details,
      sales_rank: j.sales_rank,
      merchant: j.featured_merchant.name,
    }).toEqual({
      title: 'Quiet Harbour Songs',
      brand: 'Ada North',
      product_id: 'B0MEDIA001',
      parent_product_id: 'B0MEDIA001',
      price: 50.39,
      price_buybox: 50.39,
      currency: 'USD',
      stock: 'In Stock.',
      rating: 4.6,
      reviews_count: 621,
      product_details: { audio_cd: '12 tracks', label: 'Harbour Records (April 3, 2018)' },
      sales_rank: [{ rank: 5838, ladder: [{ url: 'https://www.amazon.com/gp/bestsellers/music', name: 'CDs & Vinyl' }] }],
      merchant: 'Amazon.com',
    });
  });

  it('a byline of labels only names no brand', () => {
    const html = MEDIA_PAGE.replace(/<div id="byline"[\s\S]*?Audio CD<\/span>\s*<\/div>/, '<div id="bylineInfo"><span class="a-color-secondary">Rated: </span><span>NR (Not Rated)</span> <span class="a-color-secondary">Format: </span><span>DVD</span></div>');
    expect((PARSERS['mkt1/product']!({ html, url: URL, page: 1, params: {} }).json as J).brand).toBe('');
    expect((parseGenericProduct({ html, url: 'https://fixture.invalid/page', page: 1, params: {} }).json as J).brand).toBeNull();
  });

  it('the generic reading finds the same contributor and review count, and a French rating and count', () => {
    const en = parseGenericProduct({ html: MEDIA_PAGE, url: 'https://fixture.invalid/page', page: 1, params: {} }).json as J;
    expect({ brand: en.brand, rating: en.rating, reviews_count: en.reviews_count }).toEqual({ brand: 'Ada North', rating: 4.6, reviews_count: 621 });
    const fr = MEDIA_PAGE.replaceAll('4.6 out of 5 stars', '4,6 étoiles sur 5').replace('621 customer reviews', '7 commentaires client').replace(' by\n', ' de\n');
    const j = parseGenericProduct({ html: fr, url: 'https://fixture.invalid/page', page: 1, params: {} }).json as J;
    expect({ brand: j.brand, rating: j.rating, reviews_count: j.reviews_count }).toEqual({ brand: 'Ada North', rating: 4.6, reviews_count: 7 });
  });
});

describe('classic offer-listing rows', () => {
  it('an estimated tax on the shipping line is no shipping price', () => {
    const j = PARSERS['mkt1/pricing']!({ html: OFFER_PAGE, url: 'https://www.amazon.com/gp/offer-listing/B0MEDIA001', page: 1, params: {} }).json as J;
    expect((j.pricing as J[]).map((o) => [o.price, o.price_shipping, o.seller, o.seller_id])).toEqual([
      [19.99, 0, 'Oasis Sounds', 'A1OASIS0000001'],
      [12.5, 3.99, 'Harbour Books', 'A2HARBOR000002'],
    ]);
  });
});
