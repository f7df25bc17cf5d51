/**
 * se1 News and Images tabs of the simulator, in the structures of the captured generations
 * (hand-written, small; no captured page is copied):
 *
 * - News, `card` (2020-2025): `#rso` cards whose one link wraps source (after a favicon), a
 *   `role=heading` title, snippet and date, with a thumbnail; `card2019`: the same without the
 *   heading role; `basic` (`gbv=1`, and the 2013-2018 tab): `h3 > a` title links to `/url?q=`,
 *   a "source - date" line (`cite` + `span.f`) and the snippet, with an unheaded related
 *   article in the first block (a cluster) and a "more news" engine link.
 * - Images, `basic` (`gbv=1`, 2013-2018 `images_table`): cells of thumbnail link, `cite`
 *   domain, title and "W × H - size - type" lines; `basic2021`: cells of a thumbnail link and
 *   a second link holding title and domain spans; `rgmeta` (2014-2019): boxes with `rg_meta`
 *   JSON; `json` (2019-2025): `data-id` boxes, the full-size image and size in inline script
 *   data `[id,[thumb,h,w],[image,h,w]]`.
 * - A basic-HTML local pack: place links with `ludocid=` around a heading and detail lines.
 */
import { esc, hash, slug, titleCase } from './se-data.js';

const page = (title: string, tbm: string, body: string, q: string, script = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title></head><body><form action="search"><input name="q" value="${esc(q)}"><input name="tbm" value="${tbm}" type="hidden"></form><div id="main">${body}</div>${script}</body></html>`;

const PUBLISHERS = ['Daily Alpha', 'Bravo Times', 'Charlie Post', 'Delta News', 'Echo Herald'];
const AGES = ['2 hours ago', '5 hours ago', '1 day ago', '3 days ago', 'Apr 20, 2019'];

export interface NewsArticle {
  title: string;
  url: string;
  source: string;
  date: string;
  snippet: string;
  thumbnail: string;
}

export function newsArticles(query: string, count = 5): NewsArticle[] {
  const s = slug(query);
  return Array.from({ length: count }, (_, i) => {
    const pub = PUBLISHERS[(hash(query) + i) % PUBLISHERS.length] as string;
    return {
      title: `${titleCase(query)} story ${i + 1}: what changed this week`,
      url: `https://www.${slug(pub)}.example/${s}/story-${i + 1}`,
      source: pub,
      date: AGES[i % AGES.length] as string,
      snippet: `Reporting on ${query}, part ${i + 1}, with quotes and figures.`,
      thumbnail: `https://news-img.example/${s}/${i + 1}.jpg`,
    };
  });
}

export function se1NewsPage(query: string, layout: 'card' | 'card2019' | 'basic'): string {
  const list = newsArticles(query);
  if (layout === 'basic') {
    const blocks = list
      .map((a, i) => {
        const cluster = i === 0 ? `<div class="card-section"><a href="/url?q=${encodeURIComponent(`${a.url}-follow-up`)}&amp;sa=U">${esc(`${a.title} (follow-up)`)}</a> <span class="f">${esc(a.source)} - 1 day ago</span></div>` : '';
        return `<div class="g"><h3 class="r"><a href="/url?q=${encodeURIComponent(a.url)}&amp;sa=U">${esc(a.title)}</a></h3><div class="slp"><cite>${esc(a.source)}</cite><span class="f"> - ${esc(a.date)}</span></div><div class="st">${esc(a.snippet)}</div>${cluster}</div>`;
      })
      .join('');
    const more = `<div><a href="search?q=${encodeURIComponent(query)}&amp;tbm=nws&amp;start=10">More news</a></div>`;
    return page(`${query} - Se1 News`, 'nws', `<div id="ires"><ol>${blocks}</ol></div>${more}`, query);
  }
  const cards = list
    .map((a) => {
      const title = layout === 'card' ? `<div class="n0jPhd" role="heading" aria-level="3">${esc(a.title)}</div>` : `<div class="nDgy9d">${esc(a.title)}</div>`;
      return `<div class="SoaBEf"><div><a class="WlydOe" href="${esc(a.url)}"><div class="iRPxbe"><div class="MgUUmf"><g-img><img src="" width="16" height="16" alt=""></g-img><span>${esc(a.source)}</span></div>${title}<div class="GI74Re">${esc(a.snippet)}</div><div class="OSrXXb"><span>${esc(a.date)}</span></div></div><div class="uhHOwf"><img src="${esc(a.thumbnail)}" width="92" height="92" alt=""></div></a></div></div>`;
    })
    .join('');
  const tabs = `<div role="navigation"><a href="search?q=${encodeURIComponent(query)}">All</a> <a href="https://maps.se1.example/maps?q=${encodeURIComponent(query)}">Maps</a></div>`;
  return page(`${query} - Se1 News`, 'nws', `${tabs}<div id="search"><div id="rso">${cards}</div></div><div id="botstuff"><a href="https://www.se1.example/alerts?q=${encodeURIComponent(query)}">Create alert</a></div>`, query);
}

export interface ImageHit {
  title: string;
  page: string;
  source: string;
  image: string;
  thumbnail: string;
  width: number;
  height: number;
  id: string;
}

export function imageHits(query: string, count = 4): ImageHit[] {
  const s = slug(query);
  return Array.from({ length: count }, (_, i) => {
    const host = `pics-${(hash(query) + i) % 7}.example`;
    return {
      title: `${titleCase(query)} picture ${i + 1}`,
      page: `https://${host}/${s}/photo-${i + 1}`,
      source: host,
      image: `https://cdn.${host}/${s}-${i + 1}.jpg`,
      thumbnail: `https://thumbs.se1.example/images?q=tbn:${s}${i + 1}`,
      width: 800 + i * 100,
      height: 600 + i * 50,
      id: `img${hash(`${query}${i}`).toString(36)}`,
    };
  });
}

export function se1ImagesPage(query: string, layout: 'basic' | 'basic2021' | 'rgmeta' | 'json'): string {
  const hits = imageHits(query);
  const u = (p: string) => `/url?q=${encodeURIComponent(p)}&amp;sa=U`;
  if (layout === 'basic') {
    const cells = hits
      .map((h) => `<td><a href="${u(h.page)}"><img height="100" width="150" src="${esc(h.thumbnail)}" alt="Image result for ${esc(query)}"></a><br><cite title="${esc(h.source)}">${esc(h.source)}</cite><br>${esc(h.title)}<br>${h.width} &times; ${h.height} - 45k&nbsp;-&nbsp;jpg</td>`)
      .join('');
    return page(`${query} - Se1 Images`, 'isch', `<div id="ires"><table class="images_table"><tr>${cells}</tr></table></div>`, query);
  }
  if (layout === 'basic2021') {
    const cells = hits
      .map((h) => `<td class="e3goi"><div><table class="IkMU6e"><tr><td><a href="${u(h.page)}"><div><img class="yWs4tf" alt="" src="${esc(h.thumbnail)}"></div></a></td></tr><tr><td><a href="${u(h.page)}"><div class="jB2rPd"> <span class="qXLe6d"> <span class="fYyStc">${esc(h.title)}</span> </span> <span class="qXLe6d"> <span class="fYyStc">${esc(h.source)}</span> </span></div></a></td></tr></table></div></td>`)
      .join('');
    return page(`${query} - Se1 Images`, 'isch', `<div><table class="GpQGbf"><tr>${cells}</tr></table></div>`, query);
  }
  if (layout === 'rgmeta') {
    const boxes = hits
      .map((h) => {
        const meta = JSON.stringify({ id: h.id, ou: h.image, ow: h.width, oh: h.height, pt: h.title, ru: h.page, st: h.source, tu: h.thumbnail });
        return `<div class="rg_bx"><a class="rg_l" href="/imgres?imgurl=${encodeURIComponent(h.image)}"><img class="rg_ic" src="" alt=""></a><div class="rg_meta notranslate">${esc(meta)}</div></div>`;
      })
      .join('');
    return page(`${query} - Se1 Images`, 'isch', `<div id="search"><div id="rg_s">${boxes}</div></div>`, query);
  }
  const boxes = hits
    .map((h) => `<div class="isv-r" data-id="${h.id}"><a class="wXeWr" href="#"><div><img class="rg_i" src="${esc(h.thumbnail)}" alt="${esc(h.title)}"></div></a><a class="VFACy" href="${esc(h.page)}"><div><div>${esc(h.title)}</div><div>${esc(h.source)}</div></div></a></div>`)
    .join('');
  const data = hits.map((h) => `[1,[0,"${h.id}",["${h.thumbnail}",150,200],["${h.image}",${h.height},${h.width}],null]]`).join(',');
  const script = `<script>AF_initDataCallback({key: 'ds:1', data:[${data}]});</script>`;
  return page(`${query} - Se1 Images`, 'isch', `<div id="islmp">${boxes}</div>`, query, script);
}

export interface BasicPlace {
  title: string;
  id: string;
  rating: number | null;
  reviews: number | null;
  category: string;
  locality: string;
}

export function basicPlaces(query: string): BasicPlace[] {
  return [0, 1].map((i) => ({
    title: `${titleCase(query)} Corner ${i + 1}`,
    id: String(1_000_000_000 + hash(`${query}place${i}`)),
    rating: i === 0 ? null : 4.5,
    reviews: i === 0 ? null : 12,
    category: i === 0 ? 'Tea store' : 'Cafe',
    locality: `Springfield ${i + 1}, KS`,
  }));
}

/** The 2018-2025 basic-HTML local pack: a place link (ludocid) per card, name as heading. */
export function basicLocalPack(query: string): string {
  const cards = basicPlaces(query)
    .map((p) => {
      const href = `/search?q=${encodeURIComponent(p.title)}&amp;ludocid=${p.id}`;
      const rating = p.rating === null ? 'No reviews' : `<span>${p.rating.toFixed(1)}</span> <g-review-stars><div>&nbsp;</div></g-review-stars> (${p.reviews})`;
      return `<div class="IvtMPc"><table><td><a href="${href}"><div role="heading" aria-level="3"><span>${esc(p.title)}</span></div><div>${rating} &middot; ${esc(p.category)}</div><div>${esc(p.locality)} &middot; (555) 010-20${p.id.slice(-2)}</div></a></td><td><a href="${href}">More info</a></td></table></div>`;
    })
    .join('');
  return `<div class="g"><a href="https://maps.se1.example/maps?q=${encodeURIComponent(query)}"><img id="lu_map" src="" alt="Map of ${esc(query)}"></a>${cards}</div>`;
}

export interface ListedProduct {
  title: string;
  price: string;
  amount: number;
  merchant: string;
  rating: number;
  reviews: number;
  thumbnail: string;
  url: string;
}

export function listedProducts(query: string): ListedProduct[] {
  return [0, 1, 2].map((i) => ({
    title: `${titleCase(query)} set ${i + 1}`,
    price: `${1 + i}.${['049', '199', '349'][i]},${['95', '00', '50'][i]} €`,
    amount: Number(`${1 + i}${['049', '199', '349'][i]}.${['95', '00', '50'][i]}`),
    merchant: ['Boutique Alpha', 'Magasin Bravo', 'Charlie Shop'][i] as string,
    rating: 4 + i / 10,
    reviews: 120 * (i + 1),
    thumbnail: `https://shop-img.example/${slug(query)}-${i + 1}.jpg`,
    url: `https://www.shop-${i + 1}.example/p/${slug(query)}`,
  }));
}

/**
 * The 2024-2025 shopping grid (`udm=28`): list items without long-lived class names — a title
 * block, a price in the page's notation (decimal comma on a `.fr` page), the merchant, the
 * stars' `aria-label` with the review count, a thumbnail; filter chips are list items too.
 */
export function se1ShoppingListPage(query: string): string {
  const chips = ['Under 50 €', 'On sale'].map((c) => `<div role="listitem"><a href="search?q=${encodeURIComponent(query)}&amp;udm=28&amp;chip=${slug(c)}">${esc(c)}</a></div>`).join('');
  const items = listedProducts(query)
    .map((p) => `<div role="listitem"><a href="${esc(p.url)}"><img src="${esc(p.thumbnail)}" width="124" height="124" alt=""><div class="gkQHve">${esc(p.title)}</div></a><div><span class="lmQWe">${esc(p.price)}</span></div><div><span class="WJMUdc">${esc(p.merchant)}</span></div><div><span aria-label="Rated ${p.rating} out of 5,"></span><span>(${p.reviews})</span></div></div>`)
    .join('');
  return page(`${query} - Se1 Shopping`, 'shop', `<div id="rso"><div role="list">${chips}</div><div role="list">${items}</div></div>`, query);
}
