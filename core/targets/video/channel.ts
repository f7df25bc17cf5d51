/**
 * A channel (`media/video/channel`): the channel page's initial data, or the internal browse
 * API's answer (the same tree), for the header facts and the selected tab's videos; the
 * browse continuations the flow gathered for more videos (`onResponseReceivedActions[]
 * .appendContinuationItemsAction.continuationItems[]`); and the About panel answer
 * (`aboutChannelViewModel`, or the older About tab's `channelAboutFullMetadataRenderer`) for
 * joined date, view count, country and links. Header layouts: `pageHeaderRenderer` (2024-),
 * `c4TabbedHeaderRenderer` (before), topic, game and age-gated channels (header.ts). A browse
 * continuation answer alone is a later page of the tab. Videos are cut to `limit`.
 */
import type { PageInput, PageParser, Parsed } from '../../parsers/types.js';
import { Blocks } from '../../parsers/blocks.js';
import { aboutOf, type About } from './about.js';
import { headerFacts } from './header.js';
import { countOf } from './counts.js';
import { arr, at, bestThumbnail, findAll, int, obj, str, textOf, type Obj } from './json.js';
import { itemOf } from './items.js';
import { absolute, localised, pageData, siteBase } from './page.js';
import { wallOf } from './wall.js';

export interface ChannelVideo {
  position: number;
  id: string;
  type: 'video' | 'short';
  title: string | null;
  url: string | null;
  duration: number | null;
  view_count: number | null;
  published_text: string | null;
  thumbnail: string | null;
  is_live: boolean;
}

export interface ChannelJson extends About {
  channel_id: string | null;
  title: string | null;
  handle: string | null;
  url: string | null;
  description: string | null;
  channel_follower_count: number | null;
  video_count: number | null;
  tags: string[];
  avatar: string | null;
  is_verified: boolean | null;
  /** The tab the videos come from: `videos`, `shorts`, `streams`, `featured` (home). */
  tab: string | null;
  videos: ChannelVideo[];
  continuation: string | null;
}

/** `a b "c d"` → `[a, b, c d]` (the keywords field's quoting). */
export function keywordList(raw: string | null): string[] {
  if (!raw) return [];
  return [...raw.matchAll(/"([^"]+)"|(\S+)/g)].map((m) => (m[1] ?? m[2]) as string);
}

export function selectedTab(data: Obj | undefined): { name: string | null; content: unknown } {
  for (const t of arr(at(data, 'contents', 'twoColumnBrowseResultsRenderer', 'tabs'))) {
    const tab = at(t, 'tabRenderer') ?? at(t, 'expandableTabRenderer');
    if (at(tab, 'selected') !== true) continue;
    const url = str(at(tab, 'endpoint', 'commandMetadata', 'webCommandMetadata', 'url'));
    return { name: url ? (url.split('/').pop() ?? null) : textOf(at(tab, 'title')), content: at(tab, 'content') };
  }
  return { name: null, content: undefined };
}

/** Cards of a tab (grid or shelves) or of a continuation, in order, and the next token. */
export function cardsOf(content: unknown): { cards: unknown[]; token: string | null } {
  const cards: unknown[] = [];
  let token: string | null = null;
  const visit = (list: unknown[]) => {
    for (const c of list) {
      const t = str(at(c, 'continuationItemRenderer', 'continuationEndpoint', 'continuationCommand', 'token'));
      if (t) token = t;
      else if (obj(at(c, 'itemSectionRenderer'))) visit(arr(at(c, 'itemSectionRenderer', 'contents')));
      else if (obj(at(c, 'shelfRenderer'))) {
        const inner = at(c, 'shelfRenderer', 'content');
        visit(arr(at(inner, 'horizontalListRenderer', 'items') ?? at(inner, 'gridRenderer', 'items') ?? at(inner, 'expandedShelfContentsRenderer', 'items')));
      } else if (obj(at(c, 'reelShelfRenderer'))) visit(arr(at(c, 'reelShelfRenderer', 'items')));
      // A home tab in the grid layout groups its shelves as rich sections.
      else if (obj(at(c, 'richSectionRenderer'))) visit(arr(at(c, 'richSectionRenderer', 'content', 'richShelfRenderer', 'contents')));
      else cards.push(c);
    }
  };
  visit(arr(at(content, 'richGridRenderer', 'contents') ?? at(content, 'sectionListRenderer', 'contents') ?? content));
  return { cards, token };
}

export function continuationItems(data: Obj | undefined): unknown[] | undefined {
  let found: unknown[] | undefined;
  for (const a of [...arr(at(data, 'onResponseReceivedActions')), ...arr(at(data, 'onResponseReceivedEndpoints'))]) {
    const items = at(a, 'appendContinuationItemsAction', 'continuationItems') ?? at(a, 'reloadContinuationItemsCommand', 'continuationItems');
    if (Array.isArray(items)) found = [...(found ?? []), ...items];
  }
  return found;
}

/** The home tab's featured video (`channelVideoPlayerRenderer`). */
function featured(card: unknown, base: string | null): ChannelVideo | undefined {
  const r = at(card, 'channelVideoPlayerRenderer');
  const id = str(at(r, 'videoId'));
  if (!id) return undefined;
  return { position: 0, id, type: 'video', title: textOf(at(r, 'title')), url: absolute(`/watch?v=${id}`, base), duration: null, view_count: countOf(textOf(at(r, 'viewCountText'))), published_text: textOf(at(r, 'publishedTimeText')), thumbnail: null, is_live: false };
}

function videoOf(card: unknown, base: string | null): ChannelVideo | undefined {
  const hit = itemOf(card, base);
  if (hit?.kind === 'video') {
    const v = hit.item;
    return { position: 0, id: v.id, type: 'video', title: v.title, url: v.url, duration: v.duration, view_count: v.view_count, published_text: v.published_text, thumbnail: v.thumbnail, is_live: v.is_live };
  }
  if (hit?.kind === 'short') {
    const s = hit.item;
    return { position: 0, id: s.id, type: 'short', title: s.title, url: s.url, duration: null, view_count: s.view_count, published_text: null, thumbnail: s.thumbnail, is_live: false };
  }
  return featured(card, base);
}

function readChannel(input: PageInput): Parsed {
  const blocks = new Blocks();
  const page = pageData(input.html);
  const { data, canonical } = page;
  const meta = obj(at(data, 'metadata', 'channelMetadataRenderer'));
  const tab = selectedTab(data);
  // A later page of a tab is a browse continuation answer: its items are the page's videos.
  const own = meta || tab.content !== undefined ? undefined : continuationItems(data);
  if (!meta && !obj(at(data, 'header')) && tab.content === undefined && !own) return { json: null, status: wallOf(input.html, input.url) ? 'blocked' : 'unrecognised' };
  const base = siteBase(canonical) ?? siteBase(input.url);
  const head = blocks.run('header', () => headerFacts(data, tab.content), headerFacts(undefined));
  const others = Object.values(input.parts ?? {}).flat().filter((b) => b !== input.html);
  const about = blocks.run('about', () => aboutOf(data, others, page.dataText), aboutOf(undefined, []));

  const videos: ChannelVideo[] = [];
  const seen = new Set<string>();
  const push = (cards: unknown[]) => {
    for (const c of cards) {
      const v = blocks.run('video', () => videoOf(c, base), undefined);
      if (!v || seen.has(v.id)) continue;
      seen.add(v.id);
      v.position = videos.length + 1;
      videos.push(v);
    }
  };
  const first = cardsOf(tab.content ?? own);
  push(first.cards);
  let token = first.token;
  for (const body of others) {
    const more = pageData(body).data;
    // The About panel answer is a continuation too, but of the header, not of the videos.
    if (findAll(more, 'aboutChannelViewModel', 1).length > 0) continue;
    const items = continuationItems(more);
    if (!items) continue;
    const next = cardsOf(items);
    push(next.cards);
    token = next.token;
  }
  const limit = int(input.params.limit);
  const id = str(at(meta, 'externalId')) ?? head.channel_id ?? about.channel_id_hint;
  const vanity = str(at(meta, 'vanityChannelUrl'));
  const json: ChannelJson = {
    channel_id: id,
    title: str(at(meta, 'title')) ?? head.title,
    handle: head.handle ?? /\/(@[^/?#]+)/.exec(vanity ?? '')?.[1] ?? null,
    url: canonical ?? (id ? absolute(`/channel/${id}`, base) : null),
    description: about.description ?? str(at(meta, 'description')) ?? head.description,
    channel_follower_count: about.subscriber_count ?? head.channel_follower_count,
    video_count: about.video_count ?? head.video_count,
    tags: keywordList(str(at(meta, 'keywords'))),
    avatar: bestThumbnail(at(meta, 'avatar')) ?? head.avatar,
    is_verified: head.is_verified,
    tab: tab.name,
    videos: limit && limit > 0 ? videos.slice(0, limit) : videos,
    continuation: token,
    view_count: about.view_count,
    joined_date: about.joined_date,
    joined_date_text: about.joined_date_text,
    country: about.country,
    links: about.links,
  };
  return { json, status: blocks.status(true) };
}

/** Counts and dates read in the page's interface language (page.ts `localised`). */
export const parseChannel: PageParser = localised(readChannel);
