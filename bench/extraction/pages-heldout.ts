/**
 * Extraction corpus, second part: pages written after the extractor was tuned on the first
 * part, and scored before any change was made for them (bench/README.md has that first score).
 * A book, a property listing, a forum thread, a code repository, a hotel, an app store page,
 * a product with a bundle offer aside, and a press release — after real sites' markup.
 */
import { ABSENT, type PageCase } from './score.js';

const html = (head: string, body: string): string => `<!doctype html><html lang="en"><head><meta charset="utf-8">${head}</head><body>${body}</body></html>`;
const ld = (data: unknown): string => `<script type="application/ld+json">${JSON.stringify(data)}</script>`;

export const HELDOUT_PAGES: PageCase[] = [
  {
    id: 'book-microdata',
    follows: 'bookshop product page: microdata Book with author, ISBN, pages, publisher; price in a buy box; "readers also enjoyed" shelf',
    url: 'https://pagesandco.example/book/the-salt-roads',
    html: html(
      `<title>The Salt Roads by Hana Ito | Pages &amp; Co</title>`,
      `<header class="site-header"><a href="/">Pages &amp; Co</a></header><main><div itemscope itemtype="https://schema.org/Book">` +
        `<h1 itemprop="name">The Salt Roads</h1><p class="author">by <a itemprop="author" href="/author/hana-ito">Hana Ito</a></p>` +
        `<img itemprop="image" src="/covers/salt-roads.jpg" alt="Cover"><dl class="details"><dt>ISBN</dt><dd itemprop="isbn">9780000000017</dd>` +
        `<dt>Pages</dt><dd itemprop="numberOfPages">312</dd><dt>Publisher</dt><dd itemprop="publisher">Northwind Press</dd><dt>Published</dt><dd><time itemprop="datePublished" datetime="2021-06-01">1 June 2021</time></dd></dl>` +
        `<div class="buy-box"><span class="price">£9.99</span> <span class="format">Paperback</span><button>Add to basket</button></div></div>` +
        `<section class="shelf"><h2>Readers also enjoyed</h2>${['Tide Tables|£8.99', 'The Quiet Harbour|£10.99', 'North of Nowhere|£7.49']
          .map((x) => x.split('|'))
          .map(([t, p]) => `<div class="book-card"><a href="/book/${t}"><img src="/covers/${t}.jpg" alt=""><h3>${t}</h3></a><span class="price">${p}</span></div>`)
          .join('')}</section></main>`,
    ),
    schemas: [
      {
        name: 'book',
        schema: { type: 'object', properties: { title: { type: 'string' }, author: { type: 'string' }, isbn: { type: 'string' }, pages: { type: 'integer' }, publisher: { type: 'string' }, published: { type: 'string', format: 'date' }, price: { type: 'number' }, currency: { type: 'string' } } },
        expected: { title: 'The Salt Roads', author: 'Hana Ito', isbn: '9780000000017', pages: 312, publisher: 'Northwind Press', published: '2021-06-01', price: 9.99, currency: 'GBP' },
      },
      {
        name: 'traps',
        schema: { type: 'object', properties: { rating: { type: 'number' }, review_count: { type: 'integer' }, translator: { type: 'string' }, edition: { type: 'string' }, old_price: { type: 'number' } } },
        expected: { rating: ABSENT, review_count: ABSENT, translator: ABSENT, edition: ABSENT, old_price: ABSENT },
      },
    ],
  },
  {
    id: 'property-listing',
    follows: 'property portal listing without structured data: price headline, key facts list, address line, agent box in a sidebar, similar homes',
    url: 'https://homes.example/expose/88123',
    html: html(
      `<title>3-room flat for sale, Leipzig – homes.example</title>`,
      `<main><h1>Bright 3-room flat with balcony</h1><p class="address">Karl-Liebknecht-Str. 40, 04275 Leipzig</p><div class="price-box"><span class="price">€ 289.000</span></div>` +
        `<ul class="key-facts"><li>Rooms: 3</li><li>Living area: 78 m²</li><li>Floor: 2 of 4</li><li>Year of construction: 1912</li><li>Available from: 2024-08-01</li></ul>` +
        `<div class="description"><h2>Description</h2><p>Renovated flat in a period building with a south-facing balcony and wooden floors throughout.</p></div></main>` +
        `<aside class="agent"><h3>Contact</h3><p>Kiez Immobilien</p><p>Phone: +49 341 000 777</p></aside>` +
        `<section class="similar-listings"><h2>Similar homes</h2>${['2-room flat|€ 199.000', 'Loft|€ 410.000', '4-room flat|€ 349.000']
          .map((x) => x.split('|'))
          .map(([t, p]) => `<div class="listing-card"><a href="/expose/${t}"><img src="/l/${t}.jpg" alt=""><h3>${t}</h3></a><span class="price">${p}</span></div>`)
          .join('')}</section>`,
    ),
    schemas: [
      {
        name: 'listing',
        schema: { type: 'object', properties: { title: { type: 'string' }, price: { type: 'number' }, currency: { type: 'string' }, rooms: { type: 'integer' }, living_area: { type: 'string' }, year_of_construction: { type: 'integer' }, address: { type: 'string' } } },
        expected: { title: 'Bright 3-room flat with balcony', price: 289000, currency: 'EUR', rooms: 3, living_area: '78 m²', year_of_construction: 1912, address: 'Karl-Liebknecht-Str. 40, 04275 Leipzig' },
      },
      {
        name: 'traps',
        schema: { type: 'object', properties: { parking: { type: 'string' }, heating: { type: 'string' }, energy_rating: { type: 'string' }, bathrooms: { type: 'integer' }, author: { type: 'string' }, rating: { type: 'number' } } },
        expected: { parking: ABSENT, heating: ABSENT, energy_rating: ABSENT, bathrooms: ABSENT, author: ABSENT, rating: ABSENT },
      },
    ],
  },
  {
    id: 'forum-thread',
    follows: 'forum thread page: question title, first post author and time, reply and view counters, replies by other users',
    url: 'https://forum.example/t/how-do-i-calibrate-a-printer/4821',
    html: html(
      `<title>How do I calibrate a printer bed? - Help - Maker Forum</title>`,
      `<header class="d-header"><a href="/">Maker Forum</a></header><main><div id="topic-title"><h1>How do I calibrate a printer bed?</h1><span class="category">Help</span></div>` +
        `<div class="topic-map"><span class="replies">12 replies</span> <span class="views">3.4k views</span></div>` +
        `<article class="topic-post" id="post_1"><div class="names"><span class="username">lina_m</span></div><time class="post-date" datetime="2024-02-20T18:04:00Z">Feb 20</time>` +
        `<div class="cooked"><p>My first layer never sticks at the corners. I tried 0.2 mm and 0.1 mm offsets.</p></div></article>` +
        `<article class="topic-post" id="post_2"><div class="names"><span class="username">tomasz</span></div><time class="post-date" datetime="2024-02-20T19:30:00Z">Feb 20</time>` +
        `<div class="cooked"><p>Use the paper method at all four corners, then run a mesh.</p></div></article></main>`,
    ),
    schemas: [
      {
        name: 'thread',
        schema: { type: 'object', properties: { title: { type: 'string' }, category: { type: 'string' }, replies: { type: 'integer' }, views: { type: 'integer' } } },
        expected: { title: 'How do I calibrate a printer bed?', category: 'Help', replies: 12, views: 3400 },
      },
      {
        name: 'traps',
        schema: { type: 'object', properties: { price: { type: 'number' }, likes: { type: 'integer' }, solved: { type: 'boolean' }, rating: { type: 'number' }, phone: { type: 'string' } } },
        expected: { price: ABSENT, likes: ABSENT, solved: ABSENT, rating: ABSENT, phone: ABSENT },
      },
    ],
  },
  {
    id: 'code-repository',
    follows: 'code hosting repository page: owner/name heading, about sidebar with description, licence and topics, star and fork counters, file list',
    url: 'https://code.example/fernwerk/tidepool',
    html: html(
      `<title>fernwerk/tidepool: A small job queue on SQLite</title><meta name="description" content="A small job queue on SQLite">`,
      `<header class="site-header"><a href="/">code.example</a></header><main><h1><a href="/fernwerk">fernwerk</a> / <strong><a href="/fernwerk/tidepool">tidepool</a></strong></h1>` +
        `<ul class="pagehead-actions"><li><a class="social-count" href="/fernwerk/tidepool/stargazers" aria-label="1204 users starred this repository">1.2k</a> Stars</li><li><a class="social-count" href="/fernwerk/tidepool/forks">87</a> Forks</li></ul>` +
        `<div class="repository-content"><table class="files"><tr><td><a href="/src">src</a></td><td>init</td></tr><tr><td><a href="/README.md">README.md</a></td><td>docs</td></tr></table>` +
        `<div class="BorderGrid-cell"><h2>About</h2><p class="f4">A small job queue on SQLite</p><h3>License</h3><p><a href="/LICENSE">MIT license</a></p>` +
        `<h3>Topics</h3><ul class="topics"><li>queue</li><li>sqlite</li><li>jobs</li></ul></div></div></main>`,
    ),
    schemas: [
      {
        name: 'repo',
        schema: { type: 'object', properties: { description: { type: 'string' }, license: { type: 'string' }, topics: { type: 'array', items: { type: 'string' } } } },
        expected: { description: 'A small job queue on SQLite', license: 'MIT license', topics: ['queue', 'sqlite', 'jobs'] },
      },
      {
        name: 'traps',
        schema: { type: 'object', properties: { price: { type: 'number' }, version: { type: 'string' }, downloads: { type: 'integer' }, author_email: { type: 'string' }, rating: { type: 'number' } } },
        expected: { price: ABSENT, version: ABSENT, downloads: ABSENT, author_email: ABSENT, rating: ABSENT },
      },
    ],
  },
  {
    id: 'hotel-jsonld',
    follows: 'hotel page: JSON-LD Hotel with address, star rating, check-in time and aggregate rating; room table; nearby hotels',
    url: 'https://stays.example/hotel/harbour-view-bergen',
    html: html(
      `<title>Harbour View Hotel, Bergen – Stays</title>` +
        ld({
          '@context': 'https://schema.org',
          '@type': 'Hotel',
          name: 'Harbour View Hotel',
          address: { '@type': 'PostalAddress', streetAddress: 'Bryggen 3', addressLocality: 'Bergen', postalCode: '5003', addressCountry: 'NO' },
          starRating: { '@type': 'Rating', ratingValue: '4' },
          checkinTime: '15:00',
          checkoutTime: '11:00',
          telephone: '+47 55 00 00 00',
          aggregateRating: { '@type': 'AggregateRating', ratingValue: '8.9', bestRating: '10', reviewCount: '1530' },
        }),
      `<main><h1>Harbour View Hotel</h1><table class="rooms"><thead><tr><th>Room</th><th>Sleeps</th><th>Price per night</th></tr></thead><tbody>` +
        `<tr><td>Double</td><td>2</td><td>NOK 1,450</td></tr><tr><td>Family</td><td>4</td><td>NOK 2,100</td></tr></tbody></table>` +
        `<section class="nearby"><h2>Nearby hotels</h2>${['Fjord Inn|7.9', 'Old Town Rooms|8.4', 'Quay Hostel|7.2']
          .map((x) => x.split('|'))
          .map(([n, s]) => `<div class="hotel-card"><a href="/hotel/${n}"><img src="/h/${n}.jpg" alt=""><h3>${n}</h3></a><span class="score">${s}</span></div>`)
          .join('')}</section></main>`,
    ),
    schemas: [
      {
        name: 'hotel',
        schema: { type: 'object', properties: { name: { type: 'string' }, city: { type: 'string' }, stars: { type: 'integer' }, rating: { type: 'number' }, reviews: { type: 'integer' }, check_in: { type: 'string' }, phone: { type: 'string' } } },
        expected: { name: 'Harbour View Hotel', city: 'Bergen', stars: 4, rating: 8.9, reviews: 1530, check_in: '15:00', phone: '+47 55 00 00 00' },
      },
      {
        name: 'traps',
        schema: { type: 'object', properties: { price: { type: 'number' }, email: { type: 'string' }, pets_allowed: { type: 'boolean' }, rooms_count: { type: 'integer' } } },
        expected: { price: ABSENT, email: ABSENT, pets_allowed: ABSENT, rooms_count: ABSENT },
      },
    ],
  },
  {
    id: 'app-store-page',
    follows: 'app catalogue page: JSON-LD SoftwareApplication with offers and rating, "more by this developer" row',
    url: 'https://apps.example/app/trailmap',
    html: html(
      `<title>TrailMap – Offline hiking maps – Apps</title>` +
        ld({
          '@context': 'https://schema.org',
          '@type': 'SoftwareApplication',
          name: 'TrailMap',
          operatingSystem: 'Android 10+',
          applicationCategory: 'TravelApplication',
          author: { '@type': 'Organization', name: 'Cairn Labs' },
          offers: { '@type': 'Offer', price: '0', priceCurrency: 'USD' },
          aggregateRating: { '@type': 'AggregateRating', ratingValue: '4.5', ratingCount: '20417' },
        }),
      `<main><h1>TrailMap</h1><p class="developer">Cairn Labs</p><div class="info"><div>Downloads</div><div>1M+</div><div>Content rating</div><div>Everyone</div></div>` +
        `<section class="more-by-dev"><h2>More by Cairn Labs</h2>${['Peak Finder|4.2', 'River Log|3.9', 'Snow Track|4.4']
          .map((x) => x.split('|'))
          .map(([n, r]) => `<div class="app-card"><a href="/app/${n}"><img src="/a/${n}.png" alt=""><h3>${n}</h3></a><span class="rating">${r}</span></div>`)
          .join('')}</section></main>`,
    ),
    schemas: [
      {
        name: 'app',
        schema: { type: 'object', properties: { name: { type: 'string' }, developer: { type: 'string' }, os: { type: 'string', title: 'Operating system' }, price: { type: 'number' }, rating: { type: 'number' }, rating_count: { type: 'integer' } } },
        expected: { name: 'TrailMap', developer: 'Cairn Labs', os: 'Android 10+', price: 0, rating: 4.5, rating_count: 20417 },
      },
      {
        name: 'traps',
        schema: { type: 'object', properties: { size_mb: { type: 'number' }, version: { type: 'string' }, updated: { type: 'string', format: 'date' }, in_app_purchases: { type: 'boolean' } } },
        expected: { size_mb: ABSENT, version: ABSENT, updated: ABSENT, in_app_purchases: ABSENT },
      },
    ],
  },
  {
    id: 'product-with-bundle-aside',
    follows: 'small shop product page with microdata Offer, a strikethrough list price, and a bundle offer in a sidebar',
    url: 'https://gearhut.example/p/headlamp-400',
    html: html(
      `<title>Headlamp 400 lm – GearHut</title>`,
      `<main><div itemscope itemtype="http://schema.org/Product"><h1 itemprop="name">Headlamp 400 lm</h1><span itemprop="brand">Lumix Outdoor</span>` +
        `<div itemprop="offers" itemscope itemtype="http://schema.org/Offer"><del class="list-price">$39.99</del> <span class="sale-price" itemprop="price" content="29.99">$29.99</span>` +
        `<meta itemprop="priceCurrency" content="USD"><link itemprop="availability" href="http://schema.org/InStock"></div>` +
        `<p itemprop="description">A 400 lumen headlamp with a red night mode and USB-C charging.</p></div></main>` +
        `<aside class="sidebar"><div class="bundle"><h3>Bundle: Headlamp + 2 batteries</h3><span class="price">$44.99</span></div></aside>`,
    ),
    schemas: [
      {
        name: 'product',
        schema: { type: 'object', properties: { name: { type: 'string' }, brand: { type: 'string' }, price: { type: 'number' }, currency: { type: 'string' }, in_stock: { type: 'boolean' }, description: { type: 'string' } } },
        expected: { name: 'Headlamp 400 lm', brand: 'Lumix Outdoor', price: 29.99, currency: 'USD', in_stock: true, description: 'A 400 lumen headlamp with a red night mode and USB-C charging.' },
      },
      {
        name: 'traps',
        schema: { type: 'object', properties: { rating: { type: 'number' }, weight: { type: 'string' }, sku: { type: 'string' }, author: { type: 'string' } } },
        expected: { rating: ABSENT, weight: ABSENT, sku: ABSENT, author: ABSENT },
      },
    ],
  },
  {
    id: 'press-release',
    follows: 'corporate press release: dateline, body paragraphs, "About the company" boilerplate, media contact block',
    url: 'https://fernwerk.example/press/2024-05-03-new-depot',
    html: html(
      `<title>Fernwerk opens a new depot in Hamburg | Press | Fernwerk</title><meta property="og:title" content="Fernwerk opens a new depot in Hamburg">` +
        `<meta property="article:published_time" content="2024-05-03T08:00:00+02:00">`,
      `<header class="site-header"><nav><a href="/press">Press</a></nav></header><main><article><h1>Fernwerk opens a new depot in Hamburg</h1>` +
        `<p><strong>HAMBURG, May 3, 2024</strong> — Fernwerk today opened its fourth depot, adding 120 jobs.</p>` +
        `<h2>About Fernwerk</h2><p>Fernwerk runs same-day freight in northern Germany.</p>` +
        `<div class="media-contact"><h2>Media contact</h2><p>Email: press@fernwerk.example</p></div></article></main>`,
    ),
    schemas: [
      {
        name: 'release',
        schema: { type: 'object', properties: { headline: { type: 'string' }, published: { type: 'string', format: 'date' }, contact_email: { type: 'string' } } },
        expected: { headline: 'Fernwerk opens a new depot in Hamburg', published: '2024-05-03', contact_email: 'press@fernwerk.example' },
      },
      {
        name: 'traps',
        schema: { type: 'object', properties: { author: { type: 'string' }, price: { type: 'number' }, phone: { type: 'string' }, rating: { type: 'number' }, stock_symbol: { type: 'string' } } },
        expected: { author: ABSENT, price: ABSENT, phone: ABSENT, rating: ABSENT, stock_symbol: ABSENT },
      },
    ],
  },
];
