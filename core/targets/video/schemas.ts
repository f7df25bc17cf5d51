/**
 * JSON Schemas of the video parsers' `results[].json`, mirroring the types in watch.ts,
 * subtitles.ts, channel.ts, about.ts, items.ts, search.ts and suggest.ts.
 */
import { arr, bool, boolN, enumN, int, intN, obj, s, str, strN, type Schema } from '../schema-kit.js';


const thumbnail = obj({ url: str, width: intN, height: intN });
const caption = obj({ name: strN, url: strN });
const captions = (description: string): Schema => ({ type: 'object', description, additionalProperties: arr(caption) });
const segment = obj({ start_ms: int, end_ms: int, text: str }, 'One caption line, times in milliseconds.');
const availability = enumN(['public', 'unlisted', 'private', 'needs_auth', 'premium_only', 'subscriber_only', 'unplayable', 'unavailable']);

const video = obj(
  {
    position: int, id: str, title: strN, url: strN, channel: strN, channel_id: strN, channel_url: strN,
    duration: intN, view_count: intN, published_text: strN, description: strN, thumbnail: strN, is_live: bool, badges: arr(str),
  },
  'A video result.',
);
const short = obj({ position: int, id: str, title: strN, url: strN, view_count: intN, thumbnail: strN }, 'A short.');
const channelCard = obj(
  { position: int, id: str, title: strN, url: strN, handle: strN, channel_follower_count: intN, video_count: intN, description: strN, thumbnail: strN },
  'A channel result.',
);
const playlist = obj({ position: int, id: str, title: strN, url: strN, channel: strN, channel_id: strN, video_count: intN, thumbnail: strN }, 'A playlist or mix.');

const search = obj(
  {
    query: strN,
    result_count: intN,
    corrected_query: strN,
    did_you_mean: strN,
    refinements: arr(str),
    videos: arr(video),
    shorts: arr(short),
    channels: arr(channelCard),
    playlists: arr(playlist),
    continuation: strN,
  },
  'Video search results; `position` runs across kinds (and continuation pages for search/max).',
);

export const OUTPUT_SCHEMAS: Record<string, Schema> = {
  'media/video/metadata': obj(
    {
      id: strN, title: strN, description: strN, webpage_url: strN,
      channel: strN, channel_id: strN, channel_url: strN, uploader_id: strN, uploader_url: strN,
      channel_follower_count: intN, channel_is_verified: boolN,
      duration: intN, view_count: intN, concurrent_view_count: intN, like_count: intN, comment_count: intN,
      upload_date: strN, publish_date: strN, categories: arr(str), tags: arr(str),
      thumbnails: arr(thumbnail), thumbnail: strN,
      chapters: arr(obj({ title: str, start_time: int, end_time: intN })),
      live_status: enumN(['not_live', 'is_live', 'is_upcoming', 'was_live']),
      live_start_time: strN, live_end_time: strN,
      availability, age_limit: int, playability_status: strN, playability_reason: strN,
      subtitles: captions('Uploader-provided caption tracks by language code.'),
      automatic_captions: captions('Auto-generated caption tracks by language code.'),
    },
    'A video watch page: facts of the OSS downloader, availability stated for restricted, private, removed and live videos.',
  ),
  'media/video/subtitles': obj(
    {
      video_id: strN, language_code: strN, name: strN,
      origin: enumN(['uploader_provided', 'auto_generated']),
      source: enumN(['track', 'transcript']),
      segments: arr(segment),
    },
    'The chosen caption track; `segments` is empty when no track matches.',
  ),
  'media/video/channel': obj(
    {
      channel_id: strN, title: strN, handle: strN, url: strN, description: strN,
      channel_follower_count: intN, video_count: intN, tags: arr(str), avatar: strN, is_verified: boolN, tab: strN,
      videos: arr(obj({ position: int, id: str, type: { enum: ['video', 'short'] }, title: strN, url: strN, duration: intN, view_count: intN, published_text: strN, thumbnail: strN, is_live: bool })),
      continuation: strN,
      view_count: intN, joined_date: strN, joined_date_text: strN, country: strN,
      links: arr(obj({ title: strN, url: str })),
    },
    'A channel: header and About facts, and up to `limit` videos of its videos tab.',
  ),
  'media/video/search': search,
  'media/video/search/max': search,
  'media/video/autocomplete': obj({ query: strN, suggestions: arr(str) }, 'Search suggestions for a partial phrase.'),
  'media/video/video/trainability': obj(
    { video_id: strN, permitted: arr(str), etag: strN },
    'AI-training permission declared by the rights holder: ["all"], ["none"] or named parties.',
  ),
};
