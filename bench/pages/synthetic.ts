/**
 * Deterministic synthetic pages for the Markdown benchmark, shaped like real news and retail
 * pages (heavy head, consent banner, mega-menu, article or product grid, sidebars, footer,
 * inline state scripts) but written from scratch: no captured page is reproduced.
 *
 *   articlePage(bytes, seed)  a news article (one <article> in <main>) padded to ~bytes
 *   listingPage(bytes, seed)  a retail category page (product cards, spec tables) to ~bytes
 */
import { mulberry32 } from '../../test/helpers/random.js';

const rng = mulberry32;

const WORDS = (
  'the of and to in a is that for on with as was by at from it an be this are which or have ' +
  'has had not but were their they been more its also new first one two after would about ' +
  'council market report city price energy data season county officials said year week ' +
  'growth plan local public service water school health network station board court rail ' +
  'housing budget policy climate storm river harbour festival museum library company workers ' +
  'battery charger cable wireless screen laptop kitchen garden compact portable premium ' +
  'stainless adjustable rechargeable waterproof lightweight durable certified warranty'
).split(' ');

class Gen {
  private readonly r: () => number;
  constructor(seed: number) {
    this.r = rng(seed);
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.r() * (hi - lo + 1));
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.r() * xs.length)];
  }
  words(n: number): string {
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(this.pick(WORDS));
    return out.join(' ');
  }
  title(n: number): string {
    const w = this.words(n);
    return w.charAt(0).toUpperCase() + w.slice(1);
  }
  slug(): string {
    return this.words(this.int(2, 5)).replace(/ /g, '-');
  }
  /** A paragraph with the inline markup news CMSes emit. */
  para(): string {
    const parts: string[] = [];
    const n = this.int(3, 6);
    for (let i = 0; i < n; i++) {
      const s = this.title(this.int(8, 20));
      const k = this.r();
      if (k < 0.25) parts.push(`${s} <a href="/news/${this.slug()}-${this.int(1000, 99999)}">${this.words(3)}</a>.`);
      else if (k < 0.35) parts.push(`${s}, <em>${this.words(2)}</em> &amp; <strong>${this.words(2)}</strong>.`);
      else if (k < 0.4) parts.push(`${s} &#8220;${this.words(5)}&#8221; at <code>v${this.int(1, 9)}.${this.int(0, 20)}</code>.`);
      else parts.push(s + '.');
    }
    return `<p class="article__para">${parts.join(' ')}</p>\n`;
  }
}

const HEAD_CSS = Array.from({ length: 60 }, (_, i) =>
  `.c${i}{margin:${i}px 0;padding:0 ${i % 7}px;color:#${(i * 4099).toString(16).padStart(6, '0').slice(0, 6)}}`,
).join('\n');

function head(g: Gen, title: string): string {
  const metas = Array.from({ length: 25 }, (_, i) =>
    `<meta property="og:k${i}" content="${g.words(6)}">`).join('\n');
  const state = JSON.stringify({ page: title, items: Array.from({ length: 40 }, () => g.words(8)) });
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
${metas}
<link rel="stylesheet" href="/static/site.${g.int(1000, 9999)}.css">
<style>${HEAD_CSS}</style>
<script type="application/ld+json">${state}</script>
<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag('js',new Date());</script>
</head>\n`;
}

function chrome(g: Gen): { top: string; bottom: string } {
  const menu = Array.from({ length: 8 }, () => {
    const sub = Array.from({ length: 10 }, () =>
      `<li class="menu__sub-item"><a class="menu__link" href="/${g.slug()}">${g.title(2)}</a></li>`).join('');
    return `<li class="menu__item"><a href="/${g.slug()}">${g.title(1)}</a><ul class="menu__sub">${sub}</ul></li>`;
  }).join('\n');
  const cols = Array.from({ length: 4 }, () =>
    `<div class="footer__col"><h4>${g.title(2)}</h4><ul>${Array.from({ length: 8 }, () =>
      `<li><a href="/${g.slug()}">${g.title(2)}</a></li>`).join('')}</ul></div>`).join('\n');
  const top = `<body class="page cookie-banner-visible">
<a class="skip-link" href="#main">Skip to content</a>
<div id="consent-root" class="cookie-consent"><div class="cookie-consent__text">${g.words(30)}</div>
<button class="cookie-consent__accept">Accept all</button><button>Manage</button></div>
<div class="promo-bar" style="display:none">${g.words(12)}</div>
<header class="site-header"><a class="logo" href="/"><img src="/static/logo.svg" alt="Logo"></a>
<nav class="menu" aria-label="Main"><ul class="menu__list">${menu}</ul></nav>
<form class="search" role="search" action="/search"><input name="q" placeholder="Search"><button>Go</button></form>
</header>\n`;
  const script = `<script>(function(){var s=${JSON.stringify(g.words(400))};window.__APP__={s:s}})();</script>`;
  const bottom = `<footer class="site-footer"><div class="footer__cols">${cols}</div>
<p class="legal">${g.words(25)}</p></footer>
<div class="modal" role="dialog" aria-hidden="true"><p>${g.words(20)}</p></div>
${script}\n<script src="/static/app.${g.int(1000, 9999)}.js" async></script>
</body></html>\n`;
  return { top, bottom };
}

function sidebar(g: Gen): string {
  const items = Array.from({ length: 10 }, (_, i) =>
    `<li><span class="rank">${i + 1}</span><a href="/news/${g.slug()}">${g.title(8)}</a></li>`).join('\n');
  return `<aside class="most-read"><h3>Most read</h3><ol>${items}</ol></aside>\n`;
}

function factTable(g: Gen, rows: number): string {
  const body = Array.from({ length: rows }, () =>
    `<tr><td>${g.title(2)}</td><td>${g.int(1, 9999)}</td><td>${g.int(1, 99)}.${g.int(0, 9)}%</td></tr>`).join('\n');
  return `<table class="data"><thead><tr><th>Area</th><th>Count</th><th>Change</th></tr></thead>
<tbody>${body}</tbody></table>\n`;
}

/** A news article padded with body paragraphs to about `bytes` characters. */
export function articlePage(bytes: number, seed = 1): string {
  const g = new Gen(seed);
  const title = g.title(10);
  const { top, bottom } = chrome(g);
  const open = `${head(g, title)}${top}<main id="main" class="layout"><div class="breadcrumbs">
<a href="/">Home</a> › <a href="/news">News</a></div>
<article class="article"><header class="article__header"><h1>${title}</h1>
<p class="byline">By <a href="/authors/${g.slug()}">${g.title(2)}</a> · <time datetime="2024-05-01">1 May 2024</time></p>
</header>
<figure><img src="/img/${g.slug()}.jpg" alt="${g.words(6)}" width="1200" height="675">
<figcaption>${g.title(12)}</figcaption></figure>
<div class="share"><button>Share</button><a href="javascript:void(0)">Copy link</a></div>\n`;
  const close = `</article>\n${sidebar(g)}<section class="comments"><h2>Comments</h2>
<form><textarea name="c"></textarea><button>Post</button></form></section></main>\n${bottom}`;
  const chunks: string[] = [];
  let size = open.length + close.length;
  let i = 0;
  while (size < bytes) {
    let c: string;
    const k = i % 14;
    if (k === 3) c = `<h2>${g.title(6)}</h2>\n`;
    else if (k === 6) c = `<blockquote><p>${g.title(20)}</p><cite>${g.title(2)}</cite></blockquote>\n`;
    else if (k === 9) c = `<ul>${Array.from({ length: 4 }, () => `<li>${g.title(9)}</li>`).join('')}</ul>\n`;
    else if (k === 11) c = `<div class="ad-slot" aria-hidden="true"><div id="ad-${i}"></div></div>\n`;
    else if (k === 13 && i % 28 === 13) c = factTable(g, 6);
    else c = g.para();
    chunks.push(c);
    size += c.length;
    i++;
  }
  return open + chunks.join('') + close;
}

function productCard(g: Gen, n: number): string {
  const name = g.title(g.int(6, 12));
  const feats = Array.from({ length: 3 }, () => `<li>${g.title(5)}</li>`).join('');
  return `<li class="sku-item" data-sku="${100000 + n}"><div class="sku-item__media">
<a href="/p/${g.slug()}/${100000 + n}"><img class="lazy" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" data-src="https://cdn.example.test/p/${100000 + n}.jpg" alt="${name}"></a></div>
<div class="sku-item__info"><h4 class="sku-title"><a href="/p/${g.slug()}/${100000 + n}">${name}</a></h4>
<div class="rating" aria-label="Rated ${g.int(1, 5)} out of 5"><span class="stars" aria-hidden="true">★★★★☆</span> <span class="count">(${g.int(1, 5000)})</span></div>
<ul class="features">${feats}</ul>
<div class="price"><span class="price__now">$${g.int(5, 999)}.${g.int(10, 99)}</span> <s class="price__was">$${g.int(5, 999)}.99</s></div>
<div class="fulfillment"><strong>Pickup</strong> ${g.words(4)}</div>
<button class="add-to-cart" data-sku="${100000 + n}">Add to cart</button></div></li>\n`;
}

function specTable(g: Gen): string {
  const rows = Array.from({ length: 8 }, () =>
    `<tr><th scope="row">${g.title(2)}</th><td>${g.words(3)}</td></tr>`).join('');
  return `<section class="specs"><h3>${g.title(3)}</h3><table class="spec-table"><tbody>${rows}</tbody></table></section>\n`;
}

/** A retail listing page (product grid in <main>) padded to about `bytes` characters. */
export function listingPage(bytes: number, seed = 2): string {
  const g = new Gen(seed);
  const title = g.title(3);
  const { top, bottom } = chrome(g);
  const facets = Array.from({ length: 6 }, () =>
    `<fieldset><legend>${g.title(1)}</legend>${Array.from({ length: 6 }, () =>
      `<label><input type="checkbox"> ${g.title(2)}</label>`).join('')}</fieldset>`).join('');
  const open = `${head(g, title)}${top}<main class="plp"><h1>${title}</h1>
<p class="result-count">${g.int(100, 9000)} results</p>
<aside class="facets"><form>${facets}</form></aside>
<ol class="sku-list">\n`;
  const close = `</ol>\n<nav class="pagination"><a href="?page=2">Next</a></nav></main>\n${bottom}`;
  const chunks: string[] = [];
  let size = open.length + close.length;
  let n = 0;
  while (size < bytes) {
    const c = n % 25 === 24 ? `</ol>${specTable(g)}<ol class="sku-list">\n` : productCard(g, n);
    chunks.push(c);
    size += c.length;
    n++;
  }
  return open + chunks.join('') + close;
}
