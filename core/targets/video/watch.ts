/**
 * The watch page (`media/video/metadata`): the player response carries the facts the player
 * needs (`videoDetails`, `microformat.playerMicroformatRenderer`, `captions`,
 * `playabilityStatus`), the initial data what the page shows around it (owner, likes,
 * comments, chapters). Field names are the OSS downloader's (output-shapes §3); dates are ISO
 * 8601 as the page writes them (`2017-04-14T09:02:38-07:00`, or a bare date on older pages).
 *
 * Age-restricted, private, removed and live pages still give a result: `availability` and
 * `live_status` say what the page is, with whatever facts it still shows. A page without the
 * embedded data gives what its markup states (microdata.ts), as a partial result.
 */
import { Blocks } from '../../parsers/blocks.js';
import type { PageInput, PageParser, Parsed } from '../../parsers/types.js';
import { availabilityOf, type Availability } from './availability.js';
import { captionTracks } from './captions.js';
import { chaptersOf, type Chapter } from './chapters.js';
import { countOf, currentLanguage } from './counts.js';
import { displayedDate } from './dates.js';
import { arr, at, bestThumbnail, findFirst, int, obj, str, textOf, thumbnailsOf, type Obj } from './json.js';
import { absolute, localised, pageData, siteBase, videoIdOfUrl } from './page.js';
import { markupMetadata, markupVideo } from './microdata.js';
import { wallOf } from './wall.js';

export type LiveStatus = 'not_live' | 'is_live' | 'is_upcoming' | 'was_live';

export interface CaptionEntry {
  name: string | null;
  url: string | null;
}

export interface VideoMetadata {
  id: string | null;
  title: string | null;
  description: string | null;
  webpage_url: string | null;
  channel: string | null;
  channel_id: string | null;
  channel_url: string | null;
  /** The channel handle (`@name`), as the OSS downloader names it. */
  uploader_id: string | null;
  uploader_url: string | null;
  channel_follower_count: number | null;
  channel_is_verified: boolean | null;
  /** Seconds; null while live or upcoming. */
  duration: number | null;
  view_count: number | null;
  /** Viewers now, on a live page. */
  concurrent_view_count: number | null;
  like_count: number | null;
  comment_count: number | null;
  upload_date: string | null;
  publish_date: string | null;
  categories: string[];
  tags: string[];
  thumbnails: { url: string; width: number | null; height: number | null }[];
  thumbnail: string | null;
  chapters: Chapter[];
  live_status: LiveStatus | null;
  live_start_time: string | null;
  live_end_time: string | null;
  availability: Availability;
  age_limit: number;
  playability_status: string | null;
  playability_reason: string | null;
  /** Uploader-provided caption tracks by language code. */
  subtitles: Record<string, CaptionEntry[]>;
  /** Auto-generated (`asr`) caption tracks by language code. */
  automatic_captions: Record<string, CaptionEntry[]>;
}

/** The renderers of the watch page's primary column, by name. */
function watchRenderers(data: Obj | undefined): { primary: Obj | undefined; secondary: Obj | undefined } {
  const contents = arr(at(data, 'contents', 'twoColumnWatchNextResults', 'results', 'results', 'contents'));
  let primary: Obj | undefined;
  let secondary: Obj | undefined;
  for (const c of contents) {
    primary ??= obj(at(c, 'videoPrimaryInfoRenderer'));
    secondary ??= obj(at(c, 'videoSecondaryInfoRenderer'));
  }
  return { primary, secondary };
}

/** The like count from the like button's accessibility text (an exact number), old or new layout. */
function likesOf(primary: Obj | undefined): number | null {
  const vm = findFirst(primary, 'segmentedLikeDislikeButtonViewModel');
  const button = at(vm, 'likeButtonViewModel', 'likeButtonViewModel', 'toggleButtonViewModel', 'toggleButtonViewModel', 'defaultButtonViewModel', 'buttonViewModel');
  const a11y = str(at(button, 'accessibilityText'));
  if (a11y && /\d/.test(a11y)) return countOf(a11y);
  if (vm) return null;
  // Before 2023: a toggle button whose default icon is LIKE, its count in the accessibility labels.
  for (const b of findAllToggles(primary)) {
    if (at(b, 'defaultIcon', 'iconType') !== 'LIKE') continue;
    const label = str(at(b, 'defaultText', 'accessibility', 'accessibilityData', 'label')) ?? str(at(b, 'accessibilityData', 'accessibilityData', 'label'));
    return label && /\d/.test(label) ? countOf(label) : null;
  }
  return null;
}

function findAllToggles(v: unknown): unknown[] {
  const out: unknown[] = [];
  const walk = (x: unknown, depth: number): void => {
    if (depth > 40) return;
    if (Array.isArray(x)) for (const y of x) walk(y, depth + 1);
    else if (x && typeof x === 'object') {
      for (const [k, y] of Object.entries(x)) {
        if (k === 'toggleButtonRenderer') out.push(y);
        else walk(y, depth + 1);
      }
    }
  };
  walk(v, 0);
  return out;
}

function commentsOf(data: Obj | undefined): number | null {
  const header = findFirst(data, 'commentsEntryPointHeaderRenderer');
  const count = textOf(at(header, 'commentCount'));
  if (count) return countOf(count);
  for (const p of arr(at(data, 'engagementPanels'))) {
    const panel = at(p, 'engagementPanelSectionListRenderer');
    if (at(panel, 'targetId') !== 'engagement-panel-comments-section') continue;
    const info = textOf(at(panel, 'header', 'engagementPanelTitleHeaderRenderer', 'contextualInfo'));
    if (info) return countOf(info);
  }
  return null;
}

/**
 * `liveNow`: the view counter says "watching now", all a page without a player response (the
 * `next` call alone) tells. Premieres carry broadcast details too but say `isLiveContent:
 * false`: only a page that does not say so is taken for a past stream from the details alone.
 */
function liveStatusOf(details: Obj | undefined, micro: Obj | undefined, liveNow: boolean): LiveStatus | null {
  if (!details && !micro) return liveNow ? 'is_live' : null;
  const live = obj(at(micro, 'liveBroadcastDetails'));
  if (at(details, 'isUpcoming') === true) return 'is_upcoming';
  if (at(details, 'isLive') === true || at(live, 'isLiveNow') === true) return 'is_live';
  const content = at(details, 'isLiveContent');
  if (content === true || (live && content !== false)) return 'was_live';
  return 'not_live';
}

const VERIFIED = /BADGE_STYLE_TYPE_VERIFIED/;

function readWatch(input: PageInput): Parsed {
  const blocks = new Blocks();
  const page = pageData(input.html);
  const { player, data, canonical } = page;
  const details = obj(at(player, 'videoDetails'));
  const micro = obj(at(player, 'microformat', 'playerMicroformatRenderer'));
  const { primary, secondary } = watchRenderers(data);
  if (!player && !primary) {
    if (wallOf(input.html, input.url)) return { json: null, status: 'blocked' };
    // No embedded data: what the markup states about the video, as a partial result.
    const m = page.json ? null : markupVideo(input.html);
    if (!m || (!m.title && !m.id)) return { json: null, status: 'unrecognised' };
    const markup = markupMetadata(m, canonical, videoIdOfUrl(input.url));
    blocks.expect('embedded data', false);
    return blocks.result(markup, true);
  }
  const base = siteBase(canonical) ?? siteBase(input.url);
  const state = availabilityOf(player, details, micro);
  const owner = obj(at(secondary, 'owner', 'videoOwnerRenderer'));

  const id =
    str(at(details, 'videoId')) ?? str(at(data, 'currentVideoEndpoint', 'watchEndpoint', 'videoId')) ?? videoIdOfUrl(canonical) ?? videoIdOfUrl(input.url) ?? str(input.params.query);
  const counter = obj(at(primary, 'viewCount', 'videoViewCountRenderer'));
  const live = liveStatusOf(details, micro, at(counter, 'isLive') === true);
  const length = int(at(details, 'lengthSeconds')) ?? int(at(micro, 'lengthSeconds'));
  const channelId = str(at(details, 'channelId')) ?? str(at(micro, 'externalChannelId')) ?? str(at(findFirst(at(owner, 'navigationEndpoint'), 'browseEndpoint'), 'browseId'));
  const ownerPath = str(at(owner, 'navigationEndpoint', 'browseEndpoint', 'canonicalBaseUrl'));
  const profile = str(at(micro, 'ownerProfileUrl'));
  const handle = /\/(@[^/?#]+)/.exec(profile ?? '')?.[1] ?? /^\/(@[^/?#]+)/.exec(ownerPath ?? '')?.[1] ?? null;
  const viewText = textOf(at(counter, 'viewCount'));
  const thumbs = thumbnailsOf(at(details, 'thumbnail') ?? at(micro, 'thumbnail'));
  // Without the player response (a `next` answer alone) the date is the one the page prints,
  // in its language; a relative one ("3 hours ago") counts back from the answer's own clock.
  const dateText = textOf(at(primary, 'dateText'));
  const shownDate = displayedDate(dateText, currentLanguage(), int(at(data, 'frameworkUpdates', 'entityBatchUpdate', 'timestamp', 'seconds')));
  const caps = blocks.run('captions', () => captionTracks(player), []);
  const subtitles: Record<string, CaptionEntry[]> = {};
  const automatic: Record<string, CaptionEntry[]> = {};
  for (const t of caps) {
    const into = t.origin === 'auto_generated' ? automatic : subtitles;
    (into[t.language_code] ??= []).push({ name: t.name, url: t.url });
  }

  const json: VideoMetadata = {
    id,
    title: str(at(details, 'title')) ?? textOf(at(micro, 'title')) ?? textOf(at(primary, 'title')),
    description: str(at(details, 'shortDescription')) ?? textOf(at(micro, 'description')) ?? textOf(at(secondary, 'attributedDescription')) ?? textOf(at(secondary, 'description')),
    webpage_url: canonical ?? (id ? absolute(`/watch?v=${id}`, base) : null),
    channel: str(at(details, 'author')) ?? str(at(micro, 'ownerChannelName')) ?? textOf(at(owner, 'title')) ?? textOf(at(owner, 'attributedTitle')),
    channel_id: channelId,
    channel_url: channelId ? absolute(`/channel/${channelId}`, base) : null,
    uploader_id: handle,
    uploader_url: profile ?? absolute(ownerPath, base),
    channel_follower_count: blocks.run('owner', () => countOf(textOf(at(owner, 'subscriberCountText'))), null),
    channel_is_verified: owner ? arr(at(owner, 'badges')).some((b) => VERIFIED.test(String(at(b, 'metadataBadgeRenderer', 'style')))) : null,
    duration: live === 'is_live' || live === 'is_upcoming' || !length ? null : length,
    view_count: int(at(details, 'viewCount')) ?? int(at(micro, 'viewCount')) ?? (live === 'is_live' ? null : countOf(viewText)),
    concurrent_view_count: live === 'is_live' ? countOf(viewText) : null,
    like_count: blocks.run('likes', () => likesOf(primary), null),
    comment_count: blocks.run('comments', () => commentsOf(data), null),
    upload_date: str(at(micro, 'uploadDate')) ?? shownDate,
    publish_date: str(at(micro, 'publishDate')) ?? shownDate,
    categories: str(at(micro, 'category')) ? [at(micro, 'category') as string] : [],
    tags: arr(at(details, 'keywords')).filter((k): k is string => typeof k === 'string'),
    thumbnails: thumbs,
    thumbnail: bestThumbnail(at(details, 'thumbnail') ?? at(micro, 'thumbnail')),
    chapters: blocks.run('chapters', () => chaptersOf(data, length), []),
    live_status: live,
    live_start_time: str(at(micro, 'liveBroadcastDetails', 'startTimestamp')),
    live_end_time: str(at(micro, 'liveBroadcastDetails', 'endTimestamp')),
    availability: state.availability,
    age_limit: state.ageLimit,
    playability_status: state.status,
    playability_reason: state.reason,
    subtitles,
    automatic_captions: automatic,
  };
  if (state.botCheck) return { json, status: 'blocked' };
  // A playable public page always shows these; without them the page's data layout changed.
  if (state.status === 'OK' || state.status === null) {
    blocks.expect('title', json.title !== null);
    blocks.expect('channel', json.channel !== null || json.channel_id !== null);
    if (live === 'not_live' || live === 'was_live') blocks.expect('view_count', json.view_count !== null);
  }
  return blocks.result(json, true);
}

/** Counts and dates read in the page's interface language (page.ts `localised`). */
export const parseWatch: PageParser = localised(readWatch);
