/**
 * Result cards of listing pages (search, channel tabs, continuations), one reader per renderer
 * the platform uses or has used: `videoRenderer`, `gridVideoRenderer`, `movieRenderer`,
 * `reelItemRenderer` and `shortsLockupViewModel` (shorts), `channelRenderer`,
 * `playlistRenderer`, `radioRenderer` (mixes) and the newer view models (viewmodels.ts). Each
 * gives one item of a kind, or undefined for a card that is not a result.
 */
import { clockSeconds, countOf } from './counts.js';
import { arr, at, bestThumbnail, findFirst, int, obj, str, textOf, type Obj } from './json.js';
import { absolute } from './page.js';
import { lockup, shortsLockup, WATCHING } from './viewmodels.js';

export interface VideoItem {
  position: number;
  id: string;
  title: string | null;
  url: string | null;
  channel: string | null;
  channel_id: string | null;
  channel_url: string | null;
  /** Seconds; null for live streams and when not shown. */
  duration: number | null;
  view_count: number | null;
  published_text: string | null;
  description: string | null;
  thumbnail: string | null;
  is_live: boolean;
  badges: string[];
}

export interface ShortItem {
  position: number;
  id: string;
  title: string | null;
  url: string | null;
  view_count: number | null;
  thumbnail: string | null;
}

export interface ChannelItem {
  position: number;
  id: string;
  title: string | null;
  url: string | null;
  handle: string | null;
  channel_follower_count: number | null;
  video_count: number | null;
  description: string | null;
  thumbnail: string | null;
}

export interface PlaylistItem {
  position: number;
  id: string;
  title: string | null;
  url: string | null;
  channel: string | null;
  channel_id: string | null;
  video_count: number | null;
  thumbnail: string | null;
}

export type Item =
  | { kind: 'video'; item: VideoItem }
  | { kind: 'short'; item: ShortItem }
  | { kind: 'channel'; item: ChannelItem }
  | { kind: 'playlist'; item: PlaylistItem };


function owner(r: unknown, base: string | null): { channel: string | null; channel_id: string | null; channel_url: string | null } {
  const run = at(r, 'ownerText', 'runs', 0) ?? at(r, 'longBylineText', 'runs', 0) ?? at(r, 'shortBylineText', 'runs', 0);
  // A video of several uploaders ("A and B") links a dialog listing them; the first is the owner.
  const browse = at(run, 'navigationEndpoint', 'browseEndpoint') ?? findFirst(at(run, 'navigationEndpoint', 'showDialogCommand'), 'browseEndpoint');
  const id = str(at(browse, 'browseId'));
  const path = str(at(browse, 'canonicalBaseUrl')) ?? (id ? `/channel/${id}` : null);
  return { channel: str(at(run, 'text')), channel_id: id, channel_url: absolute(path, base) };
}

function badgesOf(r: unknown): { labels: string[]; live: boolean } {
  const labels: string[] = [];
  let live = false;
  for (const b of arr(at(r, 'badges'))) {
    const m = at(b, 'metadataBadgeRenderer');
    const label = str(at(m, 'label'));
    if (at(m, 'style') === 'BADGE_STYLE_TYPE_LIVE_NOW') live = true;
    if (label) labels.push(label);
  }
  for (const o of arr(at(r, 'thumbnailOverlays'))) {
    if (at(o, 'thumbnailOverlayTimeStatusRenderer', 'style') === 'LIVE') live = true;
  }
  return { labels, live };
}

function overlayDuration(r: unknown): number | null {
  for (const o of arr(at(r, 'thumbnailOverlays'))) {
    const t = textOf(at(o, 'thumbnailOverlayTimeStatusRenderer', 'text'));
    const s = clockSeconds(t);
    if (s !== null) return s;
  }
  return null;
}

function isShortEndpoint(r: unknown): boolean {
  return obj(at(r, 'navigationEndpoint', 'reelWatchEndpoint')) !== undefined || String(at(r, 'navigationEndpoint', 'commandMetadata', 'webCommandMetadata', 'url') ?? '').startsWith('/shorts/');
}

function videoItem(r: Obj, base: string | null): Item | undefined {
  const id = str(r.videoId);
  if (!id) return undefined;
  const views = textOf(r.viewCountText);
  const { labels, live } = badgesOf(r);
  const isLive = live || (views !== null && WATCHING.test(views));
  const title = textOf(r.title) ?? textOf(r.headline);
  if (isShortEndpoint(r)) {
    return { kind: 'short', item: { position: 0, id, title, url: absolute(`/shorts/${id}`, base), view_count: countOf(views), thumbnail: bestThumbnail(r.thumbnail) } };
  }
  const snippet = textOf(r.descriptionSnippet) ?? textOf(at(r, 'detailedMetadataSnippets', 0, 'snippetText'));
  // The owner's fields by name, not spread: a spread copies through the runtime until V8 has
  // optimised this reader, and a listing reads a few dozen cards per page.
  const by = owner(r, base);
  return {
    kind: 'video',
    item: {
      position: 0,
      id,
      title,
      url: absolute(`/watch?v=${id}`, base),
      channel: by.channel,
      channel_id: by.channel_id,
      channel_url: by.channel_url,
      duration: isLive ? null : (clockSeconds(textOf(r.lengthText)) ?? overlayDuration(r)),
      view_count: isLive ? null : countOf(views),
      published_text: textOf(r.publishedTimeText),
      description: snippet,
      thumbnail: bestThumbnail(r.thumbnail),
      is_live: isLive,
      badges: labels,
    },
  };
}

function reelItem(r: Obj, base: string | null): Item | undefined {
  const id = str(r.videoId);
  if (!id) return undefined;
  return { kind: 'short', item: { position: 0, id, title: textOf(r.headline), url: absolute(`/shorts/${id}`, base), view_count: countOf(textOf(r.viewCountText)), thumbnail: bestThumbnail(r.thumbnail) } };
}

function channelItem(r: Obj, base: string | null): Item | undefined {
  const id = str(r.channelId);
  if (!id) return undefined;
  // Since 2023 the card shows the handle where the subscriber count was, and the count where
  // the video count was; read each text for what it is.
  const texts = [textOf(r.subscriberCountText), textOf(r.videoCountText)];
  const handle = texts.find((t) => t?.startsWith('@')) ?? /^\/(@[^/?#]+)/.exec(String(at(r, 'navigationEndpoint', 'browseEndpoint', 'canonicalBaseUrl') ?? ''))?.[1] ?? null;
  const counts = texts.filter((t): t is string => !!t && !t.startsWith('@'));
  const subs = counts.find((t) => /subscri|abonn|suscrip|inscri|iscritt|đăng ký|подпис/i.test(t)) ?? counts[0] ?? null;
  const videos = counts.find((t) => t !== subs && /video/i.test(t)) ?? null;
  return {
    kind: 'channel',
    item: {
      position: 0,
      id,
      title: textOf(r.title),
      url: absolute(str(at(r, 'navigationEndpoint', 'browseEndpoint', 'canonicalBaseUrl')) ?? `/channel/${id}`, base),
      handle,
      channel_follower_count: countOf(subs),
      video_count: countOf(videos),
      description: textOf(r.descriptionSnippet),
      thumbnail: bestThumbnail(r.thumbnail),
    },
  };
}

function playlistItem(r: Obj, base: string | null): Item | undefined {
  const id = str(r.playlistId);
  if (!id) return undefined;
  const by = owner(r, base);
  return {
    kind: 'playlist',
    item: {
      position: 0,
      id,
      title: textOf(r.title),
      url: absolute(`/playlist?list=${id}`, base),
      channel: by.channel,
      channel_id: by.channel_id,
      video_count: int(r.videoCount) ?? countOf(textOf(r.videoCountText) ?? textOf(r.videoCountShortText)),
      thumbnail: bestThumbnail(at(r, 'thumbnails', 0)) ?? bestThumbnail(r.thumbnail),
    },
  };
}

/** The result item of one card (`{videoRenderer: {...}}`), or undefined. */
export function itemOf(card: unknown, base: string | null): Item | undefined {
  const o = obj(card);
  if (!o) return undefined;
  const [key] = Object.keys(o);
  const r = obj(o[key as string]);
  if (!r) return undefined;
  switch (key) {
    case 'videoRenderer':
    case 'gridVideoRenderer':
    case 'movieRenderer':
    case 'compactVideoRenderer':
      return videoItem(r, base);
    case 'reelItemRenderer':
      return reelItem(r, base);
    case 'shortsLockupViewModel':
      return shortsLockup(r, base);
    case 'channelRenderer':
    case 'gridChannelRenderer':
      return channelItem(r, base);
    case 'playlistRenderer':
    case 'gridPlaylistRenderer':
    case 'radioRenderer':
      return playlistItem(r, base);
    case 'lockupViewModel':
      return lockup(r, base);
    case 'richItemRenderer':
      return itemOf(r.content, base);
    default:
      return undefined;
  }
}
