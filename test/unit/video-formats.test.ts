/**
 * Download's pure part: stream formats resolved from the player response and the choice by
 * `output`, `video_quality`, `video_format`, `audio_format`, `audio_language`; then the
 * simulator's real media file behind the chosen URL, with ranges, checked by ffprobe.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseFormats, streamFormats, type StreamFormat } from '../../core/targets/video/formats.js';
import { pageData } from '../../core/targets/video/page.js';
import { startSimulator, type Simulator } from '../sites/server.js';
import { MEDIA_SECONDS, mediaFiles } from '../sites/video-media.js';

const HAS_FFMPEG = (() => {
  try {
    execFileSync('ffprobe', ['-version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const fmt = (itag: number, mime: string, extra: Record<string, unknown> = {}) => ({ itag, mimeType: mime, url: `https://media.example/${itag}`, bitrate: itag * 1000, ...extra });
const V = (itag: number, height: number, mime = 'video/mp4; codecs="avc1.4d401f"', extra: Record<string, unknown> = {}) => fmt(itag, mime, { width: Math.round((height * 16) / 9), height, fps: 30, qualityLabel: `${height}p`, ...extra });
const A = (itag: number, mime: string, lang?: string, isDefault = false) => fmt(itag, mime, { audioSampleRate: '48000', audioChannels: 2, ...(lang ? { audioTrack: { id: `${lang}.4`, displayName: lang, audioIsDefault: isDefault } } : {}) });

/** A page with heights 1080/720/480/144, vp9 and avc, two audio languages, one DRM format. */
const PLAYER = {
  streamingData: {
    formats: [fmt(18, 'video/mp4; codecs="avc1.42001E, mp4a.40.2"', { width: 640, height: 360, fps: 30, qualityLabel: '360p' })],
    adaptiveFormats: [
      V(137, 1080), V(248, 1080, 'video/webm; codecs="vp9"'), V(136, 720), V(247, 720, 'video/webm; codecs="vp9"'), V(135, 480), V(160, 144),
      V(399, 1080, 'video/mp4; codecs="av01.0.08M.08"', { drmFamilies: ['WIDEVINE'] }),
      A(140, 'audio/mp4; codecs="mp4a.40.2"', 'en', true), A(141, 'audio/mp4; codecs="mp4a.40.2"', 'de'), A(251, 'audio/webm; codecs="opus"', 'en', true),
    ],
  },
};

const itags = (c: ReturnType<typeof chooseFormats>) => (c.ok ? [c.video?.itag ?? null, c.audio?.itag ?? null, c.container] : [c.reason]);

describe('stream format choice', () => {
  const formats = streamFormats(PLAYER);

  it('resolves every listed format with its container, codecs, track language and protection', () => {
    expect(formats.map((f) => f.itag)).toEqual([18, 137, 248, 136, 247, 135, 160, 399, 140, 141, 251]);
    expect(formats[0]).toEqual({
      itag: 18, mime_type: 'video/mp4; codecs="avc1.42001E, mp4a.40.2"', container: 'mp4', video_codec: 'avc1.42001E', audio_codec: 'mp4a.40.2',
      width: 640, height: 360, fps: 30, quality_label: '360p', bitrate: 18000, audio_sample_rate: null, audio_channels: null, audio_language: null,
      audio_default: false, content_length: null, duration_ms: null, url: 'https://media.example/18', protection: null, adaptive: false,
    });
    const de = formats.find((f) => f.itag === 141) as StreamFormat;
    expect([de.container, de.audio_codec, de.video_codec, de.audio_language, de.audio_default, de.height]).toEqual(['m4a', 'mp4a.40.2', null, 'de', false, null]);
    expect(formats.find((f) => f.itag === 399)?.protection).toBe('drm');
  });

  it('video: 720 by default, else the best below; best, worst, a height; audio in the same container family', () => {
    expect(itags(chooseFormats(formats, {}))).toEqual([136, 140, 'mp4']);
    expect(itags(chooseFormats(formats, { output: 'video', video_quality: 'best' }))).toEqual([137, 140, 'mp4']);
    expect(itags(chooseFormats(formats, { video_quality: 'worst' }))).toEqual([160, 140, 'mp4']);
    expect(itags(chooseFormats(formats, { video_quality: '1080p' }))).toEqual([137, 140, 'mp4']);
    expect(itags(chooseFormats(formats, { video_quality: '900' }))).toEqual([136, 140, 'mp4']);
    expect(itags(chooseFormats(formats, { video_quality: '100' }))).toEqual([160, 140, 'mp4']); // nothing below: the lowest above
    expect(itags(chooseFormats(formats, { video_quality: '360' }))).toEqual([18, null, 'mp4']); // a muxed file needs no remux
    expect(itags(chooseFormats(formats, { video_format: 'webm' }))).toEqual([247, 251, 'webm']);
    expect(itags(chooseFormats(formats, { video_format: 'vp9', audio_format: 'm4a' }))).toEqual([247, 140, 'mkv']);
    expect(itags(chooseFormats(formats, { video_format: 'av1' }))).toEqual(['drm']);
    expect(itags(chooseFormats(formats, { video_format: 'flv' }))).toEqual(['no_match']);
  });

  it('audio: the default track, or the language asked for, in the format asked for', () => {
    expect(itags(chooseFormats(formats, { output: 'audio' }))).toEqual([null, 251, 'webm']);
    expect(itags(chooseFormats(formats, { output: 'audio', audio_format: 'm4a' }))).toEqual([null, 140, 'm4a']);
    expect(itags(chooseFormats(formats, { output: 'audio', audio_language: 'de' }))).toEqual([null, 141, 'm4a']);
    expect(itags(chooseFormats(formats, { output: 'audio', audio_language: 'de-AT', audio_format: 'aac' }))).toEqual([null, 141, 'm4a']);
    expect(itags(chooseFormats(formats, { output: 'audio', audio_language: 'fr' }))).toEqual(['no_match']);
    expect(itags(chooseFormats(formats, { video_quality: '720', audio_language: 'de' }))).toEqual([136, 141, 'mp4']);
  });

  it('formats that need a signature are never chosen; only protected ones is a clear refusal', () => {
    const ciphered = { streamingData: { adaptiveFormats: [{ itag: 136, mimeType: 'video/mp4; codecs="avc1"', height: 720, signatureCipher: 's=x&url=y' }, { itag: 135, mimeType: 'video/mp4; codecs="avc1"', height: 480, url: 'https://media.example/135' }, A(140, 'audio/mp4; codecs="mp4a.40.2"')] } };
    expect(itags(chooseFormats(streamFormats(ciphered), {}))).toEqual([135, 140, 'mp4']);
    const locked = streamFormats({ streamingData: { formats: [{ itag: 18, mimeType: 'video/mp4; codecs="avc1, mp4a"', height: 360, signatureCipher: 's=x' }] } });
    expect(chooseFormats(locked, {})).toEqual({ ok: false, reason: 'signature_required', message: 'Every matching video format needs a signature the player script computes; Gleaner does not run that script.' });
    expect(chooseFormats([], { output: 'audio' })).toEqual({ ok: false, reason: 'no_formats', message: 'The page lists no stream formats (live, unavailable or restricted video).' });
  });
});

describe.skipIf(!HAS_FFMPEG)('the simulator media behind the chosen formats', () => {
  let sim: Simulator;
  let dir: string;
  beforeAll(async () => {
    sim = await startSimulator();
    dir = mkdtempSync(join(tmpdir(), 'gleaner-video-test-'));
  });
  afterAll(async () => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const page = async (id: string) => streamFormats(pageData(await (await fetch(`${sim.origin}/video/watch?v=${id}`)).text()).player);
  const probe = (bytes: Buffer, name: string) => {
    const file = join(dir, name);
    writeFileSync(file, bytes);
    const out = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration:stream=codec_type', '-of', 'json', file], { encoding: 'utf8' })) as { format: { duration: string }; streams: { codec_type: string }[] };
    return { seconds: Math.round(Number(out.format.duration)), streams: out.streams.map((s) => s.codec_type).sort() };
  };

  it('lists the real files with their sizes, skips the locked 720p, and serves a playable choice', async () => {
    const files = await mediaFiles();
    const formats = await page('vid00000001');
    expect(formats.map((f) => [f.itag, f.protection, f.content_length])).toEqual([
      [18, null, files.find((m) => m.itag === 18)?.size], [136, 'signature', null], [134, null, files.find((m) => m.itag === 134)?.size],
      [133, null, files.find((m) => m.itag === 133)?.size], [140, null, files.find((m) => m.itag === 140)?.size],
    ]);
    const choice = chooseFormats(formats, { video_quality: '720' });
    expect(itags(choice)).toEqual([18, null, 'mp4']);
    const body = Buffer.from(await (await fetch((choice as { video: StreamFormat }).video.url as string)).arrayBuffer());
    expect(probe(body, 'muxed.mp4')).toEqual({ seconds: MEDIA_SECONDS, streams: ['audio', 'video'] });
    const adaptive = chooseFormats(formats.filter((f) => f.itag !== 18), {});
    expect(itags(adaptive)).toEqual([134, 140, 'mp4']);
    const audio = Buffer.from(await (await fetch((adaptive as { audio: StreamFormat }).audio.url as string)).arrayBuffer());
    expect(probe(audio, 'audio.m4a')).toEqual({ seconds: MEDIA_SECONDS, streams: ['audio'] });
    expect(chooseFormats(await page('vid00000007'), {})).toMatchObject({ ok: false, reason: 'signature_required' });
  });

  it('answers byte ranges (Range header and the range parameter) that add up to the file', async () => {
    const url = `${sim.origin}/video/videoplayback?id=vid00000001&itag=134`;
    const whole = Buffer.from(await (await fetch(url)).arrayBuffer());
    const size = whole.length;
    const first = await fetch(url, { headers: { range: 'bytes=0-999' } });
    expect([first.status, first.headers.get('content-range'), first.headers.get('content-length')]).toEqual([206, `bytes 0-999/${size}`, '1000']);
    const middle = await fetch(`${url}&range=1000-49999`);
    const tail = await fetch(url, { headers: { range: 'bytes=50000-' } });
    const joined = Buffer.concat([Buffer.from(await first.arrayBuffer()), Buffer.from(await middle.arrayBuffer()), Buffer.from(await tail.arrayBuffer())]);
    expect(joined.equals(whole)).toBe(true);
    const suffix = await fetch(url, { headers: { range: 'bytes=-10' } });
    expect([suffix.status, Buffer.from(await suffix.arrayBuffer()).equals(whole.subarray(size - 10))]).toEqual([206, true]);
    const past = await fetch(url, { headers: { range: `bytes=${size}-` } });
    expect([past.status, past.headers.get('content-range')]).toEqual([416, `bytes */${size}`]);
    expect(probe(whole, 'video.mp4')).toEqual({ seconds: MEDIA_SECONDS, streams: ['video'] });
  });
});
