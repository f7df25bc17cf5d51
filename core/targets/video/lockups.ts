/**
 * The server-rendered results page (2013-2020, before the page carried its initial-data JSON):
 * every result is a `yt-lockup` tile — `yt-lockup-video` (with the video id in
 * `data-context-item-id`), `yt-lockup-channel`, `yt-lockup-playlist` — holding the title link in
 * an `h3`, the channel link in the byline, "1 month ago" and "36,726 views" in the meta list, a
 * description, a `video-time` over the thumbnail and badges. Tiles of the shelves the page
 * mixes into the list ("Latest from <channel>") are tiles of the result list too, each at its
 * own place: a video shown twice (in a shelf and again in the list) is listed twice, as the
 * page shows it and as the reference's result counts of these pages have it.
 */
import type { Document, Element } from '../../parsers/dom.js';
import { all, attr, closest, hasClass, loadHtml, one, text } from '../../parsers/dom.js';
import { clockSeconds, countOf } from './counts.js';
import type { ChannelItem, PlaylistItem, VideoItem } from './items.js';
import { absolute } from './page.js';
import type { SearchJson } from './search.js';

const LIVE_BADGE = /\b(live|en direct|en vivo|ao vivo|в эфире|live jetzt|трансляция)\b/i;
/** Ad tiles sit in promoted containers or carry an ad badge. */
const AD = (e: Element) => hasClass(e, 'pyv-afc-ads-container') || hasClass(e, 'promoted-videos') || hasClass(e, 'yt-lockup-ad');

function thumbOf(tile: Element): string | null {
  const img = one('.yt-lockup-thumbnail img', tile);
  const src = [attr(img, 'data-thumb'), attr(img, 'src')].find((s) => s && /^(?:https?:)?\/\//.test(s) && !s.includes('pixel'));
  return src ? (src.startsWith('//') ? `https:${src}` : src) : null;
}

function channelOf(tile: Element, base: string | null): Pick<VideoItem, 'channel' | 'channel_id' | 'channel_url'> {
  const a = one('.yt-lockup-byline a[href]', tile);
  const href = attr(a, 'href') ?? null;
  return { channel: a ? text(a) || null : null, channel_id: /\/channel\/(UC[\w-]{22})/.exec(href ?? '')?.[1] ?? null, channel_url: absolute(href, base) };
}

function video(tile: Element, base: string | null): VideoItem | null {
  const id = attr(tile, 'data-context-item-id') ?? /[?&]v=([\w-]{11})/.exec(attr(one('h3 a[href]', tile), 'href') ?? '')?.[1];
  if (!id) return null;
  const titleLink = one('h3 a', tile);
  const meta = all('.yt-lockup-meta-info > li', tile).map((li) => text(li));
  const badges = all('.yt-badge-list li, .yt-badge', tile)
    .map((b) => text(b))
    .filter((t, i, arr) => t && arr.indexOf(t) === i);
  const live = badges.some((b) => LIVE_BADGE.test(b)) || one('.yt-badge-live', tile) !== null;
  // The meta list is [upload age, views]; a live tile shows only its viewers.
  const views = meta.length >= 2 ? (meta[meta.length - 1] as string) : live ? (meta[0] ?? null) : null;
  const published = meta.length >= 2 ? (meta[0] as string) : live ? null : (meta[0] ?? null);
  const desc = one('.yt-lockup-description', tile);
  return {
    position: 0,
    id,
    title: titleLink ? attr(titleLink, 'title') ?? (text(titleLink) || null) : null,
    url: absolute(`/watch?v=${id}`, base),
    ...channelOf(tile, base),
    duration: live ? null : clockSeconds(text(one('.video-time', tile))),
    view_count: live ? null : countOf(views),
    published_text: published,
    description: desc ? text(desc) || null : null,
    thumbnail: thumbOf(tile),
    is_live: live,
    badges,
  };
}

function channel(tile: Element, base: string | null): ChannelItem | null {
  const a = one('h3 a[href]', tile);
  const href = attr(a, 'href') ?? '';
  const id = /\/channel\/(UC[\w-]{22})/.exec(href)?.[1] ?? attr(one('[data-channel-external-id]', tile), 'data-channel-external-id');
  if (!a || !id) return null;
  const subs = one('.yt-subscriber-count', tile);
  const desc = one('.yt-lockup-description', tile);
  return {
    position: 0,
    id,
    title: attr(a, 'title') ?? (text(a) || null),
    url: absolute(href, base),
    handle: null,
    channel_follower_count: subs ? countOf(attr(subs, 'title') ?? text(subs)) : null,
    video_count: countOf(text(one('.yt-lockup-meta-info li', tile)) || null),
    description: desc ? text(desc) || null : null,
    thumbnail: thumbOf(tile),
  };
}

function playlist(tile: Element, base: string | null): PlaylistItem | null {
  const a = one('h3 a[href]', tile);
  const href = attr(a, 'href') ?? '';
  const id = /[?&]list=([\w-]+)/.exec(href)?.[1] ?? attr(tile, 'data-list-id');
  if (!a || !id) return null;
  const count = one('.formatted-video-count-label', tile);
  return {
    position: 0,
    id,
    title: attr(a, 'title') ?? (text(a) || null),
    url: absolute(`/playlist?list=${id}`, base),
    channel: channelOf(tile, base).channel,
    channel_id: channelOf(tile, base).channel_id,
    video_count: count ? countOf(text(count)) : null,
    thumbnail: thumbOf(tile),
  };
}

function queryOf(doc: Document): string | null {
  const box = one('#masthead-search-term, input[name="search_query"]', doc);
  const v = box?.attribs.value?.trim();
  return v || null;
}

/** The results of a server-rendered results page, or null when the page has no lockup list. */
export function lockupResults(html: string, base: string | null): SearchJson | null {
  if (!html.includes('yt-lockup') && !html.includes('item-section')) return null;
  const doc = loadHtml(html);
  const tiles = all('.yt-lockup', doc).filter((t) => !closest(t, AD, 20));
  if (tiles.length === 0 && !one('.item-section, #results', doc)) return null;
  const out: Pick<SearchJson, 'videos' | 'channels' | 'playlists'> = { videos: [], channels: [], playlists: [] };
  let position = 0;
  for (const tile of tiles) {
    if (hasClass(tile, 'yt-lockup-video')) {
      const v = video(tile, base);
      if (v) out.videos.push({ ...v, position: ++position });
    } else if (hasClass(tile, 'yt-lockup-channel')) {
      const c = channel(tile, base);
      if (c) out.channels.push({ ...c, position: ++position });
    } else if (hasClass(tile, 'yt-lockup-playlist')) {
      const p = playlist(tile, base);
      if (p) out.playlists.push({ ...p, position: ++position });
    }
  }
  const stats = one('.num-results', doc);
  const corrected = one('.spell-correction-corrected a', doc);
  return {
    query: queryOf(doc),
    result_count: stats ? countOf(text(stats)) : null,
    corrected_query: corrected ? text(corrected) || null : null,
    did_you_mean: null,
    refinements: [],
    ...out,
    shorts: [],
    continuation: null,
  };
}
