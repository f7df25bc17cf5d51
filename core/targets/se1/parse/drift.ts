/**
 * Layout drift on se1 results pages: the sections a page visibly has — judged by markup that
 * outlives class-name changes (outside links with headings in the results column, pictures
 * linked to pages, place ids, ad and question containers) — that the parsers read nothing
 * from. Each is reported by name (`metadata.missing_sections`) and makes the page `partial`,
 * so a changed layout shows in `gleaner_parse_status_total` before users see empty fields.
 */
import type { Blocks } from '../../../parsers/blocks.js';
import type { Document } from '../../../parsers/dom.js';
import { all, closest, linkTarget, one } from '../../../parsers/dom.js';
import { hasPlaceCards } from './local.js';
import { isEngineHost, resultsRoot } from './news-tab.js';
import type { Se1SearchJson } from './types.js';

/** Outside links in the results column: those holding a heading, and those holding a picture. */
function outsideLinks(doc: Document, pageUrl: string): { headed: number; pictures: number; all: number } {
  let headed = 0;
  let pictures = 0;
  let count = 0;
  for (const a of all('a[href]', resultsRoot(doc))) {
    const url = linkTarget(a.attribs.href, pageUrl);
    if (!url || isEngineHost(url)) continue;
    count++;
    if (one('h3, [role="heading"]', a) || closest(a, (e) => e.name === 'h3', 3)) headed++;
    if (one('img', a)) pictures++;
  }
  return { headed, pictures, all: count };
}

export function expectSections(b: Blocks, doc: Document, json: Se1SearchJson, pageUrl: string): void {
  const links = outsideLinks(doc, pageUrl);
  if (json.vertical === 'news') b.expect('news_results', json.news_results.length > 0 || links.all < 3);
  else if (json.vertical === 'images') b.expect('image_results', json.image_results.length > 0 || links.pictures < 3);
  else if (json.vertical === 'shopping') b.expect('shopping_results', json.shopping_results.length > 0 || one('.sh-dgr__grid-result, .sh-dlr__list-result, [data-docid]', doc) === null);
  else b.expect('organic', json.organic.length > 0 || links.headed < 3);
  b.expect('paid', json.paid.length > 0 || one('[data-text-ad], li.ads-ad', doc) === null);
  b.expect('people_also_ask', json.people_also_ask.length > 0 || one('.related-question-pair', doc) === null);
  b.expect('local_pack', json.local_pack.length > 0 || !hasPlaceCards(doc));
}
