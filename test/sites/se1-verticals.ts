/**
 * se1 vertical pages of the simulator: AI Mode (`udm=50`), shopping grid (`tbm=shop`), product
 * page, hotel search, image search by URL, maps and trends. Structure follows the corresponding
 * real pages' long-lived pieces (grid cards with an `h3` title, price and merchant slots; offer
 * rows; hotel cards as `data-index` links; answer/source blocks as on the AI overview).
 */
import { esc, hash, money, products, slug, titleCase } from './se-data.js';
import type { Product } from './se-data.js';

const page = (title: string, lang: string, body: string, q = '') =>
  `<!doctype html><html lang="${esc(lang)}"><head><meta charset="utf-8"><title>${esc(title)}</title></head><body><form><input name="q" value="${esc(q)}"></form>${body}</body></html>`;

export function aiModeAnswer(query: string): { paragraphs: string[]; link: { title: string; url: string }; citations: { title: string; url: string; publisher: string }[] } {
  return {
    paragraphs: [`${titleCase(query)}: here is what AI Mode found.`, `Most sources describe ${query} the same way.`],
    link: { title: `${titleCase(query)} handbook`, url: `https://www.handbook.example/${slug(query)}` },
    citations: [1, 2].map((i) => ({ title: `${titleCase(query)} source ${i}`, url: `https://www.cited-${i}.example/${slug(query)}`, publisher: `Cited ${i}` })),
  };
}

export function se1AiModePage(query: string, hl: string): string {
  const a = aiModeAnswer(query);
  const paras = a.paragraphs.map((p, i) => `<div class="WaaZC"><span>${esc(p)}${i === 0 ? ` See the <a href="${esc(a.link.url)}">${esc(a.link.title)}</a>.` : ''}</span></div>`).join('');
  const cites = a.citations
    .map((c) => `<li><a href="${esc(c.url)}" aria-label="${esc(c.title)}"></a><div class="mNme1d">${esc(c.title)}</div><div class="LzPlYe">${esc(c.publisher)}</div></li>`)
    .join('');
  return page(`${query} - AI Mode`, hl, `<div data-subtree="aimc"><div data-container-id="main-col">${paras}</div><div data-container-id="rhs-col"><ul>${cites}</ul></div></div>`, query);
}

/** The shopping grid after the request's price filter and order (`tbs` `ppr_min`, `ppr_max`, `p_ord`). */
export function shoppingResults(query: string, tbs: string | null, start: number, num: number): Product[] {
  const parts = new Map((tbs ?? '').split(',').map((p) => p.split(':') as [string, string]));
  const min = parts.has('ppr_min') ? Number(parts.get('ppr_min')) : -Infinity;
  const max = parts.has('ppr_max') ? Number(parts.get('ppr_max')) : Infinity;
  let list = products(query).filter((p) => p.price >= min && p.price <= max);
  const order = parts.get('p_ord');
  if (order === 'p') list = [...list].sort((a, b) => a.price - b.price);
  else if (order === 'pd') list = [...list].sort((a, b) => b.price - a.price);
  else if (order === 'rv') list = [...list].sort((a, b) => b.rating - a.rating);
  return list.slice(start, start + num);
}

export function se1ShoppingPage(query: string, hl: string, list: Product[]): string {
  const cards = list
    .map((p) => `<div class="sh-dgr__grid-result" data-docid="${p.id}"><div class="sh-dgr__content"><a href="shopping/product/${p.id}"><h3 class="tAxDx">${esc(p.title)}</h3></a><span class="a8Pemb">${money(p.price)}</span><div class="aULzUe">${esc(p.merchant)}</div><div><span class="Rsc7Yb">${p.rating.toFixed(1)}</span> <span>(${p.reviews})</span></div></div></div>`)
    .join('');
  return page(`${query} - Se1 Shopping`, hl, `<div id="search"><div class="sh-pr__product-results">${cards}</div></div>`, query);
}

export function productOf(id: string): { title: string; rating: number; reviews: number; description: string; offers: { merchant: string; url: string; price: number; details: string }[] } {
  const h = hash(id);
  const base = 20 + (h % 80);
  return {
    title: `Product ${id}`,
    rating: 3 + (h % 20) / 10,
    reviews: 5 + (h % 500),
    description: `Product ${id} is a well reviewed item.`,
    offers: ['Shopalpha', 'Bravo Store', 'Charlie Outlet'].map((m, i) => ({
      merchant: m,
      url: `https://www.${slug(m)}.example/p/${id}`,
      price: base + i * 5,
      details: i === 0 ? 'Free delivery' : `Delivery ${money(4 + i)}`,
    })),
  };
}

export function se1ProductPage(id: string, hl: string): string {
  const p = productOf(id);
  const rows = p.offers
    .map((o) => `<tr class="sh-osd__offer-row"><td><a href="${esc(o.url)}">${esc(o.merchant)}</a></td><td><span>${money(o.price)}</span></td><td>${esc(o.details)}</td></tr>`)
    .join('');
  return page(
    p.title,
    hl,
    `<h1 data-attrid="product-title">${esc(p.title)}</h1><div><span aria-label="Rated ${p.rating.toFixed(1)} out of 5"></span><span class="HiT7Id">${p.reviews} reviews</span></div><div class="sh-ds__full-txt">${esc(p.description)}</div><table id="sh-osd__online-sellers-cont">${rows}</table>`,
  );
}

export interface HotelModel {
  name: string;
  price: number;
  rating: number;
  reviews: number;
  stars: number;
  description: string;
  amenities: string[];
  deal: string | null;
}

/** 40 hotels per destination; price grows with adults; `hotel_class` filters the star class. */
export function hotels(query: string, adults: number, classes: number[] | null): HotelModel[] {
  const h = hash(query);
  const all = Array.from({ length: 40 }, (_, i): HotelModel => ({
    name: `${titleCase(query)} Hotel ${i + 1}`,
    price: 80 + ((h + i * 31) % 200) + 20 * Math.max(0, adults - 1),
    rating: 3 + ((h + i) % 20) / 10,
    reviews: 120 + ((h + i * 53) % 5000),
    stars: 2 + ((h + i) % 4),
    description: `Comfortable stay ${i + 1} in ${query}`,
    amenities: i % 2 === 0 ? ['Free Wi-Fi', 'Pool'] : ['Free Wi-Fi'],
    deal: i % 5 === 0 ? 'GREAT DEAL · 20% less than usual' : null,
  }));
  return classes && classes.length > 0 ? all.filter((x) => classes.includes(x.stars)) : all;
}

export function se1HotelsPage(query: string, hl: string, list: HotelModel[], offset: number): string {
  const cards = list
    .map((x, i) => {
      const k = x.reviews >= 1000 ? `${(x.reviews / 1000).toFixed(1)}K` : String(x.reviews);
      const deal = x.deal ? `<div data-deal="1">${esc(x.deal)}</div>` : '';
      return `<div class="Jf0OV"><a class="NANqI" href="hotels/${slug(x.name)}" data-index="${offset + i}"><div class="KmZaZb"><div class="fQtNvd"><div class="mtlZOe"><div class="sxdlOc"><div class="BTPx6e">${esc(x.name)}</div></div><div class="c4RtQd"><span class="inSSLe">${money(x.price).replace('.00', '')}</span></div></div><div class="JCHAee"><div role="link" aria-label="${x.rating.toFixed(1)} out of 5 stars from ${x.reviews.toLocaleString('en-US')} reviews"><span class="Y0A0hc"><span class="yi40Hd">${x.rating.toFixed(1)}</span><span class="RDApEe">(${k})</span></span> · <span class="NAkmnc">${x.stars}-star hotel</span></div></div>${deal}<div class="JCHAee"><div class="njbmUe"><div class="dLtZ8b"><span>${esc(x.description)}</span></div><div class="HwZ4qd">${x.amenities.map((a) => `<div class="I9B2He">${esc(a)}</div>`).join('')}</div></div></div></div></div></a></div>`;
    })
    .join('');
  return page(`${query} - Se1 Hotels`, hl, `<div data-hotel-results="1">${cards}</div>`, query);
}

export function visualMatches(imageUrl: string): { title: string; url: string; source: string; thumbnail: string }[] {
  const h = hash(imageUrl);
  return [1, 2, 3].map((i) => ({
    title: `Picture match ${i} (${h % 1000})`,
    url: `https://www.pictures-${i}.example/item/${h % 1000}`,
    source: `pictures-${i}.example`,
    thumbnail: `https://img.pictures-${i}.example/${h % 1000}.jpg`,
  }));
}

export function se1LensPage(imageUrl: string, keywords: string | null, hl: string): string {
  const guess = `Best guess: ${keywords ?? 'picture'} ${hash(imageUrl) % 1000}`;
  const cards = visualMatches(imageUrl)
    .map((m) => `<div class="G19kAf"><a href="${esc(m.url)}" aria-label="${esc(m.title)}"><img src="${esc(m.thumbnail)}" alt=""><div role="heading" aria-level="3">${esc(m.title)}</div><div data-source="1">${esc(m.source)}</div></a></div>`)
    .join('');
  return page('Image search', hl, `<div data-best-guess="1">${esc(guess)}</div><div class="visual-matches">${cards}</div>`);
}

export function se1MapsPage(query: string, hl: string, start: number): string {
  const items = Array.from({ length: 20 }, (_, i) => `<div role="article" aria-label="${esc(titleCase(query))} spot ${start + i + 1}"><div class="fontHeadlineSmall">${esc(titleCase(query))} spot ${start + i + 1}</div></div>`).join('');
  return page(`${query} - Se1 Maps`, hl, `<div role="feed">${items}</div>`, query);
}

export function trendPoints(query: string): { date: string; value: number }[] {
  const h = hash(query);
  return Array.from({ length: 6 }, (_, i) => ({ date: `2024-0${i + 1}`, value: 20 + ((h >>> i) % 80) }));
}

export function se1TrendsPage(query: string, hl: string): string {
  const rows = trendPoints(query).map((p) => `<tr data-date="${p.date}" data-value="${p.value}"><td>${p.date}</td><td>${p.value}</td></tr>`).join('');
  const related = [`${query} today`, `${query} news`].map((q, i) => `<div data-related-query="${100 - i * 30}"><a href="explore?q=${encodeURIComponent(q)}">${esc(q)}</a></div>`).join('');
  return page(`${query} - Se1 Trends`, hl, `<table data-trends-timeline="1">${rows}</table><div class="related-queries">${related}</div>`, query);
}
