/**
 * `media/video/subtitles`: the flow fetches the watch page, then the chosen caption track in
 * its JSON format (`parts.track`), then — only when the track gave no segments — the transcript
 * panel (`parts.transcript`), the fallback for a track URL the platform refuses (since 2025 many
 * need a proof-of-origin token). The parser picks the same track the planner's step picked (same
 * inputs, same rule), and returns its segments from the track when it answered, else from the
 * panel. A wall in place of the watch page is `blocked`.
 *
 * No matching track is an empty result (`segments: []`), not an error (spec 4.3). The spec's
 * rule stays: this route has no built-in parser for callers, `json` is required, and these
 * segments are what `json` is filled from.
 */
import type { PageInput, Parsed } from '../../parsers/types.js';
import { captionTracks, chooseTrack, json3Segments, transcriptSegments, type Origin, type Segment } from './captions.js';
import { at, str } from './json.js';
import { pageData, videoIdOfUrl } from './page.js';
import { wallOf } from './wall.js';

export interface SubtitlesJson {
  video_id: string | null;
  language_code: string | null;
  /** The track's display name (`English (auto-generated)`). */
  name: string | null;
  origin: Origin | null;
  /** Where the segments came from: the caption track, or the transcript panel. */
  source: 'track' | 'transcript' | null;
  segments: Segment[];
}

/**
 * The track answer and the transcript answer among the flow's other bodies, whatever step kept
 * them (`track` and `transcript` steps).
 */
function answers(input: PageInput): { track: Segment[] | undefined; transcript: Segment[] | undefined } {
  let track: Segment[] | undefined;
  let transcript: Segment[] | undefined;
  for (const body of Object.values(input.parts ?? {}).flat()) {
    if (body === input.html) continue;
    track ??= json3Segments(body);
    transcript ??= transcriptSegments(body)?.segments;
  }
  return { track, transcript };
}

export function parseSubtitles(input: PageInput): Parsed {
  const { player } = pageData(input.html);
  // A wall (consent, captcha, bot check) in place of the watch page: no tracks to speak of.
  if (wallOf(input.html, input.url)) return { json: null, status: 'blocked' };
  if (!player) {
    // Not the watch page: the flow may hand the track itself as the page.
    const own = json3Segments(input.html);
    if (!own) return { json: null, status: 'unrecognised' };
    const json: SubtitlesJson = { video_id: videoIdOfUrl(input.url), language_code: str(input.params.language_code), name: null, origin: null, source: 'track', segments: own };
    return { json, status: 'parsed' };
  }
  const language = str(input.params.language_code);
  const wanted = str(input.params.subtitle_origin);
  const track = chooseTrack(captionTracks(player), language, wanted);
  const videoId = str(at(player, 'videoDetails', 'videoId')) ?? videoIdOfUrl(input.url) ?? str(input.params.query);
  if (!track) {
    const empty: SubtitlesJson = { video_id: videoId, language_code: language, name: null, origin: (wanted as Origin | null) ?? null, source: null, segments: [] };
    return { json: empty, status: 'parsed' };
  }
  const json: SubtitlesJson = { video_id: videoId, language_code: track.language_code, name: track.name, origin: track.origin, source: null, segments: [] };
  const { track: segments, transcript } = answers(input);
  if (segments && segments.length > 0) return { json: { ...json, source: 'track', segments }, status: 'parsed' };
  if (transcript && transcript.length > 0) return { json: { ...json, source: 'transcript', segments: transcript }, status: 'parsed' };
  // A track exists but neither answer carried it (both refused, or an empty track).
  return { json: { ...json, segments: segments ?? [] }, status: segments ? 'parsed' : 'partial' };
}
