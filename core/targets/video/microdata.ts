/**
 * A watch page's facts from its markup alone, for a page without the embedded player response
 * and initial data (a trimmed or pre-rendered copy, a page whose scripts were cut off): the
 * JSON-LD `VideoObject`, the schema.org microdata the page carried in a `<span itemscope>`
 * (2015-2023: `name`, `description`, `identifier`, `duration` as `PT12M48S`,
 * `interactionCount`, `uploadDate`, `genre`, the author's `name` and `url`) and the Open Graph
 * tags. Each source fills only what the earlier ones left empty; JSON-LD comes first because it
 * is the page's own structured statement. The comments a JSON-LD object may list carry dates
 * and authors too: only the object's own fields are read.
 */
import { isoDuration } from '../../extraction/coerce.js';
import { scriptBodies, parseJson } from '../../parsers/embedded.js';
import { countOf } from './counts.js';
import { at, int, obj, str, type Obj } from './json.js';
import { decodeAttr, videoIdOfUrl } from './page.js';
import type { VideoMetadata } from './watch.js';

export interface MarkupVideo {
  id: string | null;
  title: string | null;
  description: string | null;
  url: string | null;
  channel: string | null;
  channel_url: string | null;
  duration: number | null;
  view_count: number | null;
  upload_date: string | null;
  publish_date: string | null;
  category: string | null;
  thumbnail: string | null;
}

function ldVideo(html: string): Obj | undefined {
  for (const body of scriptBodies(html)) {
    const parsed = parseJson(body.trim());
    for (const o of Array.isArray(parsed) ? parsed : [parsed]) {
      if (String(at(o, '@type')).endsWith('VideoObject')) return obj(o);
    }
  }
  return undefined;
}

/** `itemprop` values of `<meta>`/`<link>` tags, first occurrence of each name, in page order. */
function itemprops(html: string): { video: Map<string, string>; author: Map<string, string> } {
  const video = new Map<string, string>();
  const author = new Map<string, string>();
  const start = html.search(/itemtype=["']?https?:\/\/schema\.org\/VideoObject/i);
  if (start < 0) return { video, author };
  const re = /<(?:meta|link|span)\b[^>]*>|<\/span>/gi;
  re.lastIndex = start;
  // The author's fields sit in a nested `itemprop="author"` span; its `url`/`name` are not the video's.
  let inAuthor = false;
  let depth = 0;
  for (let m = re.exec(html); m && re.lastIndex - start < 200_000; m = re.exec(html)) {
    const tag = m[0];
    if (tag.startsWith('<span') || tag.startsWith('<SPAN')) {
      depth++;
      if (/itemprop=["']?author/i.test(tag)) inAuthor = true;
      continue;
    }
    if (tag.startsWith('</')) {
      if (--depth < 0) break;
      if (depth === 0) inAuthor = false;
      continue;
    }
    const name = /\bitemprop=["']?([\w]+)/i.exec(tag)?.[1];
    const value = /\b(?:content|href)=["']([^"']*)["']/i.exec(tag)?.[1];
    if (!name || value === undefined) continue;
    const into = inAuthor ? author : video;
    if (!into.has(name)) into.set(name, decodeAttr(value));
  }
  return { video, author };
}

function og(html: string, property: string): string | null {
  const re = new RegExp(`<meta\\b[^>]*\\bproperty=["']og:${property}["'][^>]*>`, 'i');
  const tag = re.exec(html)?.[0];
  const value = tag ? /\bcontent=["']([^"']*)["']/i.exec(tag)?.[1] : undefined;
  return value ? decodeAttr(value) : null;
}

/** The video the markup describes, or null when it describes none. */
export function markupVideo(html: string): MarkupVideo | null {
  const ld = ldVideo(html);
  const { video: md, author } = itemprops(html);
  if (!ld && md.size === 0) return null;
  // Counters of several kinds (likes, views): the view counter is the `WatchAction` one.
  const watched = [at(ld, 'interactionStatistic')].flat().find((s) => /WatchAction/.test(JSON.stringify(at(s, 'interactionType') ?? '')));
  const mdWatched = /WatchAction["']?>\s*<meta itemprop=["']?userInteractionCount["']? content=["'](\d+)/.exec(html)?.[1];
  const ldAuthor = obj(at(ld, 'author'));
  const thumb = at(ld, 'thumbnailUrl');
  const url = str(at(ld, 'url')) ?? str(at(ld, '@id')) ?? md.get('url') ?? og(html, 'url');
  return {
    id: md.get('identifier') ?? videoIdOfUrl(url) ?? videoIdOfUrl(str(at(ld, 'embedUrl'))),
    title: str(at(ld, 'name')) ?? md.get('name') ?? og(html, 'title'),
    description: str(at(ld, 'description')) ?? md.get('description') ?? og(html, 'description'),
    url,
    channel: str(at(ldAuthor, 'name')) ?? author.get('name') ?? null,
    channel_url: str(at(ldAuthor, 'url')) ?? author.get('url') ?? null,
    duration: isoDuration(str(at(ld, 'duration')) ?? md.get('duration') ?? '') ?? null,
    view_count: int(at(watched, 'userInteractionCount')) ?? countOf(md.get('interactionCount') ?? mdWatched),
    upload_date: str(at(ld, 'uploadDate')) ?? md.get('uploadDate') ?? null,
    publish_date: str(at(ld, 'datePublished')) ?? md.get('datePublished') ?? str(at(ld, 'uploadDate')) ?? md.get('uploadDate') ?? null,
    category: str(at(ld, 'genre')) ?? md.get('genre') ?? null,
    thumbnail: (Array.isArray(thumb) ? str(thumb[0]) : str(thumb)) ?? md.get('thumbnailUrl') ?? og(html, 'image'),
  };
}

/** The watch result of a page read from its markup: what the markup tells, the rest empty. */
export function markupMetadata(m: MarkupVideo, canonical: string | null, fallbackId: string | null): VideoMetadata {
  const channelId = /\/channel\/(UC[\w-]{22})/.exec(m.channel_url ?? '')?.[1] ?? null;
  const thumbnails = m.thumbnail ? [{ url: m.thumbnail, width: null, height: null }] : [];
  return {
    id: m.id ?? fallbackId,
    title: m.title,
    description: m.description,
    webpage_url: canonical ?? m.url,
    channel: m.channel,
    channel_id: channelId,
    channel_url: channelId ? m.channel_url : null,
    uploader_id: /\/(@[^/?#]+)/.exec(m.channel_url ?? '')?.[1] ?? null,
    uploader_url: m.channel_url,
    channel_follower_count: null,
    channel_is_verified: null,
    duration: m.duration || null,
    view_count: m.view_count,
    concurrent_view_count: null,
    like_count: null,
    comment_count: null,
    upload_date: m.upload_date,
    publish_date: m.publish_date,
    categories: m.category ? [m.category] : [],
    tags: [],
    thumbnails,
    thumbnail: m.thumbnail,
    chapters: [],
    live_status: null,
    live_start_time: null,
    live_end_time: null,
    availability: null,
    age_limit: 0,
    playability_status: null,
    playability_reason: null,
    subtitles: {},
    automatic_captions: {},
  };
}
