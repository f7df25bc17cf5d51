/**
 * Stream formats of a watch page for `media/video/download` (pure; the ranged fetch, the cut
 * and the remux are the farm's). `streamingData.formats[]` are muxed (audio and video in one
 * file), `streamingData.adaptiveFormats[]` carry one track each; a format has a direct `url`,
 * or only a `signatureCipher` the platform's player script must solve (the project does not
 * run that script), or `drmFamilies`. Only formats with a direct URL are chosen; when the
 * request could only be met by protected formats the answer is a problem, never a guess.
 *
 * Choice: `output` `audio` takes the best audio track (`audio_format`: container `m4a`/`mp4`/
 * `webm` or codec `opus`/`mp4a`/`aac`; `audio_language`: the track's language, else the
 * default track). `output` `video` takes the video by `video_quality` — `best`, `worst`, or a
 * height (`720`, `1080p`): that height or the best below it, else the lowest above it;
 * default 720; at one height mp4 first — and `video_format` (container or codec `avc1`/`h264`, `vp9`, `av01`); a
 * video-only format gets the best audio track to go with it, preferring the same container.
 */
import { arr, at, int, str } from './json.js';

export type Protection = 'signature' | 'drm' | null;

export interface StreamFormat {
  itag: number;
  mime_type: string;
  /** `mp4`, `webm`, `m4a` (audio-only mp4), `3gp`. */
  container: string;
  video_codec: string | null;
  audio_codec: string | null;
  width: number | null;
  height: number | null;
  fps: number | null;
  quality_label: string | null;
  bitrate: number | null;
  audio_sample_rate: number | null;
  audio_channels: number | null;
  /** The audio track's language (`en` of `en.4`), when the video has several. */
  audio_language: string | null;
  audio_default: boolean;
  content_length: number | null;
  duration_ms: number | null;
  url: string | null;
  protection: Protection;
  /** One track (adaptive) rather than audio and video together (muxed). */
  adaptive: boolean;
}

function formatOf(f: unknown, adaptive: boolean): StreamFormat | undefined {
  const itag = int(at(f, 'itag'));
  const mime = str(at(f, 'mimeType'));
  if (itag === null || !mime) return undefined;
  const [type = '', params = ''] = mime.split(';');
  const [kind, sub = ''] = type.trim().split('/');
  const codecs = (/codecs="([^"]*)"/.exec(params)?.[1] ?? '').split(',').map((c) => c.trim()).filter(Boolean);
  const isVideo = kind === 'video';
  const videoCodec = isVideo ? (codecs[0] ?? null) : null;
  // A muxed video format names its audio codec second; an adaptive video format has none.
  const audioCodec = isVideo ? (adaptive ? null : (codecs[1] ?? null)) : (codecs[0] ?? null);
  const track = str(at(f, 'audioTrack', 'id'));
  const url = str(at(f, 'url'));
  const protection: Protection = arr(at(f, 'drmFamilies')).length > 0 ? 'drm' : url ? null : 'signature';
  return {
    itag,
    mime_type: mime,
    container: kind === 'audio' && sub === 'mp4' ? 'm4a' : sub,
    video_codec: videoCodec,
    audio_codec: audioCodec,
    width: int(at(f, 'width')),
    height: isVideo ? int(at(f, 'height')) : null,
    fps: int(at(f, 'fps')),
    quality_label: str(at(f, 'qualityLabel')),
    bitrate: int(at(f, 'bitrate')),
    audio_sample_rate: int(at(f, 'audioSampleRate')),
    audio_channels: int(at(f, 'audioChannels')),
    audio_language: track ? (track.split('.')[0] ?? null) : null,
    audio_default: at(f, 'audioTrack', 'audioIsDefault') === true,
    content_length: int(at(f, 'contentLength')),
    duration_ms: int(at(f, 'approxDurationMs')),
    url: protection === null ? url : null,
    protection,
    adaptive,
  };
}

/** Every format the player response lists, muxed first, in page order. */
export function streamFormats(player: unknown): StreamFormat[] {
  const out: StreamFormat[] = [];
  for (const f of arr(at(player, 'streamingData', 'formats'))) {
    const s = formatOf(f, false);
    if (s) out.push(s);
  }
  for (const f of arr(at(player, 'streamingData', 'adaptiveFormats'))) {
    const s = formatOf(f, true);
    if (s) out.push(s);
  }
  return out;
}

export const hasVideo = (f: StreamFormat): boolean => f.video_codec !== null || f.height !== null;
export const hasAudio = (f: StreamFormat): boolean => f.audio_codec !== null || !hasVideo(f);

export interface DownloadRequest {
  output?: unknown;
  video_quality?: unknown;
  video_format?: unknown;
  audio_format?: unknown;
  audio_language?: unknown;
}

export type Choice =
  | { ok: true; video: StreamFormat | null; audio: StreamFormat | null; container: string }
  | { ok: false; reason: 'no_formats' | 'no_match' | 'signature_required' | 'drm'; message: string };

const CODEC_ALIASES: Readonly<Record<string, RegExp>> = {
  h264: /^avc1/, avc: /^avc1/, avc1: /^avc1/, vp9: /^vp0?9/, vp09: /^vp0?9/, av1: /^av01/, av01: /^av01/,
  opus: /^opus/, aac: /^mp4a/, mp4a: /^mp4a/, vorbis: /^vorbis/,
};

function matchesFormat(f: StreamFormat, want: string | null, codec: string | null): boolean {
  if (!want) return true;
  const w = want.toLowerCase();
  if (f.container === w || (w === 'mp4' && f.container === 'm4a') || (w === 'm4a' && f.container === 'mp4')) return true;
  const re = CODEC_ALIASES[w];
  return re !== undefined && codec !== null && re.test(codec.toLowerCase());
}

function wanted(v: unknown): string | null {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
}

const byBitrate = (a: StreamFormat, b: StreamFormat) => (b.bitrate ?? 0) - (a.bitrate ?? 0) || a.itag - b.itag;

function refusal(all: StreamFormat[], matching: StreamFormat[], what: string): Choice {
  if (all.length === 0) return { ok: false, reason: 'no_formats', message: 'The page lists no stream formats (live, unavailable or restricted video).' };
  if (matching.length === 0) return { ok: false, reason: 'no_match', message: `No ${what} format matches the request.` };
  if (matching.every((f) => f.protection === 'drm')) return { ok: false, reason: 'drm', message: `Every matching ${what} format is DRM-protected.` };
  return { ok: false, reason: 'signature_required', message: `Every matching ${what} format needs a signature the player script computes; Gleaner does not run that script.` };
}

function chooseAudio(all: StreamFormat[], req: DownloadRequest, preferContainer: string | null): Choice | StreamFormat {
  const fmt = wanted(req.audio_format);
  const lang = wanted(req.audio_language)?.toLowerCase().split(/[-_]/)[0] ?? null;
  let pool = all.filter((f) => hasAudio(f) && !hasVideo(f));
  if (pool.length === 0) pool = all.filter((f) => hasAudio(f));
  let matching = pool.filter((f) => matchesFormat(f, fmt, f.audio_codec));
  const languages = matching.some((f) => f.audio_language !== null);
  if (lang && languages) matching = matching.filter((f) => f.audio_language?.toLowerCase() === lang);
  else if (languages) matching = matching.filter((f) => f.audio_default || f.audio_language === null);
  const usable = matching.filter((f) => f.protection === null);
  if (usable.length === 0) return refusal(all, matching, 'audio');
  const rank = (f: StreamFormat) => (preferContainer && f.container === preferContainer ? 0 : 1);
  return [...usable].sort((a, b) => rank(a) - rank(b) || byBitrate(a, b))[0] as StreamFormat;
}

function targetHeight(q: string | null): number | 'best' | 'worst' {
  if (!q) return 720;
  const s = q.toLowerCase();
  if (s === 'best' || s === 'highest') return 'best';
  if (s === 'worst' || s === 'lowest') return 'worst';
  const n = /(\d{3,4})/.exec(s);
  return n ? Number(n[1]) : 720;
}

export function chooseFormats(formats: readonly StreamFormat[], req: DownloadRequest): Choice {
  const all = [...formats];
  if (req.output === 'audio') {
    const a = chooseAudio(all, req, null);
    return 'itag' in a ? { ok: true, video: null, audio: a, container: a.container } : a;
  }
  const fmt = wanted(req.video_format);
  const matching = all.filter((f) => hasVideo(f) && matchesFormat(f, fmt, f.video_codec));
  const usable = matching.filter((f) => f.protection === null);
  if (usable.length === 0) return refusal(all, matching, 'video');
  const target = targetHeight(wanted(req.video_quality));
  const h = (f: StreamFormat) => f.height ?? 0;
  const heights = [...new Set(usable.map(h))].sort((a, b) => a - b);
  const pick =
    target === 'best' ? heights[heights.length - 1]
    : target === 'worst' ? heights[0]
    : ([...heights].reverse().find((x) => x <= target) ?? heights[0]);
  // Same height: higher frame rate, then mp4 (plays everywhere), then a muxed file (no remux
  // needed), then bitrate.
  const mp4First = (f: StreamFormat) => (f.container === 'mp4' ? 0 : 1);
  const video = usable
    .filter((f) => h(f) === pick)
    .sort((a, b) => (b.fps ?? 0) - (a.fps ?? 0) || mp4First(a) - mp4First(b) || Number(a.adaptive) - Number(b.adaptive) || byBitrate(a, b))[0] as StreamFormat;
  if (!video.adaptive) return { ok: true, video, audio: null, container: video.container };
  const audio = chooseAudio(all, req, video.container === 'mp4' ? 'm4a' : video.container);
  if (!('itag' in audio)) return audio;
  const container = video.container === 'mp4' && audio.container === 'm4a' ? 'mp4' : video.container === audio.container ? video.container : 'mkv';
  return { ok: true, video, audio, container };
}
