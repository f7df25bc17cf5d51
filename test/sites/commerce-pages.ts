/**
 * The commerce simulator's markup styles: the same catalogue as JSON-LD only, microdata only,
 * a state blob only, plain HTML cards, or a JSON API response. Each style's page carries its
 * facts in that one way (a JSON-LD page shows no price in its markup), so a parser test on it
 * proves that path. Hand-written; the shapes follow the real pages' conventions (script ids,
 * variable names, JSON paths), not their content.
 */
import { CATALOGUE, type SimProduct } from './commerce-data.js';

export type Style = 'jsonld' | 'jsonld-graph' | 'jsonld-broken' | 'jsonld-group' | 'microdata' | 'next-data' | 'preloaded-state' | 'initial-state' | 'cards' | 'api';

export interface PageContext {
  /** Absolute URL of the token's home page. */
  home: string;
  /** Absolute URL of a product's page on this token. */
  link(id: string): string;
  currency: string;
  /** The price as the site writes it. */
  show(amount: number): string;
  price(p: SimProduct): number;
  query: string;
  page: number;
  pages: number;
  total: number;
  nextUrl: string | null;
}

const esc = (s: string): string => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
const json = (v: unknown): string => JSON.stringify(v).replace(/</g, '\\u003c');
const doc = (title: string, head: string, body: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>${head}</head><body>${body}</body></html>`;
const img = (p: SimProduct): string => `https://img.shop.test/${p.id}.jpg`;

function ldProduct(p: SimProduct, ctx: PageContext): Record<string, unknown> {
  return {
    '@type': 'Product',
    '@id': ctx.link(p.id),
    name: p.title,
    sku: p.id,
    gtin13: p.gtin13,
    mpn: p.mpn,
    brand: { '@type': 'Brand', name: p.brand },
    image: [img(p)],
    description: p.description,
    url: ctx.link(p.id),
    additionalProperty: p.specs.map(([name, value]) => ({ '@type': 'PropertyValue', name, value })),
    aggregateRating: { '@type': 'AggregateRating', ratingValue: p.rating, reviewCount: p.reviews },
    offers: {
      '@type': 'Offer',
      price: ctx.price(p).toFixed(2),
      priceCurrency: ctx.currency,
      availability: p.inStock ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
      ...(p.old ? { priceSpecification: [{ '@type': 'UnitPriceSpecification', priceType: 'https://schema.org/ListPrice', price: p.old, priceCurrency: ctx.currency }] } : {}),
      seller: { '@type': 'Organization', name: 'Sim Shop' },
    },
  };
}

const crumbs = (ctx: PageContext) => ({
  '@type': 'BreadcrumbList',
  itemListElement: [
    { '@type': 'ListItem', position: 1, name: 'Home', item: ctx.home },
    { '@type': 'ListItem', position: 2, name: 'Outdoor' },
  ],
});

function ldGroup(p: SimProduct, ctx: PageContext): Record<string, unknown> {
  const base = ldProduct(p, ctx);
  if (p.sizes.length === 0) return base;
  const { offers, sku, ...rest } = base;
  void sku;
  return {
    ...rest,
    '@type': 'ProductGroup',
    productGroupID: p.id,
    variesBy: ['https://schema.org/size'],
    hasVariant: p.sizes.map(([id, size]) => ({ '@type': 'Product', sku: id, name: `${p.title} ${size}`, size, url: `${ctx.link(p.id)}?size=${size}`, offers })),
  };
}

export function productPage(style: Style, p: SimProduct, ctx: PageContext): string {
  const ld = (v: unknown, raw?: string): string => `<script type="application/ld+json">${raw ?? json(v)}</script>`;
  const plainBody = `<h1>${esc(p.title)}</h1><p>${esc(p.description)}</p>`;
  switch (style) {
    case 'jsonld':
      return doc(p.title, ld([ldProduct(p, ctx), crumbs(ctx)]), plainBody);
    case 'jsonld-graph':
      return doc(p.title, ld({ '@context': 'https://schema.org', '@graph': [{ '@type': 'WebSite', name: 'Sim' }, ldProduct(p, ctx), crumbs(ctx)] }), plainBody);
    case 'jsonld-broken':
      // A trailing comma and a comment, as hand-edited templates leave them.
      return doc(p.title, ld(null, json({ '@context': 'https://schema.org', ...ldProduct(p, ctx) }).replace(/}$/, ', /* end */ }')), plainBody);
    case 'jsonld-group':
      return doc(p.title, ld({ '@context': 'https://schema.org', '@graph': [ldGroup(p, ctx), crumbs(ctx)] }), plainBody);
    case 'microdata':
      return doc(p.title, '', microdataProduct(p, ctx, 'h1'));
    case 'next-data':
      return doc(p.title, '', `<div id="__next"></div><script id="__NEXT_DATA__" type="application/json">${json({ props: { pageProps: { initialData: { data: { product: stateProduct(p, ctx) } } } }, page: '/ip/[id]' })}</script>`);
    case 'preloaded-state':
      return doc(p.title, '', `<div id="root"></div><script>window.__PRELOADED_STATE__ = ${json({ product: { item: stateProduct(p, ctx) }, user: { signedIn: false } })};</script>`);
    case 'initial-state':
      return doc(p.title, '', `<div id="app"></div><script>window.__INITIAL_STATE__ = ${json({ pdp: { productBySkuId: stateProduct(p, ctx) } })}; window.__CFG__ = {"a":1};</script>`);
    case 'cards':
      return doc(p.title, '', cardsProduct(p, ctx));
    case 'api':
      return json({ code: 0, data: { product: stateProduct(p, ctx) } });
  }
}

function microdataProduct(p: SimProduct, ctx: PageContext, heading: 'h1' | 'h3'): string {
  return (
    `<div itemscope itemtype="https://schema.org/Product"><${heading} itemprop="name">${esc(p.title)}</${heading}>` +
    `<a itemprop="url" href="${esc(ctx.link(p.id))}">details</a><img itemprop="image" src="${img(p)}" alt="">` +
    `<span itemprop="brand" itemscope itemtype="https://schema.org/Brand"><span itemprop="name">${esc(p.brand)}</span></span>` +
    `<meta itemprop="sku" content="${p.id}"><meta itemprop="gtin13" content="${p.gtin13}">` +
    `<div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><meta itemprop="priceCurrency" content="${ctx.currency}">` +
    `<span itemprop="price" content="${ctx.price(p).toFixed(2)}">${esc(ctx.show(ctx.price(p)))}</span>` +
    `<link itemprop="availability" href="https://schema.org/${p.inStock ? 'InStock' : 'OutOfStock'}"></div>` +
    `<div itemprop="aggregateRating" itemscope itemtype="https://schema.org/AggregateRating"><span itemprop="ratingValue">${p.rating}</span>` +
    ` (<span itemprop="reviewCount">${p.reviews}</span>)</div></div>`
  );
}

/** A product as state blobs and APIs carry it (common key names, nested price box). */
function stateProduct(p: SimProduct, ctx: PageContext): Record<string, unknown> {
  return {
    sku_id: p.id,
    name: p.title,
    brand: { name: p.brand },
    canonical_url: ctx.link(p.id),
    image_info: { primary_image: { url: img(p) } },
    price_info: { current_price: { price: ctx.price(p), price_string: ctx.show(ctx.price(p)), currency_code: ctx.currency }, ...(p.old ? { was_price: { price: p.old } } : {}) },
    ratings: { average_rating: p.rating, review_count: p.reviews },
    availability_status: p.inStock ? 'IN_STOCK' : 'OUT_OF_STOCK',
    short_description: p.description,
  };
}

function cardsProduct(p: SimProduct, ctx: PageContext): string {
  return (
    `<nav class="breadcrumb"><a href="/">Home</a> › <a href="/outdoor">Outdoor</a></nav>` +
    `<h1 class="product-title">${esc(p.title)}</h1><div class="brand">${esc(p.brand)}</div>` +
    `<div class="gallery"><img src="${img(p)}" alt="${esc(p.title)}"></div>` +
    `<div class="rating" aria-label="${p.rating} out of 5 stars">${p.rating}</div><a href="#reviews">${p.reviews} reviews</a>` +
    `<div class="price-box"><span class="price-now">${esc(ctx.show(ctx.price(p)))}</span>` +
    (p.old ? `<del class="price-was">${esc(ctx.show(p.old))}</del>` : '') +
    `</div><div class="availability">${p.inStock ? 'In stock' : 'Out of stock'}</div>` +
    `<form id="add-to-cart" action="/cart/add"><input type="hidden" name="product_id" value="${p.id}"><button>Add to cart</button></form>` +
    `<section id="specs"><table>${p.specs.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`).join('')}</table></section>` +
    `<div id="description">${esc(p.description)}</div>`
  );
}

export function listingPage(style: Style, items: readonly SimProduct[], ctx: PageContext): string {
  const title = `Results for ${ctx.query}`;
  const next = ctx.nextUrl ? `<link rel="next" href="${esc(ctx.nextUrl)}">` : '';
  switch (style) {
    case 'jsonld':
    case 'jsonld-graph':
    case 'jsonld-broken':
    case 'jsonld-group': {
      const list = { '@context': 'https://schema.org', '@type': 'ItemList', numberOfItems: ctx.total, itemListElement: items.map((p, i) => ({ '@type': 'ListItem', position: i + 1, item: ldProduct(p, ctx) })) };
      return doc(title, `<script type="application/ld+json">${json(list)}</script>${next}`, `<h1>${esc(title)}</h1>`);
    }
    case 'microdata':
      return doc(title, next, `<h1>${esc(title)}</h1><p>${ctx.total} results</p><ul class="grid">${items.map((p) => `<li>${microdataProduct(p, ctx, 'h3')}</li>`).join('')}</ul>`);
    case 'next-data':
      return doc(title, next, `<div id="__next"></div><script id="__NEXT_DATA__" type="application/json">${json({ props: { pageProps: { initialData: { searchResult: { itemStacks: [{ items: items.map((p) => stateProduct(p, ctx)) }], aggregatedCount: ctx.total } } } } })}</script>`);
    case 'preloaded-state':
      return doc(title, next, `<div id="root"></div><script>window.__PRELOADED_STATE__ = ${json({ searchReport: { totalProducts: ctx.total }, products: items.map((p) => stateProduct(p, ctx)) })};</script>`);
    case 'initial-state':
      return doc(title, next, `<div id="app"></div><script>window.__INITIAL_STATE__ = ${json({ search: { total: ctx.total, results: items.map((p) => stateProduct(p, ctx)) } })};</script>`);
    case 'cards':
      return doc(
        title,
        '',
        `<h1>${esc(title)}</h1><div class="summary">Showing ${items.length} of ${ctx.total} results</div><ul class="results">` +
          items
            .map(
              (p) =>
                `<li class="tile" data-product-id="${p.id}"><a href="${esc(ctx.link(p.id))}"><img src="${img(p)}" alt=""><h3>${esc(p.title)}</h3></a>` +
                `<span class="stars" aria-label="${p.rating} out of 5 stars"></span><span class="count">(${p.reviews})</span>` +
                `<span class="price">${esc(ctx.show(ctx.price(p)))}</span>${p.old ? `<s class="was">${esc(ctx.show(p.old))}</s>` : ''}</li>`,
            )
            .join('') +
          `</ul>${ctx.nextUrl ? `<a class="pagination-next" href="${esc(ctx.nextUrl)}">Next</a>` : ''}`,
      );
    case 'api':
      return json({ code: 0, data: { total_results: ctx.total, page: ctx.page, products: items.map((p) => stateProduct(p, ctx)) } });
  }
}

/**
 * A JavaScript challenge as bot managers serve it: a small page whose script sets a clearance
 * cookie and loads the page again; only a client that runs scripts ever gets past it.
 */
export const JS_CHALLENGE_PAGE = doc(
  'Just a moment...',
  '<script>document.cookie = "sim_clearance=passed; path=/"; location.reload();</script>',
  '<h1>Checking your browser before accessing the shop.</h1><noscript>Please enable JS and disable any ad blocker</noscript>',
);

export const CAPTCHA_PAGE = doc('Robot Check', '', '<h1>Enter the characters you see below</h1><form action="/errors/validateCaptcha"><input name="field-keywords"></form>');

export { CATALOGUE };
