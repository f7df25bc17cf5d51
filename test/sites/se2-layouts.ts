/**
 * se2 pages of other generations and blocks, in the structures of captured pages
 * (hand-written, small; no captured page is copied):
 *
 * - `se2OldPage` (2009-2014): `#results > ul.sb_results` with `li.sa_wr` items (`.sa_cc`,
 *   `h3` title link, `.sb_meta` line of `cite` and "Cached page", `p` snippet, `ul.sp_pss`
 *   deep links) and an `li.sb_ans` answer; with `extras`, the ad groups of the time
 *   (`div.sb_adsWv2` above and `sb_adsW2v2` below the list, `div.sb_adsNv2` in the side
 *   column; `.sb_add` units, `h3` title) and related searches, as the left column's `#sw_rel`
 *   menu (2009-2011) or the `.qsa` answer's columns with their side-column copy (2012-2013);
 * - `se2BoxLinksPage` (2019-2022): results whose boxes hold links that are not sitelinks
 *   (licence line, fact-row and "more results" searches on the engine, social-post cards,
 *   "Explore further" table, warning pop-up) beside real deep links;
 * - `se2RichPage` (2019-2022): the `#b_results` list with an encyclopedia answer
 *   (`li.b_algo.b_algoBigWiki`), a people-also-ask answer whose entries are `div.b_algo`
 *   inside `qna_algo`, and a cluster row (`div.algocl` of slides each holding an `li.b_algo`);
 * - `se2HotelsPage`: a hotel answer of place cards (`data-ypid`, name heading, stars
 *   `aria-label`, "Source (1.8K)" title, "4-star hotel · City" with the address in a `title`);
 * - `se2LocalCardPage`: the side column's local card with its save-overlay JSON;
 * - `se2ImagesPage`: image results, as `a.iusc` links with `m` JSON (full page) or `.item`
 *   cells (without scripts).
 */
import type { Doc } from './se-data.js';
import { esc, hash, slug, titleCase } from './se-data.js';

const shell = (query: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(query)} - Se2</title></head><body><form action="search"><input name="q" value="${esc(query)}"></form>${body}</body></html>`;

const DEEP = ['History', 'Products', 'Contact'];

export function se2OldPage(query: string, docs: Doc[], extras?: 'menu' | 'answer'): string {
  const items = docs
    .map((d, i) => {
      const deep = i === 0 ? `<ul class="sp_pss">${DEEP.map((t) => `<li><a href="${esc(d.url)}#${slug(t)}">${t}</a>&nbsp;&#0183;&#32;</li>`).join('')}</ul>` : '';
      const cached = `<a href="http://cc.se2cache.example/cache.aspx?q=${encodeURIComponent(query)}&amp;d=${hash(d.url)}">Cached page</a>`;
      return `<li class="sa_wr"><div class="sa_cc"><div class="sa_mc"><div class="sb_tlst"><h3><a href="${esc(d.url)}">${esc(d.title)}</a></h3></div><div class="sb_meta"><cite>${esc(d.host)}</cite>&nbsp;&#0183;&#32;${cached}</div>${deep}<p>${esc(d.snippet)}</p></div></div></li>`;
    })
    .join('');
  const answer = `<li class="sb_ans"><div class="ans"><h2 class="sb_h3"><a href="/images/search?q=${encodeURIComponent(query)}">Images of ${esc(query)}</a></h2><p class="sb_meta"><cite>se2.example/images</cite></p></div></li>`;
  const list = `<div id="results"><ul id="wg0" class="sb_results">${items}${answer}</ul></div>`;
  if (!extras) return shell(query, list);
  const [top, side] = se2OldAds(query);
  const adGroup = (cls: string, ads: Se2OldAd[]) =>
    `<div class="${cls}"><div class="sb_adt"><h2 class="sb_title">Ads related to <strong>${esc(query)}</strong></h2></div><ul>${ads
      .map((a) => `<li><div class="sb_add sb_adW"><h3><a href="${esc(a.url)}">${esc(a.title)}</a></h3><div><div class="sb_dul"><cite>${esc(a.cite)}</cite></div><p>${esc(a.description)}</p></div></div></li>`)
      .join('')}</ul></div>`;
  const rel = se2OldRelated(query);
  const link = (r: string, form: string) => `<a href="/search?q=${encodeURIComponent(r).replace(/%20/g, '+')}&amp;FORM=${form}">${esc(r)}</a>`;
  const related =
    extras === 'menu'
      ? `<div class="sw_menu" id="sw_rel"><h2>Related searches</h2><ul>${rel.map((r) => `<li>${link(r, 'R5FD')}</li>`).join('')}</ul></div><div class="sw_menu" id="sc_sst"><h2>Search history</h2><ul><li>${link('earlier query', 'O1FD')}</li></ul></div>`
      : `<div class="ans2 qsa"><h2 class="sb_h3 cttl">Related searches for <strong>${esc(query)}</strong></h2><div class="crch">${[rel.slice(0, 2), rel.slice(2)]
          .map((col) => `<div class="qscolumn"><ul class="sc_hl1">${col.map((r) => `<li>${link(r, 'QSRE1')}</li>`).join('')}</ul></div>`)
          .join('')}</div></div>`;
  const sideRel = extras === 'answer' ? `<div class="sw_menu"><h2><div class="sb_title rrrs_ttl">Related searches</div></h2><ul>${rel.map((r) => `<li class="rrrs_itm">${link(r, 'R5FD')}</li>`).join('')}</ul></div>` : '';
  return shell(
    query,
    `<div id="sw_canvas"><div id="content">${extras === 'menu' ? related : ''}${adGroup('sb_adsWv2', top)}${extras === 'answer' ? related : ''}${list}${adGroup('sb_adsWv2 sb_adsW2v2', top)}</div><div id="sidebar">${adGroup('sb_adsNv2', side)}${sideRel}</div></div>`,
  );
}

export interface Se2OldAd {
  title: string;
  url: string;
  cite: string;
  description: string;
}

/** One ad above (and again below) the list, one in the side column. */
export function se2OldAds(query: string): [Se2OldAd[], Se2OldAd[]] {
  const ad = (n: number): Se2OldAd => ({ title: `${titleCase(query)} Deals ${n}`, url: `http://${n}.r.adserver.example/?ld=${hash(query)}&u=shop-${n}.example`, cite: `www.Shop-${n}.example/${slug(query)}`, description: `Save on ${query} at shop ${n}.` });
  return [[ad(1)], [ad(2)]];
}

export function se2OldRelated(query: string): string[] {
  return ['reviews', 'price', 'history'].map((w) => `${query} ${w}`);
}

const algo = (d: Doc, tag = 'li') => `<${tag} class="b_algo"><h2><a href="${esc(d.url)}">${esc(d.title)}</a></h2><div class="b_caption"><div class="b_attribution"><cite>${esc(d.url)}</cite></div><p>${esc(d.snippet)}</p></div></${tag}>`;

/** `docs[0..1]` in the list, `docs[2..4]` in a cluster row, `docs[5..]` after it; `qna` answers and a wiki block around them. */
export function se2RichPage(query: string, docs: Doc[], qna: Doc[]): string {
  const wiki = `<li class="b_algo b_algoBorder b_algoBigWiki"><h2><a href="https://en.encyclopedia.example/wiki/${slug(query)}">${esc(titleCase(query))} - Encyclopedia</a></h2><div class="wiki_big"><div class="acc-head" role="button">Overview</div></div></li>`;
  const paa = `<li class="b_ans"><div class="df_alsocon"><div class="b_expando"><div class="df_qntext">${esc(`What is ${query}?`)}</div><div class="qna_algo">${qna.map((d) => algo(d, 'div')).join('')}</div></div></div></li>`;
  const cluster = `<div class="algocl"><div class="b_slideexp"><div class="b_slidebar" role="list">${docs
    .slice(2, 5)
    .map((d) => `<div class="slide" role="listitem">${algo(d)}</div>`)
    .join('')}</div></div></div>`;
  const list = `${wiki}${docs.slice(0, 2).map((d) => algo(d)).join('')}${paa}${cluster}${docs.slice(5).map((d) => algo(d)).join('')}`;
  return shell(query, `<div id="b_content"><ol id="b_results">${list}</ol></div>`);
}

/** `docs[0]` with two deep links among non-sitelink links; `docs[1]` a wiki result with only its licence line. */
export function se2BoxLinksPage(query: string, docs: Doc[]): { html: string; deep: { title: string; url: string }[] } {
  const [a, b] = docs as [Doc, Doc];
  const deep = ['Books', 'Music'].map((t) => ({ title: t, url: `https://${a.host}/${slug(t)}` }));
  const search = (q: string) => `https://se2.example/search?q=${encodeURIComponent(q)}&amp;FORM=LFACTRE`;
  const box = `<li class="b_algo"><h2><a href="${esc(a.url)}">${esc(a.title)}</a></h2><div class="b_caption"><div class="b_attribution"><cite>${esc(a.url)}</cite></div><p>${esc(a.snippet)}</p>`
    + `<div class="b_factrow b_twofr"><div class="b_vlist2col"><ul><li><div><a href="${search('Jane Doe')}"><strong>Author:</strong> Jane Doe</a></div></li></ul></div></div></div>`
    + `<div class="sa_uc"><ul class="b_vList"><li class="b_annooverride"><div class="b_deeplink_twocol_block"><div class="b_vlist2col"><ul>${deep.map((l) => `<li><a href="${esc(l.url)}">${l.title}</a></li>`).join('')}</ul></div></div></li>`
    + `<li class="b_annooverride"><div class="b_algoSocial"><div class="slide"><p class="b_postTxt">A post</p><div class="b_viewon"> · <a href="https://${a.host}/posts/1">See More</a></div></div></div></li></ul></div>`
    + `<div class="supercaptions-child"><div class="pageRecoContainer"><h2>Explore further</h2><table><tr><td><a href="https://other-site.example/${slug(query)}">Other Site on ${esc(query)}</a></td></tr></table></div></div>`
    + `<div class="infobubble b_hide"><div class="infobubble_text1">This site is on a <a href="https://watchdog.example/not-recommended">Not Recommended List</a>.</div></div>`
    + `<a href="${search(`${query} site:${a.host}`)}">See more results</a></li>`;
  const wiki = `<li class="b_algo"><h2><a href="${esc(b.url)}">${esc(b.title)}</a></h2><div class="b_caption"><div class="b_attribution"><cite>${esc(b.url)}</cite></div></div>`
    + `<div class="tab-content"><div role="tabpanel"><ul class="b_vList"><li><div>${esc(b.snippet)}</div></li></ul> · Text under <a href="http://creativecommons.org/licenses/by-sa/3.0/">CC-BY-SA license</a></div></div>`
    + `<div class="wiki_attr"><a href="https://en.encyclopedia.example/wiki/${slug(query)}">Encyclopedia</a><span> · Text under <a href="http://creativecommons.org/licenses/by-sa/3.0/">CC-BY-SA license</a></span></div></li>`;
  return { html: shell(query, `<div id="b_content"><ol id="b_results">${box}${wiki}</ol></div>`), deep };
}

export interface Se2Hotel {
  name: string;
  id: string;
  rating: number;
  reviews: string;
  reviewCount: number;
  stars: number;
  city: string;
  address: string;
}

export function se2Hotels(query: string): Se2Hotel[] {
  return [0, 1, 2].map((i) => ({
    name: `${titleCase(query)} Hotel ${i + 1}`,
    id: `YN${hash(`${query}${i}`)}`,
    rating: [4.5, 3, 4][i] as number,
    reviews: ['1.8K', '214', '2.1K'][i] as string,
    reviewCount: [1800, 214, 2100][i] as number,
    stars: [4, 2, 3][i] as number,
    city: 'Springfield',
    address: `${10 + i} Main St, Springfield`,
  }));
}

export function se2HotelsPage(query: string, docs: Doc[]): string {
  const cards = se2Hotels(query)
    .map((h) => `<div class="b_scard"><div><div data-ypid="${h.id}" role="button"><div class="listCard"><span class="lc_content"><h2>${esc(h.name)}</h2><div class="b_factrow"><span class="csrc" role="img" aria-label="Star Rating: ${String(h.rating).replace('.', ',')} out of 5."></span> <span title="Reviews.example (${h.reviews})">Reviews.example (${h.reviews.slice(0, 2)}…</span></div><div class="b_factrow">${h.stars}-star hotel · <span title="${esc(h.address)}">${esc(h.city)}</span></div></span></div></div></div></div>`)
    .join('');
  const answer = `<li class="b_ans b_mop"><div class="b_ilhTitle"><h2>Hotels ${esc(query)}</h2></div><div class="b_slidebar">${cards}</div></li>`;
  return shell(query, `<div id="b_content"><ol id="b_results">${algo(docs[0] as Doc)}${answer}${docs.slice(1).map((d) => algo(d)).join('')}</ol></div>`);
}

export function se2LocalCardPage(query: string, docs: Doc[]): { html: string; title: string; address: string; category: string } {
  const title = `${titleCase(query)} Brewery GmbH`;
  const address = 'Hauptstr. 18 · 76131 Karlsruhe';
  const overlay = esc(JSON.stringify({ data: { title, address, id: `YN${hash(query)}` } }));
  const card = `<div id="b_context"><div class="b_sideBleed"><div class="compInfo b_localDesktopInfoCard"><span class="bm_save_overlay" data-saveoverlay="${overlay}"></span><h2 class="b_entityTitle">${esc(title)}</h2><div class="b_factrow">Brewery</div></div></div></div>`;
  return { html: shell(query, `<div id="b_content"><ol id="b_results">${docs.map((d) => algo(d)).join('')}</ol>${card}</div>`), title, address: 'Hauptstr. 18, 76131 Karlsruhe', category: 'Brewery' };
}

export interface Se2Image {
  title: string;
  page: string;
  image: string;
  thumbnail: string;
  source: string;
  width: number;
  height: number;
}

export function se2Images(query: string): Se2Image[] {
  return [0, 1, 2].map((i) => {
    const host = `photos-${i + 1}.example`;
    return {
      title: `${titleCase(query)} photo ${i + 1}`,
      page: `https://${host}/${slug(query)}/${i + 1}`,
      image: `https://cdn.${host}/${slug(query)}-${i + 1}.jpg`,
      thumbnail: `https://th.se2.example/th?id=OIP.${slug(query)}${i + 1}`,
      source: host,
      width: 600 + 100 * i,
      height: 400 + 100 * i,
    };
  });
}

export function se2ImagesPage(query: string, layout: 'json' | 'cells'): string {
  const list = se2Images(query);
  const body =
    layout === 'json'
      ? `<ul class="dgControl_list">${list
          .map((m) => {
            const meta = esc(JSON.stringify({ purl: m.page, murl: m.image, turl: m.thumbnail, t: m.title }));
            return `<li><div class="iuscp"><div class="imgpt"><a class="iusc" m="${meta}" href="/images/search?view=detailV2"><img class="mimg" src="${esc(m.thumbnail)}" alt=""></a><div class="img_info"><span class="nowrap">${m.width} x ${m.height} · jpeg</span><div class="lnkw"><a href="${esc(m.page)}">${esc(m.source)}</a></div></div></div></div></li>`;
          })
          .join('')}</ul>`
      : `<div class="content">${list
          .map((m) => `<div class="item"><a class="thumb" href="${esc(m.image)}"><div class="cico"><img src="${esc(m.thumbnail)}" alt=" "></div></a><div class="meta"><a class="tit" href="${esc(m.page)}">${esc(m.source)}</a><div class="des">${esc(m.title)}</div><div class="fileInfo">${m.width} x ${m.height} jpeg 41kB</div></div></div>`)
          .join('')}</div>`;
  return shell(query, `<div id="b_content">${body}</div>`);
}
