/**
 * What a follow-up needs from the body before it: how many result cards it held and the token
 * of the next page. Knows the three list shapes the flows continue — search results, a
 * channel tab, a continuation answer — and ignores tokens elsewhere on the page (the channel
 * header's About panel carries one too).
 */
import { cardsOf, continuationItems, selectedTab } from './channel.js';
import { arr, at } from './json.js';
import { pageData } from './page.js';
import { sectionsOf, tokenOf } from './search.js';

export function countCards(body: string): { cards: number; token: string | null } {
  const { data } = pageData(body);
  const tab = selectedTab(data);
  if (tab.content !== undefined) {
    const { cards, token } = cardsOf(tab.content);
    return { cards: cards.length, token };
  }
  const search = at(data, 'contents', 'twoColumnSearchResultsRenderer') === undefined ? undefined : sectionsOf(data);
  const list = search ?? continuationItems(data) ?? sectionsOf(data);
  if (!list) return { cards: 0, token: null };
  let cards = 0;
  let token: string | null = null;
  for (const s of list) {
    token = tokenOf(s) ?? token;
    const inner = at(s, 'itemSectionRenderer', 'contents');
    if (Array.isArray(inner)) cards += arr(inner).length;
    else if (tokenOf(s) === null) cards += 1;
  }
  return { cards, token };
}
