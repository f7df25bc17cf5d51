/**
 * se2 results page (`se2/search`, and `se2` for result-page URLs). The result list has two
 * generations: `#b_results` (2013-2025) — `b_algo` organic results with the title link in an
 * `h2`, also inside result clusters (`algocl` slide rows, 2022), `li.b_ad` ad groups
 * (`b_adBottom` below the results), `li.b_ans` answers (people-also-ask `qna_algo` blocks hold
 * `b_algo` answers that are not results; a `b_algoBigWiki` entry is the encyclopedia answer
 * block), a `.b_rs` related-searches block, `li.b_no` for an empty result set; and before it
 * (2009-2014) `ul.sb_results` items (`li.sa_wr`, or bare `li` holding a `.sa_cc` result) with
 * the title link in an `h3`, answers as `li.sb_ans`, ads in `div.sb_ads*` groups and related
 * searches in `#sw_rel` or a `.qsa` answer. The count is in `.sb_count`. Sitelinks and tracking
 * links (links.ts), image result pages (images.ts) and place/hotel blocks (places.ts) are read
 * too.
 */
import type { PageInput, Parsed } from '../../parsers/types.js';
import { Blocks, resultCount } from '../../parsers/blocks.js';
import type { Document, Element } from '../../parsers/dom.js';
import { all, closest, contains, hasClass, linkTarget, loadHtml, one, text } from '../../parsers/dom.js';
import type { Hotel } from '../se1/parse/hotels.js';
import type { ImageResult } from '../se1/parse/images-tab.js';
import type { LocalResult, OrganicResult, PaidResult, RelatedSearch } from '../se1/parse/types.js';
import { isImagesPage, parseSe2Images } from './images.js';
import { linksOf, NOT_SITELINK, unwrapTracking } from './links.js';
import { parseSe2Places } from './places.js';

export { unwrapTracking };

export interface Se2SearchJson {
  query: string | null;
  page: number;
  /** `images` on an image results page (its images also listed, as pages, in `organic`). */
  vertical: 'web' | 'images';
  result_count: number | null;
  organic: OrganicResult[];
  paid: PaidResult[];
  related_searches: RelatedSearch[];
  /** Places of a local answer or the side column's local card. */
  local_pack: LocalResult[];
  /** Hotels of a hotel answer. */
  hotels: Hotel[];
  image_results: ImageResult[];
}

function snippetOf(item: Element, titleLink: Element): string | null {
  const el = one('.b_caption p, .b_lineclamp2, .b_lineclamp3, .b_lineclamp4, .b_algoSlug, .b_paractl, .sa_mc > p, .sa_cc > p', item);
  if (el) return text(el, (e) => hasClass(e, 'b_adSlug')) || null;
  const cap = one('.b_caption', item);
  const t = cap ? text(cap, (e) => NOT_SITELINK(e) || e === titleLink) : '';
  return t || null;
}

/** Entries of the result list that are not results: answers, ads, people-also-ask, the encyclopedia block. */
const NOT_RESULT = (e: Element) =>
  hasClass(e, 'b_ans') || hasClass(e, 'b_ad') || hasClass(e, 'sb_ans') || hasClass(e, 'qna_algo') || hasClass(e, 'b_algoBigWiki') || e.attribs.id === 'b_context';

function resultItems(doc: Document): Element[] {
  const list = one('#b_results', doc);
  if (list) {
    // Clusters nest results deeper than the list's own items; answers nest answer entries.
    const inside = (item: Element) => {
      for (let p = item.parent; p && p !== list; p = p.parent) if (p.type === 'tag' && (NOT_RESULT(p) || hasClass(p, 'b_algo'))) return true;
      return false;
    };
    return all('.b_algo', list).filter((item) => !NOT_RESULT(item) && !inside(item));
  }
  const old = one('ul.sb_results, #wg0, #results > ul', doc);
  if (!old) return [];
  return old.children.filter((c): c is Element => c.type === 'tag' && c.name === 'li' && !NOT_RESULT(c) && (hasClass(c, 'sa_wr') || one('.sa_cc', c) !== null));
}

export function parseSe2Organic(doc: Document, pageUrl: string): OrganicResult[] {
  const out: OrganicResult[] = [];
  for (const item of resultItems(doc)) {
    const a = one('h2 a[href], .b_title a[href], h3 a[href]', item);
    if (!a) continue;
    const url = unwrapTracking(linkTarget(a.attribs.href, pageUrl));
    if (!url) continue;
    const cite = one('cite', item);
    out.push({
      position: out.length + 1,
      title: text(a),
      url,
      displayed_url: cite ? text(cite) || null : null,
      snippet: snippetOf(item, a),
      sitelinks: linksOf(item, a, url, pageUrl),
    });
  }
  return out;
}

/**
 * Ad groups: `li.b_ad` in the result list or the side column (2015-2025; `b_adBottom` below the
 * results), and before it (2009-2014) `div.sb_adsWv2` above the results, the same with
 * `sb_adsW2v2` below them and `div.sb_adsNv2` in the side column, with the title link in an
 * `h3`. Side-column ads are reported with the top block (the output knows two blocks).
 */
const AD_GROUPS = '#b_results > li.b_ad, #b_context li.b_ad, .b_adTop, .b_adBottom, .sb_adsWv2, .sb_adsNv2';
const AD_TITLE = 'h2 a[href], h3 a[href]';

export function parseSe2Ads(doc: Document, pageUrl: string): PaidResult[] {
  const out: PaidResult[] = [];
  for (const group of all(AD_GROUPS, doc)) {
    if (closest(group, (e) => hasClass(e, 'b_ad'))) continue;
    const block = hasClass(group, 'b_adBottom') || hasClass(group, 'sb_adsW2v2') ? 'bottom' : 'top';
    // The candidate list is queried once per group, not again for every candidate it holds.
    const cands = all('.sb_add, ul > li', group);
    const units = cands.filter((u) => one(AD_TITLE, u) && !cands.some((o) => o !== u && contains(o, u)));
    for (const unit of units) {
      const a = one(AD_TITLE, unit);
      if (!a) continue;
      const url = unwrapTracking(linkTarget(a.attribs.href, pageUrl, true));
      if (!url) continue;
      const cite = one('cite', unit);
      // 2009-2014 units have a bare paragraph under the address line.
      const desc = one('.b_caption p, .b_ad_description', unit) ?? one('p', unit);
      out.push({
        position: out.length + 1,
        block,
        title: text(a),
        url,
        displayed_url: cite ? text(cite) || null : null,
        description: desc ? text(desc, (e) => hasClass(e, 'b_adSlug')) || null : null,
        sitelinks: linksOf(unit, a, url, pageUrl),
      });
    }
  }
  return out;
}

/**
 * Related searches: `.b_rs` (2013-2025, `#brsv3` in the side column); before it the left
 * column's `#sw_rel` menu (2009-2011) and the "Related searches for ..." answer (`.qsa`
 * columns) with its side-column copy (`li.rrrs_itm`, 2012-2013). Duplicates are dropped.
 */
const RELATED = '.b_rs, #brsv3, #sw_rel, .qscolumn, li.rrrs_itm';

export function parseSe2Related(doc: Document, pageUrl: string): RelatedSearch[] {
  const out: RelatedSearch[] = [];
  const seen = new Set<string>();
  // The boxes first, then their links: a document-wide `box a[href]` tests every link on the
  // page against each box's ancestors (ten times the cost on a 2014 page).
  const boxes = all(RELATED, doc);
  const outer = boxes.filter((b) => !boxes.some((o) => o !== b && contains(o, b)) && (!hasClass(b, 'qscolumn') || closest(b, (e) => hasClass(e, 'qsa'), 3)));
  for (const a of outer.flatMap((b) => all('a[href]', b))) {
    const query = text(a);
    if (!query || seen.has(query.toLowerCase())) continue;
    seen.add(query.toLowerCase());
    out.push({ query, url: linkTarget(a.attribs.href, pageUrl, true) });
  }
  return out;
}

function se2Query(doc: Document, params: Record<string, unknown>): string | null {
  const box = one('input[name="q"], textarea[name="q"]', doc);
  const v = box ? (box.attribs.value ?? (box.name === 'textarea' ? text(box) : '')).trim() : '';
  if (v) return v;
  return typeof params.query === 'string' ? params.query : null;
}

export function parseSe2Search(input: PageInput): Parsed {
  const doc = loadHtml(input.html);
  const b = new Blocks();
  const count = one('.sb_count, #count', doc);
  const imagesPage = isImagesPage(doc, input.url);
  const images = imagesPage ? b.run('image_results', () => parseSe2Images(doc, input.url), []) : [];
  const places = b.run('local_pack', () => parseSe2Places(doc), { local: [], hotels: [] });
  const organic = images.length > 0
    ? images.map((r, i) => ({ position: i + 1, title: r.title, url: r.url, displayed_url: r.source, snippet: null, sitelinks: [] }))
    : b.run('organic', () => parseSe2Organic(doc, input.url), []);
  const json: Se2SearchJson = {
    query: se2Query(doc, input.params),
    page: input.page,
    vertical: images.length > 0 ? 'images' : 'web',
    result_count: count ? resultCount(text(count)) : null,
    organic,
    paid: b.run('paid', () => parseSe2Ads(doc, input.url), []),
    related_searches: b.run('related_searches', () => parseSe2Related(doc, input.url), []),
    local_pack: places.local,
    hotels: places.hotels,
    image_results: images,
  };
  // Sections the page shows in markup that yielded nothing: the layout changed (partial).
  if (imagesPage) b.expect('image_results', images.length > 0 || one('a.iusc, .item > a.thumb', doc) === null);
  else b.expect('organic', json.organic.length > 0 || one('li.b_algo, li.sa_wr, .sa_cc', doc) === null);
  b.expect('paid', json.paid.length > 0 || one('li.b_ad .sb_add, li.b_ad li, .sb_adsWv2 .sb_add, .sb_adsNv2 .sb_add', doc) === null);
  b.expect('local_pack', json.local_pack.length + json.hotels.length > 0 || one('[data-ypid], .b_localDesktopInfoCard', doc) === null);
  const known = json.organic.length + json.paid.length > 0 || one('#b_results, .sb_results, #b_content', doc) !== null;
  return b.result(json, known);
}
