/**
 * se1 web results pages of the simulator. The markup follows the structure of captured result
 * pages (2023-2025 desktop generation, and the basic-HTML page served with `gbv=1`): result
 * containers with an `h3` title inside the link, `data-text-ad` ads in `#tads`/`#bottomads`,
 * `related-question-pair` questions, an AI overview `data-subtree="mfc"` block, `pla-unit`
 * shopping cards, news cards with `data-news-doc-id`, `data-vid` video cards, `VkpGBb` places,
 * a `data-attrid` knowledge panel in `#rhs` and related searches at the bottom. Small and
 * hand-written: no captured page is copied.
 */
import type { Doc } from './se-data.js';
import { doc, esc, hash, money, products, questions, relatedQueries, resultStats, slug, titleCase } from './se-data.js';
import { basicLocalPack } from './se1-tabs.js';

export interface Se1PageOptions {
  query: string;
  page: number;
  num: number;
  hl?: string;
  gl?: string;
  expandAio?: boolean;
  adtest?: boolean;
  docs: Doc[];
}

const cite = (d: Doc) => `https://${d.host} › ${slug(d.title.split(' ').slice(-2).join(' '))}`;

function organic(d: Doc, sitelinks: boolean): string {
  const links = sitelinks
    ? `<div class="HiHjCd"><a href="${esc(d.url)}/about">About us</a> · <a href="${esc(d.url)}/contact">Contact</a> · <a href="${esc(d.url)}/pricing">Pricing</a></div>`
    : '';
  return `<div class="MjjYud"><div class="g tF2Cxc" data-hveid="CA${d.n}"><div class="kb0PBd" data-snf="x5WNvb"><div class="yuRUbf"><span><a href="${esc(d.url)}"><h3 class="LC20lb MBeuO DKV0Md">${esc(d.title)}</h3><div class="byrV5b"><cite class="tjvcx" role="text">${esc(cite(d))}</cite></div></a></span></div></div><div class="kb0PBd" data-sncf="1"><div class="VwiC3b"><span>${esc(d.snippet)}</span></div></div>${links}</div></div>`;
}

function featured(d: Doc, query: string): string {
  return `<div class="MjjYud"><block-component><div class="g wF4fFd g-blk"><div class="xpdopen"><div class="wDYxhc" data-md="61"><div data-attrid="wa:/description" role="heading" aria-level="3"><span class="hgKElc">${esc(featuredText(query))}</span></div></div><div class="g"><div class="tF2Cxc"><div class="yuRUbf"><a href="${esc(d.url)}"><h3 class="LC20lb">${esc(d.title)}</h3><cite>${esc(cite(d))}</cite></a></div></div></div></div></div></block-component></div>`;
}

export function featuredText(query: string): string {
  return `${titleCase(query)} is explained in short: the featured answer for ${query}.`;
}

export interface AdModel {
  title: string;
  url: string;
  host: string;
  description: string;
  sitelinks: { title: string; url: string }[];
}

export function ads(query: string, count: number, block: 'top' | 'bottom', adtest: boolean): AdModel[] {
  return Array.from({ length: count }, (_, i) => {
    const host = `www.${block}-ad-${i + 1}.example`;
    const url = `https://${host}/${slug(query)}`;
    return {
      title: `${adtest ? 'Test ad: ' : ''}Buy ${titleCase(query)} Today ${block === 'top' ? i + 1 : 'Deals'}`,
      url,
      host,
      description: `Great offers on ${query}. Free shipping on orders over $50.`,
      sitelinks: [
        { title: 'Best Sellers', url: `${url}/best-sellers` },
        { title: 'New Arrivals', url: `${url}/new` },
      ],
    };
  });
}

function ad(a: AdModel): string {
  const sl = a.sitelinks.map((s) => `<a href="${esc(s.url)}">${esc(s.title)}</a>`).join(' · ');
  return `<div class="uEierd"><div data-text-ad="1"><span class="U3A9Ac">Sponsored</span><div class="v5yQqb"><a class="sVXRqc" href="${esc(a.url)}" data-pcu="${esc(a.url)}"><div role="heading" aria-level="3"><span>${esc(a.title)}</span></div><div class="d8lRkd"><span class="x2VHCd" role="text" data-dtld="${esc(a.host)}">https://${esc(a.host)}</span></div></a></div><div class="Va3FIb"><span>${esc(a.description)}</span></div><div class="bOeY0b">${sl}</div></div></div>`;
}

export function aioParagraphs(query: string, expanded: boolean): string[] {
  const all = [
    `${titleCase(query)} is a topic with a short answer and a longer story.`,
    `Sources agree that ${query} matters most in practice.`,
    `In depth: the history of ${query} goes back several decades.`,
  ];
  return expanded ? all : all.slice(0, 2);
}

export function aioSources(query: string): { title: string; url: string; publisher: string }[] {
  return [1, 2, 3].map((i) => ({ title: `${titleCase(query)} explained ${i}`, url: `https://www.source-${i}.example/${slug(query)}`, publisher: `Source ${i}` }));
}

function aio(query: string, expanded: boolean): string {
  const paras = aioParagraphs(query, expanded).map((p) => `<div class="WaaZC"><div class="rPeykc"><span>${esc(p)}</span></div></div>`).join('');
  const srcs = aioSources(query)
    .map((s) => `<li class="LLtSOc"><a class="KEVENd" href="${esc(s.url)}" aria-label="${esc(s.title)}"></a><div class="ibUR7b"><div class="mNme1d">${esc(s.title)}</div><div class="LzPlYe">${esc(s.publisher)}</div></div></li>`)
    .join('');
  const more = expanded ? '' : '<div role="button" aria-label="Show more AI Overview">Show more</div>';
  return `<div class="YzCcne" data-mcp="18"><h1>AI Overview</h1><div data-subtree="mfc"><div data-container-id="main-col">${paras}</div><ul class="zVKf0d">${srcs}</ul>${more}</div></div>`;
}

export function paaAnswer(query: string, i: number): { title: string; url: string; snippet: string } {
  return { title: `Answer ${i + 1} about ${titleCase(query)}`, url: `https://www.answers-${i + 1}.example/${slug(query)}`, snippet: `Short answer ${i + 1}: ${query} in one sentence.` };
}

function paa(query: string): string {
  const pairs = questions(query)
    .map((q, i) => {
      const a = paaAnswer(query, i);
      return `<div class="related-question-pair" data-q="${esc(q)}"><div role="button" class="dnXCYb"><span class="CSkcDe">${esc(q)}</span></div><div class="bCOlv"><div data-attrid="wa:/description"><span class="hgKElc">${esc(a.snippet)}</span></div><div class="tF2Cxc"><div class="yuRUbf"><a href="${esc(a.url)}"><h3>${esc(a.title)}</h3><cite>${esc(a.url)}</cite></a></div></div></div></div>`;
    })
    .join('');
  return `<div class="MjjYud"><div class="cUnQKe"><div role="heading" aria-level="2">People also ask</div><div class="Wt5Tfe">${pairs}</div></div></div>`;
}

export function stories(query: string): { title: string; url: string; source: string; published: string }[] {
  return [1, 2, 3].map((i) => ({ title: `${titleCase(query)} makes headlines, part ${i}`, url: `https://news-${i}.example/${slug(query)}-${i}`, source: `News ${i}`, published: `${i} hours ago` }));
}

function topStories(query: string): string {
  const cards = stories(query)
    .map((s, i) => `<div class="m7jPZ" data-news-doc-id="nd${i}"><a class="WlydOe" href="${esc(s.url)}"><div class="SoAPf"><div class="MgUUmf"><span>${esc(s.source)}</span></div><div class="n0jPhd" role="heading" aria-level="3">${esc(s.title)}</div><div class="OSrXXb"><span>${esc(s.published)}</span></div></div></a></div>`)
    .join('');
  return `<div class="MjjYud"><g-section-with-header><div role="heading" aria-level="2">Top stories</div><div class="aUSklf">${cards}</div></g-section-with-header></div>`;
}

export function videoCards(query: string): { title: string; url: string; source: string; duration: string }[] {
  return [1, 2].map((i) => ({ title: `${titleCase(query)} video ${i}`, url: `https://www.videos.example/watch?v=${slug(query)}-${i}`, source: `Channel ${i}`, duration: `${i + 2}:0${i}` }));
}

function videos(query: string): string {
  const cards = videoCards(query)
    .map((v, i) => `<div data-vid="v${i}" data-surl="${esc(v.url)}"><a href="${esc(v.url)}"><div class="thumb"><span>${v.duration}</span></div><div role="heading" aria-level="3"><div><span>${esc(v.title)}</span></div></div><div class="channel">${esc(v.source)}</div></a></div>`)
    .join('');
  return `<div class="MjjYud"><div role="heading" aria-level="2">Videos</div>${cards}</div>`;
}

export function places(query: string): { id: string; title: string; rating: number; reviews: number; category: string; address: string; url: string }[] {
  return [1, 2, 3].map((i) => ({
    id: String(9_100_000_000_000 + hash(`${query}${i}`)),
    title: `${titleCase(query)} Place ${i}`,
    rating: 4 + i / 10,
    reviews: 100 * i,
    category: i === 2 ? 'Tea house' : 'Shop',
    address: `${i}${i} Main St`,
    url: `https://www.place-${i}.example/`,
  }));
}

/** Place cards as on 2023-2025 desktop pages: the card link carries the place id (`data-cid`). */
function localPack(query: string): string {
  return `<div class="MjjYud">${places(query)
    .map(
      (p) =>
        `<div class="VkpGBb"><div class="cXedhc"><a class="vwVdIc rllt__link" data-cid="${p.id}" role="link" tabindex="0"><div><div class="rllt__details"><div class="dbg0pd" role="heading" aria-level="3"><span class="OSrXXb">${esc(p.title)}</span></div><div><span class="Y0A0hc"><span class="yi40Hd" aria-hidden="true">${p.rating.toFixed(1)}</span><span class="z3HNkc" aria-label="Rated ${p.rating.toFixed(1)} out of 5," role="img"></span><span class="RDApEe">(${p.reviews})</span></span> · ${esc(p.category)}</div><div>${esc(p.address)} · Near the station</div></div></div></a><a class="yYlJEf" href="${esc(p.url)}">Website</a></div></div>`,
    )
    .join('')}</div>`;
}

function shoppingUnits(query: string): string {
  const cards = products(query)
    .slice(0, 3)
    .map((p, i) => `<div class="mnr-c pla-unit" data-pla-slot-pos="${i + 1}"><a class="plantl" href="https://www.${slug(p.merchant)}.example/p/${p.id}"></a><div class="pla-unit-container"><div class="orXoSd"><div class="pla-unit-title" role="heading" aria-level="3"><a class="pla-unit-title-link" href="https://www.${slug(p.merchant)}.example/p/${p.id}"><span class="pymv4e">${esc(p.title)}</span></a></div><div class="T4OwTb"><span class="e10twf">${money(p.price)}</span></div><div class="LbUacb"><span>${esc(p.merchant)}</span></div></div></div></div>`)
    .join('');
  return `<div class="commercial-unit-desktop-top" data-pla="1"><div class="top-pla-group-inner">${cards}</div></div>`;
}

export function panelFacts(query: string): { label: string; value: string }[] {
  return [
    { label: 'Founded', value: String(1900 + (hash(query) % 120)) },
    { label: 'Known for', value: `${titleCase(query)} and related topics` },
  ];
}

function knowledgePanel(query: string): string {
  const facts = panelFacts(query)
    .map((f, i) => `<div class="wDYxhc" data-attrid="kc:/topic:fact${i}"><span class="w8qArf">${esc(f.label)}: </span><span class="LrzXr kno-fv">${esc(f.value)}</span></div>`)
    .join('');
  return `<div id="rhs"><div class="kp-wholepage"><div data-attrid="title" role="heading" aria-level="2"><span>${esc(titleCase(query))}</span></div><div data-attrid="subtitle"><span>Topic</span></div><div data-attrid="description"><div class="kno-rdesc"><h3>Description</h3><span>${esc(titleCase(query))} is the subject of this panel.</span><span> <a href="https://www.encyclopedia.example/wiki/${slug(query)}">Encyclopedia</a></span></div></div>${facts}</div></div>`;
}

function related(query: string): string {
  const links = relatedQueries(query)
    .map((q) => `<div><a class="k8XOCe" href="search?q=${encodeURIComponent(q).replace(/%20/g, '+')}"><div class="s75CSd">${esc(q)}</div></a></div>`)
    .join('');
  return `<div id="bres"><div class="y6Uyqe"><div class="EIaa9b"><div role="heading" aria-level="2">People also search for</div><div class="AJLUJb">${links}</div></div></div></div>`;
}

function pagination(query: string, page: number, num: number): string {
  const q = encodeURIComponent(query).replace(/%20/g, '+');
  const cells = [1, 2, 3, 4, 5].map((p) => (p === page ? `<td>${p}</td>` : `<td><a href="search?q=${q}&amp;start=${(p - 1) * num}">${p}</a></td>`)).join('');
  return `<table class="AaVjTc" role="presentation"><tr>${cells}</tr></table>`;
}

export function se1WebPage(o: Se1PageOptions): string {
  const first = o.page === 1;
  const top = ads(o.query, first ? 2 : 1, 'top', !!o.adtest).map(ad).join('');
  const bottom = ads(o.query, 1, 'bottom', !!o.adtest).map(ad).join('');
  const [lead, ...rest] = o.docs;
  const main = first && lead
    ? `${shoppingUnits(o.query)}${featured(lead, o.query)}${rest.slice(0, 2).map((d, i) => organic(d, i === 0)).join('')}${paa(o.query)}${topStories(o.query)}${rest.slice(2, 5).map((d) => organic(d, false)).join('')}${videos(o.query)}${localPack(o.query)}${rest.slice(5).map((d) => organic(d, false)).join('')}`
    : o.docs.map((d) => organic(d, false)).join('');
  return `<!doctype html><html lang="${esc(o.hl ?? 'en')}"><head><meta charset="utf-8"><title>${esc(o.query)} - Se1 Search</title><style>.g{margin:0}</style></head><body id="gsr" class="srp"><div id="main"><div id="cnt"><form action="search"><textarea class="gLFyf" name="q">${esc(o.query)}</textarea></form><div id="appbar"><div id="result-stats">${esc(resultStats(o.query, o.hl))}</div></div><div id="rcnt"><div id="center_col" role="main">${first ? aio(o.query, !!o.expandAio) : ''}<div id="taw"><div id="tads" aria-label="Ads" role="region"><h1>Ads</h1>${top}</div></div><div id="search"><div id="rso">${main}</div></div><div id="botstuff">${related(o.query)}<div id="bottomads" aria-label="Ads" role="region">${bottom}</div>${pagination(o.query, o.page, o.num)}</div></div>${first ? knowledgePanel(o.query) : ''}</div></div></div><script>window.se1={page:${o.page}}</script></body></html>`;
}

/** The basic-HTML page (`gbv=1`): `/url?q=` result links, no scripts, organic results, a local pack (first page) and related searches. */
export function se1BasicPage(o: Se1PageOptions): string {
  const results = o.docs
    .map((d) => `<div class="Gx5Zad fP1Qef xpd EtOod pkphOe"><div class="egMi0 kCrYT"><a href="/url?q=${encodeURIComponent(d.url)}&amp;sa=U"><div class="DnJfK"><div class="j039Wc"><h3 class="zBAuLc l97dzf"><div class="BNeawe vvjwJb AP7Wnd">${esc(d.title)}</div></h3></div><div class="sCuL3"><div class="BNeawe UPmit AP7Wnd">${esc(cite(d).replace('https://', ''))}</div></div></div></a></div><div class="kCrYT"><div><div class="BNeawe s3v9rd AP7Wnd"><div><div><div class="BNeawe s3v9rd AP7Wnd">${esc(d.snippet)}</div></div></div></div></div></div></div>`)
    .join('');
  const rel = relatedQueries(o.query)
    .map((q) => `<div class="gGQDvd iIWm4b"><a class="Q71vJc" href="search?q=${encodeURIComponent(q).replace(/%20/g, '+')}"><div class="kjGX2"><span><div class="BNeawe s3v9rd AP7Wnd lRVwie">${esc(q)}</div></span></div></a></div>`)
    .join('');
  const places = o.page === 1 && o.docs.length > 2 ? basicLocalPack(o.query) : '';
  return `<!doctype html><html lang="${esc(o.hl ?? 'en')}"><head><meta charset="utf-8"><title>${esc(o.query)} - Se1 Search</title></head><body><div id="main"><form><input class="noHIxc" value="${esc(o.query)}" name="q" type="text"></form>${results}${places}<div class="Gx5Zad xpd EtOod pkphOe"><div>${rel}</div></div></div></body></html>`;
}

export { doc };
