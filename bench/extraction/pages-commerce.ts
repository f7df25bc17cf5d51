/**
 * Extraction corpus: product pages written after the markup of real shops (content made up).
 * Each carries the traps real pages carry: related-product carousels with their own prices,
 * footers, breadcrumbs, "free shipping over $50" banners — fields the page does not state must
 * stay unfilled.
 */
import { ABSENT, type PageCase } from './score.js';

const html = (head: string, body: string): string => `<!doctype html><html lang="en"><head><meta charset="utf-8">${head}</head><body>${body}</body></html>`;
const ld = (data: unknown): string => `<script type="application/ld+json">${JSON.stringify(data)}</script>`;

/** Fields no product page here states: each must stay unfilled. */
const NOT_ON_PRODUCT_PAGES = {
  type: 'object',
  properties: { author: { type: 'string' }, isbn: { type: 'string' }, publication_date: { type: 'string', format: 'date' }, phone: { type: 'string' }, warranty_years: { type: 'integer' }, discount_percent: { type: 'number' } },
};
const absentOnProducts = { author: ABSENT, isbn: ABSENT, publication_date: ABSENT, phone: ABSENT, warranty_years: ABSENT, discount_percent: ABSENT };

const PRODUCT = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    price: { type: 'number' },
    currency: { type: 'string' },
    brand: { type: 'string' },
    sku: { type: 'string' },
    in_stock: { type: 'boolean' },
    rating: { type: 'number' },
    review_count: { type: 'integer' },
    image: { type: 'string', format: 'uri' },
  },
};

const relatedCards = (items: Array<[string, string, string]>): string =>
  `<section class="related-products"><h2>You may also like</h2><ul class="grid">${items
    .map(([name, slug, price]) => `<li class="grid__item"><div class="card"><a href="/products/${slug}"><img src="/img/${slug}.jpg" alt="${name}"></a><h3 class="card__heading"><a href="/products/${slug}">${name}</a></h3><span class="price-item price-item--regular">${price}</span></div></li>`)
    .join('')}</ul></section>`;

export const COMMERCE_PAGES: PageCase[] = [
  {
    id: 'shop-product-jsonld',
    follows: 'Shopify theme product page: JSON-LD Product, og:price meta, price-item classes, related products grid',
    url: 'https://northpeak.example/products/alpine-daypack-28l',
    html: html(
      `<title>Alpine Daypack 28L – Northpeak</title><meta property="og:title" content="Alpine Daypack 28L"><meta property="og:type" content="product">` +
        `<meta property="product:price:amount" content="89.00"><meta property="product:price:currency" content="USD"><meta property="og:site_name" content="Northpeak">` +
        ld({
          '@context': 'http://schema.org/',
          '@type': 'Product',
          name: 'Alpine Daypack 28L',
          url: 'https://northpeak.example/products/alpine-daypack-28l',
          sku: 'NP-ADP-28',
          brand: { '@type': 'Brand', name: 'Northpeak' },
          image: ['https://northpeak.example/cdn/alpine-daypack-28l.jpg'],
          description: 'A 28 litre daypack with a ventilated back panel.',
          offers: [{ '@type': 'Offer', availability: 'http://schema.org/InStock', price: '89.00', priceCurrency: 'USD', url: 'https://northpeak.example/products/alpine-daypack-28l?variant=1' }],
          aggregateRating: { '@type': 'AggregateRating', ratingValue: '4.8', reviewCount: '23' },
        }),
      `<header class="header"><nav><a href="/">Home</a> <a href="/collections/all">Shop</a></nav><div class="announcement-bar">Free shipping on orders over $50</div></header>` +
        `<main id="MainContent"><nav class="breadcrumbs"><a href="/">Home</a> / <a href="/collections/packs">Packs</a></nav>` +
        `<div class="product"><h1 class="product__title">Alpine Daypack 28L</h1><div class="price"><span class="price-item price-item--regular">$89.00 USD</span></div>` +
        `<p class="product__text">Northpeak</p><div class="rating" role="img" aria-label="4.8 out of 5.0 stars"></div><p class="rating-count">(23 reviews)</p>` +
        `<div class="product__description"><p>A 28 litre daypack with a ventilated back panel.</p></div></div>` +
        relatedCards([
          ['Trail Bottle 750 ml', 'trail-bottle', '$24.00'],
          ['Summit Shell Jacket', 'summit-shell', '$249.00'],
          ['Camp Mug', 'camp-mug', '$18.00'],
        ]) +
        `</main><footer class="footer"><p>© 2024 Northpeak. Call us: +1 555 0100</p></footer>`,
    ),
    schemas: [
      {
        name: 'product',
        schema: PRODUCT,
        expected: {
          name: 'Alpine Daypack 28L', price: 89, currency: 'USD', brand: 'Northpeak', sku: 'NP-ADP-28', in_stock: true, rating: 4.8, review_count: 23,
          image: 'https://northpeak.example/cdn/alpine-daypack-28l.jpg',
        },
      },
      { name: 'traps', schema: NOT_ON_PRODUCT_PAGES, expected: absentOnProducts },
      {
        name: 'other names',
        schema: { type: 'object', properties: { title: { type: 'string' }, cost: { type: 'number' }, stars: { type: 'number' }, description: { type: 'string' }, old_price: { type: 'number' } } },
        expected: { title: 'Alpine Daypack 28L', cost: 89, stars: 4.8, description: 'A 28 litre daypack with a ventilated back panel.', old_price: ABSENT },
      },
    ],
  },
  {
    id: 'marketplace-product-plain',
    follows: 'large marketplace product page without structured data: productTitle, a-offscreen price, acrCustomerReviewText, detail bullets, carousel of other products',
    url: 'https://www.marketplace.example/dp/B0SIMKETTLE',
    html: html(
      `<title>Boilwell K2 Electric Kettle, 1.7 L, 3000 W : Marketplace.example: Home &amp; Kitchen</title><meta name="description" content="Boilwell K2 Electric Kettle, 1.7 L">`,
      `<div id="nav-belt"><a href="/">marketplace</a><span id="glow-ingress-line2">Deliver to London W1</span></div>` +
        `<div id="dp-container"><div id="centerCol"><h1 id="title" class="a-size-large"><span id="productTitle" class="a-size-large product-title-word-break">   Boilwell K2 Electric Kettle, 1.7 L, 3000 W   </span></h1>` +
        `<div id="bylineInfo_feature_div"><a id="bylineInfo" href="/stores/Boilwell">Visit the Boilwell Store</a></div>` +
        `<div id="averageCustomerReviews"><span id="acrPopover" title="4.4 out of 5 stars"><span class="a-icon-alt">4.4 out of 5 stars</span></span> <span id="acrCustomerReviewText">1,287 ratings</span></div>` +
        `<div id="corePrice_feature_div"><span class="a-price aok-align-center"><span class="a-offscreen">£34.99</span><span aria-hidden="true"><span class="a-price-symbol">£</span><span class="a-price-whole">34<span class="a-price-decimal">.</span></span><span class="a-price-fraction">99</span></span></span></div>` +
        `<div id="availability"><span class="a-size-medium a-color-success">In stock</span></div>` +
        `<div id="feature-bullets"><ul><li><span class="a-list-item">Boils 1.7 litres in under 4 minutes</span></li><li><span class="a-list-item">Limescale filter</span></li></ul></div></div>` +
        `<div id="productDetails_feature_div"><table id="productDetails_techSpec_section_1" class="a-keyvalue prodDetTable"><tbody>` +
        `<tr><th class="a-color-secondary a-size-base prodDetSectionEntry">Brand</th><td class="a-size-base prodDetAttrValue">Boilwell</td></tr>` +
        `<tr><th class="a-color-secondary a-size-base prodDetSectionEntry">Capacity</th><td class="a-size-base prodDetAttrValue">1.7 litres</td></tr>` +
        `<tr><th class="a-color-secondary a-size-base prodDetSectionEntry">Colour</th><td class="a-size-base prodDetAttrValue">Brushed steel</td></tr>` +
        `<tr><th class="a-color-secondary a-size-base prodDetSectionEntry">Item weight</th><td class="a-size-base prodDetAttrValue">1.2 kg</td></tr>` +
        `<tr><th class="a-color-secondary a-size-base prodDetSectionEntry">Item model number</th><td class="a-size-base prodDetAttrValue">K2-1700</td></tr>` +
        `<tr><th class="a-color-secondary a-size-base prodDetSectionEntry">ASIN</th><td class="a-size-base prodDetAttrValue">B0SIMKETTLE</td></tr></tbody></table></div>` +
        `<div id="sims-consolidated-1_feature_div" class="a-carousel-container"><h2>Customers who bought this item also bought</h2><ol class="a-carousel">` +
        [['Boilwell T4 Toaster', '£29.99', '4.1'], ['Mugful Tea Set', '£19.49', '4.6'], ['Descaler 2-pack', '£6.99', '4.3']]
          .map(([n, p, r]) => `<li class="a-carousel-card"><a class="a-link-normal" href="/dp/B0SIM${n!.length}"><img src="/i/${n!.length}.jpg" alt="${n}"><div class="p13n-sc-truncate">${n}</div></a><span class="a-icon-alt">${r} out of 5 stars</span><span class="a-size-base a-color-price">${p}</span></li>`)
          .join('') +
        `</ol></div></div><div id="navFooter"><a href="/help">Help</a></div>`,
    ),
    schemas: [
      {
        name: 'product',
        schema: {
          type: 'object',
          properties: {
            title: { type: 'string' }, price: { type: 'number' }, currency: { type: 'string' }, rating: { type: 'number' }, ratings_count: { type: 'integer' },
            brand: { type: 'string' }, colour: { type: 'string' }, item_weight: { type: 'string' }, model_number: { type: 'string' }, asin: { type: 'string' }, in_stock: { type: 'boolean' },
          },
        },
        expected: {
          title: 'Boilwell K2 Electric Kettle, 1.7 L, 3000 W', price: 34.99, currency: 'GBP', rating: 4.4, ratings_count: 1287, brand: 'Boilwell', colour: 'Brushed steel',
          item_weight: '1.2 kg', model_number: 'K2-1700', asin: 'B0SIMKETTLE', in_stock: true,
        },
      },
      { name: 'traps', schema: NOT_ON_PRODUCT_PAGES, expected: absentOnProducts },
      {
        name: 'more traps',
        schema: { type: 'object', properties: { old_price: { type: 'number' }, seller: { type: 'string' }, delivery_date: { type: 'string', format: 'date' }, gtin: { type: 'string' } } },
        expected: { old_price: ABSENT, seller: ABSENT, delivery_date: ABSENT, gtin: ABSENT },
      },
    ],
  },
  {
    id: 'woocommerce-product',
    follows: 'WooCommerce product page: product_title, woocommerce-Price-amount, stock paragraph, additional information table, upsells',
    url: 'https://tinkershop.example/product/brass-hand-plane/',
    html: html(
      `<title>Brass Hand Plane No. 4 – Tinker Shop</title><link rel="canonical" href="https://tinkershop.example/product/brass-hand-plane/">`,
      `<header id="masthead" class="site-header"><p class="site-title">Tinker Shop</p></header><div id="primary" class="content-area"><main id="main" class="site-main">` +
        `<div id="product-42" class="product type-product status-publish instock"><div class="summary entry-summary"><h1 class="product_title entry-title">Brass Hand Plane No. 4</h1>` +
        `<p class="price"><span class="woocommerce-Price-amount amount"><bdi>129,00&nbsp;<span class="woocommerce-Price-currencySymbol">&euro;</span></bdi></span></p>` +
        `<div class="woocommerce-product-details__short-description"><p>A smoothing plane with a bronze body and a 50 mm iron.</p></div>` +
        `<p class="stock in-stock">7 in stock</p><div class="product_meta"><span class="sku_wrapper">SKU: <span class="sku">TS-HP4</span></span> <span class="posted_in">Category: <a href="/c/planes" rel="tag">Planes</a></span></div></div>` +
        `<div class="woocommerce-tabs"><div id="tab-additional_information"><h2>Additional information</h2><table class="woocommerce-product-attributes shop_attributes"><tbody>` +
        `<tr class="woocommerce-product-attributes-item"><th class="woocommerce-product-attributes-item__label">Weight</th><td class="woocommerce-product-attributes-item__value">2.1 kg</td></tr>` +
        `<tr class="woocommerce-product-attributes-item"><th class="woocommerce-product-attributes-item__label">Material</th><td class="woocommerce-product-attributes-item__value"><p>Bronze, steel</p></td></tr></tbody></table></div></div>` +
        `<section class="up-sells upsells products"><h2>You may also like…</h2><ul class="products columns-3">` +
        ['Block Plane|59,00', 'Spokeshave|45,00', 'Card Scraper|12,50']
          .map((x) => x.split('|'))
          .map(([n, p]) => `<li class="product"><a href="/product/${n}/" class="woocommerce-LoopProduct-link"><img src="/w/${n}.jpg" alt=""><h2 class="woocommerce-loop-product__title">${n}</h2><span class="price"><span class="woocommerce-Price-amount amount"><bdi>${p}&nbsp;&euro;</bdi></span></span></a></li>`)
          .join('') +
        `</ul></section></div></main></div><footer id="colophon" class="site-footer">Tinker Shop · Hauptstraße 5 · 10115 Berlin</footer>`,
    ),
    schemas: [
      {
        name: 'product',
        schema: { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' }, currency: { type: 'string' }, sku: { type: 'string' }, stock_quantity: { type: 'integer' }, in_stock: { type: 'boolean' }, weight: { type: 'string' }, material: { type: 'string' }, category: { type: 'string' }, url: { type: 'string', format: 'uri' } } },
        expected: {
          name: 'Brass Hand Plane No. 4', price: 129, currency: 'EUR', sku: 'TS-HP4', stock_quantity: 7, in_stock: true, weight: '2.1 kg', material: 'Bronze, steel', category: 'Planes',
          url: 'https://tinkershop.example/product/brass-hand-plane/',
        },
      },
      { name: 'traps', schema: NOT_ON_PRODUCT_PAGES, expected: absentOnProducts },
      {
        name: 'more traps',
        schema: { type: 'object', properties: { rating: { type: 'number' }, review_count: { type: 'integer' }, brand: { type: 'string' }, color: { type: 'string' } } },
        expected: { rating: ABSENT, review_count: ABSENT, brand: ABSENT, color: ABSENT },
      },
    ],
  },
];
