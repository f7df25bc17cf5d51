/**
 * se2 web results pages of the simulator, following the result list the engine has used since
 * 2019: `#b_results` with `li.b_algo` results (title link in an `h2`, `cite`, caption paragraph),
 * `li.b_ad` ad groups (`b_adBottom` below), a `.b_rs` related-searches block, pagination, and the
 * count in `.sb_count`; `li.b_no` when nothing matched.
 */
import type { Doc } from './se-data.js';
import { esc, relatedQueries, resultTotal, slug, titleCase } from './se-data.js';

export interface Se2AdModel {
  title: string;
  url: string;
  host: string;
  description: string;
}

export function se2Ads(query: string, block: 'top' | 'bottom'): Se2AdModel[] {
  const host = `www.se2-${block}-ad.example`;
  return [{ title: `${titleCase(query)} Offers (${block})`, url: `https://${host}/${slug(query)}`, host, description: `Compare ${query} offers.` }];
}

function adGroup(ads: Se2AdModel[], bottom: boolean): string {
  const units = ads
    .map((a) => `<li><div class="sb_add sb_adTA"><h2><a href="${esc(a.url)}">${esc(a.title)}</a></h2><div class="b_caption"><div class="b_attribution"><cite>${esc(a.host)}</cite></div><p><span class="b_adSlug">Ad</span>${esc(a.description)}</p></div></div></li>`)
    .join('');
  return `<li class="b_ad${bottom ? ' b_adBottom' : ''}"><ul>${units}</ul></li>`;
}

function result(d: Doc): string {
  return `<li class="b_algo"><h2><a href="${esc(d.url)}">${esc(d.title)}</a></h2><div class="b_caption"><div class="b_attribution"><cite>${esc(d.url)}</cite></div><p>${esc(d.snippet)}</p></div></li>`;
}

export function se2Page(o: { query: string; page: number; setlang?: string; docs: Doc[] }): string {
  const q = encodeURIComponent(o.query).replace(/%20/g, '+');
  const rel = relatedQueries(o.query)
    .slice(0, 6)
    .map((r) => `<li><a href="search?q=${encodeURIComponent(r).replace(/%20/g, '+')}">${esc(r)}</a></li>`)
    .join('');
  const pages = [1, 2, 3].map((p) => (p === o.page ? `<span>${p}</span>` : `<a href="search?q=${q}&amp;first=${(p - 1) * 10 + 1}">${p}</a>`)).join('');
  const body =
    o.docs.length === 0
      ? `<li class="b_no"><h1>There are no results for ${esc(o.query)}</h1></li>`
      : `${adGroup(se2Ads(o.query, 'top'), false)}${o.docs.map(result).join('')}${adGroup(se2Ads(o.query, 'bottom'), true)}<li class="b_ans"><div class="b_rs"><h2>Related searches</h2><ul>${rel}</ul></div></li><li class="b_pag"><nav role="navigation">${pages}</nav></li>`;
  const count = o.docs.length === 0 ? '' : `<span class="sb_count">${resultTotal(o.query).toLocaleString('en-US')} results</span>`;
  return `<!doctype html><html lang="${esc(o.setlang ?? 'en')}"><head><meta charset="utf-8"><title>${esc(o.query)} - Se2</title></head><body><form action="search"><input name="q" value="${esc(o.query)}"></form><div id="b_content">${count}<ol id="b_results">${body}</ol></div></body></html>`;
}
