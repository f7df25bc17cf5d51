/**
 * The player data of watch pages from before `ytInitialPlayerResponse` (2013-2020): the page
 * sets `ytplayer.config = {..., "args": {...}}`, where `args.player_response` is the player
 * response as a JSON *string* (2018-2020; an object in `raw_player_response` on some pages).
 * Earlier pages (and 2017 pages whose player response carries only ad settings) keep the facts
 * as flat `args` strings (`video_id`, `title`, `author`, `ucid`, `length_seconds`,
 * `view_count`, comma-separated `keywords`), with the upload date, category and family-safety in
 * the page's `<meta itemprop>` tags and the full description in `#eow-description`. Both are
 * brought into the player-response shape the watch parser reads (`videoDetails`,
 * `microformat.playerMicroformatRenderer`).
 */
import { jsonAfter, parseJson } from '../../parsers/embedded.js';
import { decodeHTML as decodeEntities } from 'entities/decode';
import { isObj, obj, str, type Obj } from './json.js';

const CONFIG_MARKERS = ['ytplayer.config =', 'ytplayer.config='];

/** `<meta itemprop="name" content="...">` values of the page, first of each name. */
function itemprops(html: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of html.matchAll(/<meta\s+itemprop="(\w+)"\s+content="([^"]*)"/g)) {
    if (!out.has(m[1] as string)) out.set(m[1] as string, decodeEntities(m[2] as string));
  }
  return out;
}

/** The text of `#eow-description` (`<br>` as line breaks), or null. */
function eowDescription(html: string): string | null {
  const m = /<p\b[^>]*\bid="eow-description"[^>]*>([\s\S]*?)<\/p>/.exec(html);
  if (!m) return null;
  const t = decodeEntities((m[1] as string).replace(/<br\s*\/?>/gi, '\n').replace(/<[^>]+>/g, '')).trim();
  return t || null;
}

function detailsFromArgs(args: Obj, html: string): Obj | undefined {
  const id = str(args.video_id);
  if (!id) return undefined;
  const thumb = str(args.iurlmaxres) ?? str(args.iurlhq) ?? str(args.thumbnail_url) ?? `https://i.ytimg.com/vi/${id}/hqdefault.jpg`;
  return {
    videoId: id,
    title: str(args.title),
    author: str(args.author),
    channelId: str(args.ucid),
    lengthSeconds: str(args.length_seconds),
    viewCount: str(args.view_count),
    keywords: (str(args.keywords) ?? '').split(',').map((k) => k.trim()).filter(Boolean),
    shortDescription: eowDescription(html),
    isLiveContent: args.livestream === '1' || args.live_playback === '1',
    // `live_playback` marks a stream playing live now.
    isLive: args.live_playback === '1',
    thumbnail: { thumbnails: [{ url: thumb }] },
  };
}

function microformatFromPage(html: string, details: Obj | undefined): Obj | undefined {
  const p = itemprops(html);
  if (p.size === 0) return undefined;
  const date = p.get('datePublished') ?? p.get('uploadDate');
  return {
    playerMicroformatRenderer: {
      uploadDate: date,
      publishDate: date,
      category: p.get('genre'),
      externalChannelId: p.get('channelId') ?? str(details?.channelId),
      isFamilySafe: p.has('isFamilyFriendly') ? p.get('isFamilyFriendly') === 'True' : undefined,
      isUnlisted: p.has('unlisted') ? p.get('unlisted') === 'True' : undefined,
      description: p.has('description') ? { simpleText: p.get('description') } : undefined,
    },
  };
}

/** The player response of a `ytplayer.config` page, or undefined when the page has none. */
export function legacyPlayer(html: string): Obj | undefined {
  if (!html.includes('ytplayer.config')) return undefined;
  const args = obj(obj(jsonAfter(html, CONFIG_MARKERS))?.args);
  if (!args) return undefined;
  const raw = args.player_response ?? args.raw_player_response;
  const player: Obj = { ...(obj(typeof raw === 'string' ? parseJson(raw) : raw) ?? {}) };
  // The args fill what the embedded response leaves out (2017 pages carry a partial one).
  const fromArgs = detailsFromArgs(args, html);
  const own = obj(player.videoDetails);
  if (fromArgs) {
    const merged: Obj = { ...fromArgs };
    for (const [k, v] of Object.entries(own ?? {})) if (v !== null && v !== undefined) merged[k] = v;
    player.videoDetails = merged;
  } else if (!own) {
    return Object.keys(player).length > 0 ? player : undefined;
  }
  if (!isObj(player.microformat)) {
    const micro = microformatFromPage(html, obj(player.videoDetails));
    if (micro) player.microformat = micro;
  }
  return player;
}
