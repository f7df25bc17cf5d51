/**
 * Video parser evaluation on the captured pages (video-watch, video-search, video-channel).
 * Each page is parsed by the route's parser with the URL it was captured from and scored
 * against
 *
 * - the expected output beside it, its field names mapped onto ours: metascraper (`title`,
 *   `author` → `channel` (channel pages: `title`), `date` → `upload_date` as an instant,
 *   `description` ignoring line breaks, which the meta tag drops (a trailing `…` marks a cut),
 *   `url` → `webpage_url`/`url`, `image` → a thumbnail of the same video, or the avatar; its
 *   `lang`, `logo`, `publisher` are page chrome our shape does not carry); ytdl-core
 *   `videoDetails` (`videoId` → `id`, `lengthSeconds` → `duration`, `viewCount` → `view_count`,
 *   `category` → `categories[0]`, `publishDate`/`uploadDate` → `publish_date`/`upload_date` by
 *   day, `keywords` → `tags`, `author.{name,id,subscriber_count,verified,channel_url}` →
 *   `channel`, `channel_id`, `channel_follower_count`, `channel_is_verified`, `channel_url`,
 *   `likes` → `like_count`, `age_restricted` → `age_limit`, `isLive`/`isLiveContent` →
 *   `live_status`, `isPrivate`/`isUnlisted` → `availability`, `video_url` → `webpage_url`,
 *   `ownerProfileUrl` → `uploader_url`, `thumbnails`, `chapters`) and its `formats` (the itags
 *   of non-manifest formats → our stream-format resolution); NewPipe partials
 *   (`searchString` → `query`, `searchSuggestion`/`isCorrectedSearch` → `corrected_query`, items
 *   and next page → results and `continuation`); the ytsr summary (`originalQuery`,
 *   `correctedQuery`, `results` → `result_count`, `refinements` and `items` counts); pytube
 *   partials (`video_urls[:10]` → the first ten videos' ids);
 * - facts read off the pages without an expected output, written below (video-facts.ts).
 *
 * Expected values known to be wrong are left out and named in the row's detail.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { streamFormats } from '../../core/targets/video/formats.js';
import { pageData } from '../../core/targets/video/page.js';
import { PARSERS } from '../../core/targets/video/parsers.js';
import { loadExpectation } from './expectation.js';
import { fieldRow, mergeRows, type FieldFamily } from './field-eval.js';
import type { View } from './score.js';
import { CI_THRESHOLD, eachPage, type EvalRow, type FamilyEval, type Fixture } from './types.js';
import { FACTS, type Check, c, type J } from './video-facts.js';

const YT = 'https://www.youtube.com';

/** The route and capture URL of every evaluated page, by file name without extension. */
const PAGES: Record<string, { route: string; url: string; params?: J }> = {
  'metascraper_youtube-watch-in-playlist_EAZvxukW8kY': { route: 'media/video/metadata', url: `${YT}/watch?v=EAZvxukW8kY&list=PLDB4BCE9817AE7B43&index=11` },
  'metascraper_youtube-watch_hwMkbaS_M_c': { route: 'media/video/metadata', url: `${YT}/watch?v=hwMkbaS_M_c` },
  'pytube_yt-watch_2lAe1cqCOXo': { route: 'media/video/metadata', url: `${YT}/watch?v=2lAe1cqCOXo` },
  'ytdlcore_age-restricted-vi-VN_watch': { route: 'media/video/metadata', url: `${YT}/watch?v=CsrfovOPcjk&hl=vi-VN` },
  'ytdlcore_live-now_watch': { route: 'media/video/metadata', url: `${YT}/watch?v=5qap5aO4i9A` },
  'ytdlcore_related-topics_watch': { route: 'media/video/metadata', url: `${YT}/watch?v=_HSylqgVYQI` },
  'newpipe_yt-autocomplete_hello_gl-DE': { route: 'media/video/autocomplete', url: 'https://suggest.example/complete/search?client=youtube&ds=yt&gl=DE&q=hello&xhr=t' },
  'newpipe_yt-results-page_empty-query': { route: 'media/video/search', url: `${YT}/results?search_query=` },
  'newpipe_yt-search-api_all_test': { route: 'media/video/search', url: `${YT}/youtubei/v1/search?prettyPrint=false` },
  'newpipe_yt-search-api_corrected_pewdeipie': { route: 'media/video/search', url: `${YT}/youtubei/v1/search?prettyPrint=false` },
  'newpipe_yt-search-api_shorts': { route: 'media/video/search', url: `${YT}/youtubei/v1/search?prettyPrint=false` },
  'ytsr_yt-results_testing_page1': { route: 'media/video/search', url: `${YT}/results?gl=US&hl=en&search_query=testing` },
  'ytsr_yt-search-api_testing_page2': { route: 'media/video/search', url: `${YT}/youtubei/v1/search?prettyPrint=false` },
  'metascraper_youtube-channel_UCzcRQ3vRNr6fJ1A9rqFn7QA': { route: 'media/video/channel', url: `${YT}/channel/UCzcRQ3vRNr6fJ1A9rqFn7QA` },
  'pytube_yt-channel_MLB_shorts': { route: 'media/video/channel', url: `${YT}/@MLB/shorts` },
  'pytube_yt-channel_MLB_streams': { route: 'media/video/channel', url: `${YT}/@MLB/streams` },
  'newpipe_yt-channel-api_UCTwECeGqMZee77BjdoYtI2Q_videos-tab': { route: 'media/video/channel', url: `${YT}/youtubei/v1/browse?prettyPrint=false` },
  'newpipe_yt-channel-api_kurzgesagt_videos-tab': { route: 'media/video/channel', url: `${YT}/youtubei/v1/browse?prettyPrint=false` },
};

/** Expected values that are wrong in the reference output, left out with the reason. */
const KNOWN_WRONG: Record<string, Record<string, string>> = {
  'ytdlcore_age-restricted-vi-VN_watch': { 'author.subscriber_count': 'the reference read "34,2 N người đăng ký" (34.2 thousand) as 34' },
};

const idOf = (url: unknown) => (typeof url === 'string' ? (/[?&]v=([\w-]{11})/.exec(url)?.[1] ?? /\/(?:vi|shorts)\/([\w-]{11})/.exec(url)?.[1] ?? null) : null);
const videosOf = (j: J): J[] => [...(j.videos ?? []), ...(j.shorts ?? [])].sort((a: J, b: J) => a.position - b.position);

function fromMetascraper(e: J, route: string): Check[] {
  if (route === 'media/video/channel') {
    return [
      c('title', e.title, (j) => j.title), c('author → title', e.author, (j) => j.title), c('description', e.description, (j) => j.description, 'text'),
      c('url', e.url, (j) => j.url), c('image → avatar', e.image, (j) => j.avatar),
    ];
  }
  return [
    c('title', e.title, (j) => j.title), c('author → channel', e.author, (j) => j.channel), c('date → upload_date', e.date, (j) => j.upload_date, 'instant'),
    c('description', e.description, (j) => j.description, 'text'), c('url → webpage_url', e.url, (j) => j.webpage_url),
    c('image → thumbnail of the same video', idOf(e.image), (j) => idOf(j.thumbnail)),
  ];
}

function fromYtdl(e: J, html: string): Check[] {
  const vd = e.videoDetails as J;
  const text = (v: unknown) => (typeof v === 'string' ? v : (v as J | null)?.simpleText);
  const live = vd.isLive ? 'is_live' : vd.isLiveContent ? 'was_live' : 'not_live';
  const availability = vd.isPrivate ? 'private' : vd.isUnlisted ? 'unlisted' : vd.age_restricted ? 'needs_auth' : 'public';
  const formats = ((e.formats ?? []) as J[]).filter((f) => !f.isHLS && !f.isDashMPD).map((f) => f.itag).sort();
  const checks: Check[] = [
    c('videoId → id', vd.videoId, (j) => j.id), c('title', vd.title, (j) => j.title), c('description', text(vd.description), (j) => j.description, 'text'),
    c('lengthSeconds → duration', Number(vd.lengthSeconds) || null, (j) => j.duration), c('viewCount → view_count', Number(vd.viewCount), (j) => j.view_count),
    c('category → categories[0]', vd.category, (j) => j.categories?.[0]), c('publishDate → publish_date', vd.publishDate, (j) => j.publish_date, 'day'),
    c('uploadDate → upload_date', vd.uploadDate, (j) => j.upload_date, 'day'), c('keywords → tags', vd.keywords ?? [], (j) => j.tags),
    c('channelId → channel_id', vd.channelId, (j) => j.channel_id), c('author.name → channel', vd.author?.name, (j) => j.channel),
    c('author.subscriber_count', vd.author?.subscriber_count, (j) => j.channel_follower_count), c('author.verified', vd.author?.verified, (j) => j.channel_is_verified),
    c('author.channel_url → channel_url', vd.author?.channel_url, (j) => j.channel_url), c('likes → like_count', vd.likes, (j) => j.like_count),
    c('age_restricted → age_limit', vd.age_restricted ? 18 : 0, (j) => j.age_limit), c('isLive/isLiveContent → live_status', live, (j) => j.live_status),
    c('isPrivate/isUnlisted → availability', availability, (j) => j.availability), c('video_url → webpage_url', vd.video_url, (j) => j.webpage_url),
    c('ownerProfileUrl → uploader_url', vd.ownerProfileUrl, (j) => j.uploader_url),
    // Older ytdl-core versions kept them under `thumbnail.thumbnails`.
    c('thumbnails', (vd.thumbnail?.thumbnails ?? vd.thumbnails ?? []).map((t: J) => t.url), (j) => j.thumbnails.map((t: J) => t.url)),
    c('formats (itags) → stream formats', formats, () => streamFormats(pageData(html).player).map((f) => f.itag).sort()),
  ];
  if (Array.isArray(vd.chapters)) checks.push(c('chapters', vd.chapters.map((ch: J) => [ch.title, ch.start_time]), (j) => j.chapters.map((ch: J) => [ch.title, ch.start_time])));
  return checks;
}

function fromPartials(name: string, e: J): Check[] {
  if (name.startsWith('pytube_')) {
    return (e['video_urls[:10]'] as string[]).map((u, i) => c(`video_urls[${i}] → videos[${i}]`, idOf(u), (j) => videosOf(j)[i]?.id));
  }
  if (name.startsWith('ytsr_')) {
    return [
      c('originalQuery → query', e.originalQuery, (j) => j.query), c('correctedQuery', e.correctedQuery, (j) => j.corrected_query ?? j.query),
      c('results → result_count', e.results, (j) => j.result_count), c('refinements (count)', e.refinements, (j) => j.refinements.length),
      c('items (at least)', e.items, (j) => j.videos.length + j.shorts.length + j.channels.length + j.playlists.length, 'atLeast'),
    ];
  }
  const checks = [
    c('searchString → query', e.searchString, (j) => j.query),
    c('searchSuggestion → corrected_query', e.searchSuggestion, (j) => j.corrected_query ?? j.did_you_mean),
    c('isCorrectedSearch', e.isCorrectedSearch, (j) => j.corrected_query !== null),
  ];
  if (typeof e.items === 'string') checks.push(c('items non-empty, has next page', true, (j) => j.videos.length > 0 && j.continuation !== null));
  if (e.infoItemType === 'STREAM') checks.push(c('infoItemType STREAM → first item a video', 1, (j) => j.videos[0]?.position));
  return checks;
}

function judge(check: Check, j: J): { ok: boolean; got: unknown } {
  let got: unknown;
  try {
    got = check.got(j);
  } catch {
    got = undefined;
  }
  const compact = (v: unknown) => String(v ?? '').replace(/[’‘]/g, "'").replace(/\s+/g, '');
  switch (check.mode) {
    case 'text': {
      const want = compact(check.expected);
      const cut = /(…|\.\.\.)$/.exec(want);
      return { ok: cut ? compact(got).startsWith(want.slice(0, -cut[0].length)) : compact(got) === want, got };
    }
    case 'instant':
      return { ok: typeof got === 'string' && Date.parse(got) === Date.parse(String(check.expected)), got };
    case 'day':
      return { ok: typeof got === 'string' && got.slice(0, 10) === String(check.expected).slice(0, 10), got };
    case 'atLeast':
      return { ok: typeof got === 'number' && got >= Number(check.expected), got };
    default:
      return { ok: JSON.stringify(got) === JSON.stringify(check.expected), got };
  }
}

const present = (v: unknown) => v !== null && v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0);

function evaluate(fx: Fixture): EvalRow | null {
  const name = basename(fx.file).replace(/\.(html|json)$/, '');
  const spec = PAGES[name];
  const parser = spec ? PARSERS[spec.route] : undefined;
  if (!spec || !parser) return null;
  const html = readFileSync(fx.file, 'utf8');
  const parsed = parser({ html, url: spec.url, page: 1, params: spec.params ?? {} });
  const j = (parsed.json ?? {}) as J;
  const checks: Check[] = [...(FACTS[name] ?? [])];
  if (fx.expected) {
    const e = JSON.parse(readFileSync(fx.expected, 'utf8')) as J;
    if (fx.expected.includes('metascraper_')) checks.push(...fromMetascraper(e, spec.route));
    else if (fx.expected.includes('expected-info')) checks.push(...fromYtdl(e, html));
    else checks.push(...fromPartials(name, e));
  }
  const wrong = KNOWN_WRONG[name] ?? {};
  const counted = checks.filter((ch) => !Object.keys(wrong).some((k) => ch.name.startsWith(k)));
  const failures: string[] = [];
  let claims = 0;
  let claimsRight = 0;
  for (const ch of counted) {
    const { ok, got } = judge(ch, j);
    // A value the parser gave is a claim; booleans and counts computed by the check are not.
    if (present(got) && typeof got !== 'boolean') {
      claims++;
      if (ok) claimsRight++;
    }
    if (!ok) failures.push(`${ch.name}: expected ${JSON.stringify(ch.expected)?.slice(0, 120)}, got ${JSON.stringify(got)?.slice(0, 120)}`);
  }
  const left = Object.entries(wrong).map(([k, why]) => `left out ${k} (${why})`);
  const detail = [failures.length ? `failed: ${failures.map((f) => f.split(':')[0]).join(', ')}` : 'all checks right', ...left].join('; ');
  return { page: name, status: parsed.status, right: counted.length - failures.length, total: counted.length, claims, claimsRight, detail, failures };
}

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
const ROUTES: Record<string, string> = { 'video-search': 'media/video/search', 'video-watch': 'media/video/metadata', 'video-channel': 'media/video/channel' };

/** The video routes as the field-level format sees them: a watch page's video; a search or channel page's videos. */
export function videoView(route: string, j: J): View {
  if (route === 'media/video/metadata') return { title: str(j.title), id: str(j.id), items: null };
  return { items: videosOf(j).map((v) => ({ title: str(v.title), url: str(v.url), id: str(v.id) })) };
}

const VIDEO_FAMILY: FieldFamily = {
  route: (fx) => ROUTES[fx.family] ?? null,
  url: (fx) => PAGES[basename(fx.file).replace(/\.(html|json)$/, '')]?.url ?? `${YT}/results?search_query=x`,
  view: videoView,
};

export const VIDEO_EVAL: FamilyEval = {
  name: 'video',
  folders: ['video-watch', 'video-search', 'video-channel'],
  threshold: CI_THRESHOLD,
  run: eachPage((fx) => mergeRows(evaluate(fx), loadExpectation(fx) ? (fieldRow(fx, VIDEO_FAMILY)?.row ?? null) : null)),
};
