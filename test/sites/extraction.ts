/**
 * Simulator pages for custom extraction (`json.schema` / `json.prompt`), under `/x/`. Each page
 * carries its facts in one kind of markup only, so a test shows which reader found them. The
 * markup follows real shop and article pages (JSON-LD @graph, microdata with nested Offer,
 * spec tables, "Label: value" bullets, product-card grids); the content is made up.
 */
import type { SiteHandler } from './types.js';

const layout = (title: string, head: string, body: string): string =>
  `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><title>${title}</title>${head}</head>` +
  `<body><header><nav><a href="/">Home</a> <a href="/x/listing">Shop</a></nav></header>${body}` +
  `<footer><p>© Example Shop. Prices include VAT.</p></footer></body></html>`;

const PRODUCT_JSONLD = {
  '@context': 'https://schema.org',
  '@graph': [
    { '@type': 'Organization', '@id': '#org', name: 'Example Shop', logo: { '@type': 'ImageObject', url: 'https://shop.example/logo.png' } },
    { '@type': 'WebPage', '@id': '#page', name: 'Aero 3000 Espresso Machine | Example Shop', publisher: { '@id': '#org' } },
    {
      '@type': 'Product',
      name: 'Aero 3000 Espresso Machine',
      description: 'A compact espresso machine with a 15-bar pump and steam wand.',
      sku: 'AERO-3000',
      image: ['https://shop.example/img/aero-3000.jpg', 'https://shop.example/img/aero-3000-side.jpg'],
      brand: { '@type': 'Brand', name: 'Aero' },
      offers: { '@type': 'Offer', price: '1299.00', priceCurrency: 'EUR', availability: 'https://schema.org/InStock', seller: { '@id': '#org' } },
      aggregateRating: { '@type': 'AggregateRating', ratingValue: '4.6', reviewCount: '128' },
    },
  ],
};

const PAGES: Record<string, () => string> = {
  '/x/product-jsonld': () =>
    layout(
      'Aero 3000 Espresso Machine | Example Shop',
      `<meta property="og:title" content="Aero 3000 Espresso Machine"><meta property="og:site_name" content="Example Shop">` +
        `<script type="application/ld+json">${JSON.stringify(PRODUCT_JSONLD)}</script>`,
      `<main><h1>Aero 3000 Espresso Machine</h1><p class="lead">Pull café-quality shots at home.</p></main>`,
    ),

  '/x/product-microdata': () =>
    layout(
      'Trail Runner GTX | Example Shop',
      '',
      `<main><div itemscope itemtype="https://schema.org/Product">
  <h1 itemprop="name">Trail Runner GTX</h1>
  <img itemprop="image" src="/img/trail-runner.jpg" alt="Trail Runner GTX">
  <p itemprop="description">Waterproof trail shoe with a grippy outsole.</p>
  <span itemprop="brand" itemscope itemtype="https://schema.org/Brand"><meta itemprop="name" content="Stride"></span>
  <div itemprop="offers" itemscope itemtype="https://schema.org/Offer">
    <span itemprop="price" content="89.95">$89.95</span><meta itemprop="priceCurrency" content="USD">
    <link itemprop="availability" href="https://schema.org/OutOfStock">Out of stock
  </div>
  <div itemprop="aggregateRating" itemscope itemtype="https://schema.org/AggregateRating">
    Rated <span itemprop="ratingValue">4.2</span>/5 from <span itemprop="reviewCount">57</span> reviews
  </div>
</div></main>`,
    ),

  '/x/product-rdfa': () =>
    layout(
      'Desk Lamp Lumo | Example Shop',
      '',
      `<main vocab="https://schema.org/" typeof="Product"><h1 property="name">Desk Lamp Lumo</h1>
  <div property="offers" typeof="Offer"><span property="price" content="34.50">34,50 €</span><meta property="priceCurrency" content="EUR"></div>
  <span property="brand" typeof="Brand"><span property="name">Lumo</span></span></main>`,
    ),

  '/x/spec-table': () =>
    layout(
      'Kettle K2 – Specifications',
      '',
      `<main><h1>Kettle K2</h1><h2>Specifications</h2><table class="specs"><tbody>
  <tr><th>Brand</th><td>Boilwell</td></tr>
  <tr><th>Item model number</th><td>K2-1700</td></tr>
  <tr><th>Capacity</th><td>1,7 l</td></tr>
  <tr><th>Price</th><td>1.299,00 €</td></tr>
  <tr><th>Availability</th><td>In stock</td></tr>
  <tr><th>Customer rating</th><td>4,3 von 5 Sternen</td></tr>
</tbody></table></main>`,
    ),

  '/x/label-value': () =>
    layout(
      'Widget Pro',
      '',
      `<main><h1>Widget Pro</h1><ul class="facts">
  <li><b>Price:</b> $12.99</li><li><b>Brand:</b> Acme</li><li><b>Rating:</b> 4.5 out of 5 stars</li>
  <li><b>Reviews:</b> 1,204</li><li><b>Stock:</b> In stock</li>
</ul><p>Shipping: free over $25<br>Weight: 250 g</p></main>`,
    ),

  '/x/listing': () =>
    layout(
      'Coffee grinders | Example Shop',
      '',
      `<main><h1>Coffee grinders</h1><ul class="grid">
${[
  ['Burr Grinder One', '/p/burr-one', '/img/burr-one.jpg', '$149.00', '4.7'],
  ['Hand Mill Classic', '/p/hand-mill', '/img/hand-mill.jpg', '$39.50', '4.1'],
  ['Grindmaster 9', '/p/grindmaster-9', '/img/gm9.jpg', '$1,049.99', '4.9'],
]
  .map(
    ([name, href, img, price, rating]) =>
      `<li class="product-card"><a href="${href}"><img src="${img}" alt="${name}"></a>` +
      `<h3 class="product-card__title"><a href="${href}">${name}</a></h3>` +
      `<span class="product-card__price">${price}</span>` +
      `<span class="stars" aria-label="${rating} out of 5 stars"></span></li>`,
  )
  .join('\n')}
</ul><nav class="pager"><a href="?page=2">Next</a></nav></main>`,
    ),

  '/x/table-listing': () =>
    layout(
      'Price list',
      '',
      `<main><h1>Price list</h1><table><thead><tr><th>Product</th><th>SKU</th><th>Price</th></tr></thead><tbody>
  <tr><td><a href="/p/a">Filter papers</a></td><td>FP-100</td><td>£4.20</td></tr>
  <tr><td><a href="/p/b">Descaler</a></td><td>DS-250</td><td>£7.95</td></tr>
</tbody></table></main>`,
    ),

  '/x/article': () =>
    layout(
      'How to dial in espresso – Example Journal',
      `<meta name="description" content="A practical guide to grind size, dose and yield.">` +
        `<meta property="og:title" content="How to dial in espresso"><meta property="article:published_time" content="2024-03-05T09:30:00+01:00">` +
        `<meta name="author" content="Mara Lind"><link rel="canonical" href="https://journal.example/dial-in">`,
      `<main><article><h1>How to dial in espresso</h1><p class="byline">By Mara Lind</p>` +
        `<p>Dialling in means adjusting grind size until the shot runs in 25 to 30 seconds for a 1:2 ratio.</p>` +
        `<h2>What you need</h2><ul><li>Scale</li><li>Timer</li><li>Fresh beans</li></ul></article></main>`,
    ),
};

export const extractionSite: SiteHandler = (req, res, url) => {
  if (!url.pathname.startsWith('/x/')) return false;
  const page = PAGES[url.pathname];
  if (req.method !== 'GET' || !page) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    return true;
  }
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page());
  return true;
};
