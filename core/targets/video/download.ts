/**
 * `media/video/download`: the watch page, then a media step (core/targets/flow.ts) that the farm
 * runs on the same proxy — the streams chosen from the page's player JSON (formats.ts
 * `chooseFormats`: `output`, `video_quality`, `video_format`, `audio_format`,
 * `audio_language`), fetched by range, cut to `start_at`–`end_at` and remuxed with ffmpeg
 * (video and audio merged when they come apart), then uploaded to the job's `storage`.
 *
 * A page whose matching streams all need a signature or token the player script computes (a
 * `signatureCipher`, no `url`), or DRM, or that lists none (live, private, removed, bot check),
 * ends with MEDIA_NOT_DOWNLOADABLE and `data.reason` (`signature_required`, `drm`,
 * `no_formats`, `no_match`, `empty_range`): never a guess, never a corrupt file.
 */
import type { Params } from '../base.js';
import { str } from '../base.js';
import type { Flow, FetchStep, MediaChoice, MediaSource } from '../flow.js';
import { availabilityOf } from './availability.js';
import { chooseFormats, streamFormats, type DownloadRequest, type StreamFormat } from './formats.js';
import { at, obj } from './json.js';
import { absolute, pageData } from './page.js';
import { videoWallCheck } from './wall.js';

/** `hh:mm:ss` → seconds; undefined when absent or malformed (validation already refused those). */
export function seconds(time: unknown): number | undefined {
  const m = typeof time === 'string' ? /^(\d{2}):([0-5]\d):([0-5]\d)$/.exec(time) : null;
  return m ? Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) : undefined;
}

/** What the result JSON says of a chosen format. */
export function formatFacts(f: StreamFormat | null): Record<string, unknown> | null {
  if (!f) return null;
  return {
    itag: f.itag,
    mime_type: f.mime_type,
    container: f.container,
    quality_label: f.quality_label,
    width: f.width,
    height: f.height,
    fps: f.fps,
    video_codec: f.video_codec,
    audio_codec: f.audio_codec,
    bitrate: f.bitrate,
    audio_language: f.audio_language,
  };
}

function source(f: StreamFormat, role: MediaSource['role'], site: string): MediaSource {
  return { role, url: absolute(f.url, site) ?? '', size: f.content_length };
}

/** The download's streams from a watch page (pure): the media step's `choose`. */
export function chooseDownload(page: string, params: Params, site: string): MediaChoice {
  const { player } = pageData(page);
  const refuse = (reason: string, message: string): MediaChoice => ({ ok: false, code: 'MEDIA_NOT_DOWNLOADABLE', message, data: { reason } });
  const choice = chooseFormats(streamFormats(player), params as DownloadRequest);
  if (!choice.ok) {
    const state = availabilityOf(player, obj(at(player, 'videoDetails')), obj(at(player, 'microformat', 'playerMicroformatRenderer')));
    const why = choice.reason === 'no_formats' && state.reason ? ` The page says: ${state.reason}.` : '';
    return refuse(choice.reason, `${choice.message}${why}`);
  }
  const audioOnly = params.output === 'audio';
  const sources: MediaSource[] = [];
  if (choice.video) sources.push(source(choice.video, choice.video.adaptive ? 'video' : 'muxed', site));
  if (choice.audio) sources.push(source(choice.audio, choice.audio.video_codec !== null || choice.audio.height !== null ? 'muxed' : 'audio', site));
  const start = seconds(params.start_at) ?? 0;
  const lengthMs = (choice.video ?? choice.audio)?.duration_ms ?? null;
  if (lengthMs !== null && start * 1000 >= lengthMs) {
    return refuse('empty_range', `start_at (${String(params.start_at)}) is past the end of the video (${Math.round(lengthMs / 1000)} s).`);
  }
  // An audio file taken from an mp4 (or 3gp) is written as m4a: the AAC track copied as it is.
  const container = audioOnly && (choice.container === 'mp4' || choice.container === '3gp') ? 'm4a' : choice.container;
  return {
    ok: true,
    sources,
    container,
    facts: {
      video_id: str(at(player, 'videoDetails', 'videoId')) ?? str(params.query) ?? null,
      output: audioOnly ? 'audio' : 'video',
      start_at: str(params.start_at) ?? null,
      end_at: str(params.end_at) ?? null,
      video_format: formatFacts(choice.video),
      audio_format: formatFacts(choice.audio),
    },
  };
}

/** The download flow: the watch page (a wall is retried, then fails: there is nothing to return), then the media step. */
export function downloadFlow(watch: FetchStep, params: Params, site: string): Flow {
  const start = seconds(params.start_at) ?? 0;
  const end = seconds(params.end_at);
  return {
    page: 1,
    steps: [
      watch,
      {
        kind: 'media',
        name: 'media',
        output: params.output === 'audio' ? 'audio' : 'video',
        range: end === undefined ? { start } : { start, end },
        choose: (page) => chooseDownload(page, params, site),
      },
    ],
    check: videoWallCheck('fail'),
  };
}
