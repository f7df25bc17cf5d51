/**
 * se1 results page (`se1/search`, `se1/ads`, and `se1` for result-page URLs): runs every block
 * extractor over one parsed document and reports whether the page was recognised. The tab the
 * page shows (vertical.ts) decides what `organic` lists: web results on the web, video and book
 * tabs; the News tab's articles and the Images tab's pages (in the organic shape) on those tabs,
 * whose full items are `news_results` and `image_results`; the Shopping tab's products are
 * `shopping_results` (the `se1/shopping/search` route reads the same grid).
 */
import type { PageInput, Parsed } from '../../../parsers/types.js';
import { Blocks, resultCount } from '../../../parsers/blocks.js';
import type { Document, Element } from '../../../parsers/dom.js';
import { all, loadHtml, one, text } from '../../../parsers/dom.js';
import { parseAiOverview } from './aio.js';
import { parseShoppingUnits, parseTextAds } from './ads.js';
import { parseTopStories, parseVideos } from './news.js';
import { parseOrganic } from './organic.js';
import { expectSections } from './drift.js';
import { parseImagesTab } from './images-tab.js';
import { parseLocalPack } from './local.js';
import { parseNewsTab } from './news-tab.js';
import { parseKnowledgePanel } from './panels.js';
import { parseProductGrid } from './shopping.js';
import { parseQuestions, parseRelatedSearches } from './questions.js';
import type { OrganicResult, Se1AdsJson, Se1SearchJson } from './types.js';
import { verticalOf } from './vertical.js';

/** The query as the page shows it in its search box, else as requested. */
export function pageQuery(doc: Document, params: Record<string, unknown>): string | null {
  for (const el of all('textarea[name="q"], input[name="q"]', doc)) {
    const v = (el.attribs.value ?? (el.name === 'textarea' ? text(el) : '')).trim();
    if (v) return v;
  }
  return typeof params.query === 'string' ? params.query : null;
}

/** Containers every generation of the results page has, even with zero results. */
function looksLikeResultsPage(doc: Document): boolean {
  return one('#rso, #search, #res, #ires, #result-stats, #topstuff, #botstuff, input[name="tbm"]', doc) !== null;
}

/** Vertical items in the organic shape: the page's main result list. */
function asOrganic(items: { title: string; url: string; source: string | null; snippet?: string | null }[]): OrganicResult[] {
  return items.map((r, i) => ({ position: i + 1, title: r.title, url: r.url, displayed_url: r.source, snippet: r.snippet ?? null, sitelinks: [] }));
}

export function parseSe1SearchDoc(doc: Document, input: PageInput): Parsed {
  const b = new Blocks();
  const url = input.url;
  const vertical = verticalOf(doc, url);
  const news = vertical === 'news' ? b.run('news_results', () => parseNewsTab(doc, url), []) : [];
  const images = vertical === 'images' ? b.run('image_results', () => parseImagesTab(doc, input.html, url), []) : [];
  const products = vertical === 'shopping' ? b.run('shopping_results', () => parseProductGrid(doc, url), []) : [];
  const tabItems = news.length > 0 ? asOrganic(news) : images.length > 0 ? asOrganic(images) : null;
  const organicBlock = tabItems
    ? { results: tabItems, featured: null, anchors: new Set<Element>() }
    : b.run('organic', () => parseOrganic(doc, url), { results: [], featured: null, anchors: new Set<Element>() });
  const organicAnchors = organicBlock.anchors;
  const stats = one('#result-stats, #resultStats', doc);
  const json: Se1SearchJson = {
    query: pageQuery(doc, input.params),
    page: input.page,
    vertical,
    result_count: stats ? resultCount(text(stats)) : null,
    organic: organicBlock.results,
    paid: b.run('paid', () => parseTextAds(doc, url), []),
    shopping: b.run('shopping', () => parseShoppingUnits(doc, url), []),
    people_also_ask: b.run('people_also_ask', () => parseQuestions(doc, url), []),
    related_searches: b.run('related_searches', () => parseRelatedSearches(doc, url), []),
    ai_overview: b.run('ai_overview', () => parseAiOverview(doc, url), null),
    featured_snippet: organicBlock.featured,
    knowledge_panel: b.run('knowledge_panel', () => parseKnowledgePanel(doc, url), null),
    local_pack: b.run('local_pack', () => parseLocalPack(doc, url), []),
    top_stories: b.run('top_stories', () => parseTopStories(doc, url, organicAnchors), []),
    videos: b.run('videos', () => parseVideos(doc, url, organicAnchors), []),
    news_results: news,
    image_results: images,
    shopping_results: products,
  };
  // A section that is on the page but yielded nothing means its markup changed: say so.
  expectSections(b, doc, json, url);
  const found =
    json.organic.length + json.paid.length + json.shopping.length + json.shopping_results.length + json.people_also_ask.length + json.related_searches.length > 0 ||
    json.ai_overview !== null ||
    json.knowledge_panel !== null;
  return b.result(json, found || looksLikeResultsPage(doc));
}

export function parseSe1Search(input: PageInput): Parsed {
  return parseSe1SearchDoc(loadHtml(input.html), input);
}

/** `se1/ads`: the paid block only (text ads and product listing ads). */
export function parseSe1Ads(input: PageInput): Parsed {
  const doc = loadHtml(input.html);
  const b = new Blocks();
  const json: Se1AdsJson = {
    query: pageQuery(doc, input.params),
    page: input.page,
    paid: b.run('paid', () => parseTextAds(doc, input.url), []),
    shopping: b.run('shopping', () => parseShoppingUnits(doc, input.url), []),
  };
  b.expect('paid', json.paid.length > 0 || one('[data-text-ad], li.ads-ad', doc) === null);
  return b.result(json, json.paid.length + json.shopping.length > 0 || looksLikeResultsPage(doc));
}
