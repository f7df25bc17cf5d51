/**
 * The video platform (`/media/video/...`, spec 4.3). Billed as web_scraper_api; `location` is
 * a country code. Modes differ per route: metadata and subtitles have all three, download is
 * async and batch only (it returns a media file), the listing routes are sync and async.
 *
 * Allowed values the spec does not show (video `sort_by`, `type`, formats and qualities) are
 * chosen here: `sort_by` and `type` get the values the spec describes in words, formats and
 * qualities stay free strings the upstream interprets.
 */
import { ALL_MODES, ASYNC_BATCH, defineRoute, type RouteDraft, SYNC_ASYNC } from '../../registry/define.js';
import { bool, int, query, str, strEnum } from '../../registry/params.js';
import type { Mode, ParamSpec, RouteSpec } from '../../registry/types.js';

const VIDEO_ID = query('Video ID (not a URL).', 256);

const LANGUAGE: ParamSpec = {
  type: 'string',
  description: 'Language code, such as en or pt-BR.',
  maxLength: 35,
  pattern: '^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8})*$',
  patternHint: 'a language code such as en or pt-BR',
};

const TIME: ParamSpec = {
  type: 'string',
  description: '',
  pattern: '^[0-9]{2}:[0-5][0-9]:[0-5][0-9]$',
  patternHint: 'a time hh:mm:ss',
};

const SEARCH_FLAGS = ['360', '3d', '4k', 'creative_commons', 'hd', 'hdr', 'live', 'purchased', 'subtitles', 'vr180'];

const SEARCH_PARAMS: Record<string, ParamSpec> = {
  query: query('Search terms.'),
  ...Object.fromEntries(SEARCH_FLAGS.map((flag) => [flag, bool(`Only results with the ${flag} feature.`)])),
  duration: strEnum('Video length in minutes: <4, 4-20 or >20.', ['<4', '4-20', '>20']),
  sort_by: strEnum('Result order.', ['relevance', 'upload_date', 'view_count', 'rating']),
  type: strEnum('Kind of result.', ['videos', 'channels', 'playlists', 'movies']),
  upload_date: strEnum('Upload time window.', ['last_hour', 'today', 'this_week', 'this_month', 'this_year']),
};

const video = (path: string, modes: readonly Mode[], params: Record<string, ParamSpec>, summary: string, extra: Partial<RouteDraft> = {}): RouteSpec =>
  defineRoute({ path: `media/video/${path}`, target: 'video', family: 'video', modes, params, summary, ...extra });

export const VIDEO_ROUTES: readonly RouteSpec[] = [
  video('metadata', ALL_MODES, { query: VIDEO_ID }, 'Video title, channel, description, duration, view and like counts.'),
  video(
    'subtitles',
    ALL_MODES,
    {
      query: VIDEO_ID,
      language_code: { ...LANGUAGE, description: 'Subtitle language, such as en.' },
      subtitle_origin: strEnum('Track origin; omitted means all origins.', ['uploader_provided', 'auto_generated']),
    },
    'Subtitle tracks; no built-in parser (json required). No matching track gives an empty result.',
    { requiresJson: true },
  ),
  video(
    'download',
    ASYNC_BATCH,
    {
      query: VIDEO_ID,
      audio_format: str('Audio container or codec, as the platform names it.', 64),
      audio_language: { ...LANGUAGE, description: 'Audio track language, such as en.' },
      start_at: { ...TIME, description: 'Range start, hh:mm:ss; omit to start at the beginning.' },
      end_at: { ...TIME, description: 'Range end, hh:mm:ss; omit to run to the end.' },
      video_format: str('Video container or codec, as the platform names it.', 64),
      video_quality: str('Video quality; higher means bigger, slower and costlier.', 64),
    },
    'Downloads the video or its audio (output video or audio) to the job result or a bucket.',
    { outputKind: 'media' },
  ),
  video('channel', SYNC_ASYNC, { query: query('Channel ID.', 256), limit: int('Number of videos.', 1, 1000) }, 'Videos of a channel.'),
  video('search', SYNC_ASYNC, SEARCH_PARAMS, 'Video search results.'),
  video('search/max', SYNC_ASYNC, SEARCH_PARAMS, 'Deeper video search results, at higher cost and latency.'),
  video('autocomplete', SYNC_ASYNC, { query: query('Partial phrase.'), language: LANGUAGE }, 'Search suggestions for a partial phrase.'),
  video(
    'video/trainability',
    SYNC_ASYNC,
    { query: VIDEO_ID },
    'AI-training permission declared by the rights holder (not a legal clearance).',
  ),
];
