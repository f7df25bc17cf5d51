/**
 * Download's parts below the API: the choice of streams from a watch page (chooseDownload), the
 * ffmpeg check and command line, the ranged fetch to a file on the farm's network path (ranges,
 * servers that ignore them, the cap, refusals, abort), and the media step run by the farm's real
 * flow executor against the simulator — the file's duration read back with ffprobe, temp
 * folders gone on every path.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GleanerError } from '../../core/errors.js';
import { routeById } from '../../core/registry/index.js';
import type { MediaStep } from '../../core/targets/flow.js';
import { chooseDownload } from '../../core/targets/video/download.js';
import { planVideo } from '../../core/targets/video/plan.js';
import { checkFfmpeg, ffmpegPaths, remuxArgs } from '../../farm/media/ffmpeg.js';
import type { TaskMessage } from '../../farm/messages.js';
import { Transports } from '../../farm/net/transports.js';
import { fetchToFile } from '../../farm/net/ranged.js';
import { TaskAbort } from '../../farm/worker/abort.js';
import { TaskBudget } from '../../farm/worker/budget.js';
import { profileOf } from '../../farm/worker/flow-attempt.js';
import { runMediaStep } from '../../farm/worker/media-step.js';
import { task } from '../helpers/farm.js';
import { closeFlowRunner, flowRunner } from '../helpers/flow-runner.js';
import { simTargets } from '../helpers/video.js';
import { startSimulator, type Simulator } from '../sites/server.js';
import { mediaFiles, type MediaFile } from '../sites/video-media.js';
import { watchPage } from '../sites/video-watch.js';
import { until } from '../helpers/wait.js';

let sim: Simulator;
let files: MediaFile[];
let scratch: string;
const OPEN = { allowPrivate: true, hosts: {} };
const transports = new Transports(OPEN);
const previousTmp = process.env.TMPDIR;

beforeAll(async () => {
  [sim, files] = await Promise.all([startSimulator(), mediaFiles()]);
  // The media step's temp folders go under a folder of this test's own, so "none left" is exact.
  scratch = mkdtempSync(join(tmpdir(), 'gleaner-download-test-'));
  process.env.TMPDIR = join(scratch, 'tmp');
  execFileSync('mkdir', ['-p', process.env.TMPDIR]);
});
afterAll(async () => {
  process.env.TMPDIR = previousTmp;
  await closeFlowRunner();
  await transports.close();
  await sim.close();
  rmSync(scratch, { recursive: true, force: true });
});

const leftovers = () => readdirSync(join(scratch, 'tmp'));
const size = (itag: number) => files.find((f) => f.itag === itag)?.size;
const seconds = (path: string) => Number(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'default=nw=1:nk=1', path], { encoding: 'utf8' }));
const streams = (path: string) =>
  execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_type,height', '-of', 'csv=p=0', path], { encoding: 'utf8' }).trim().split('\n').sort();

describe('chooseDownload', () => {
  const site = () => `${sim.origin}/video`;
  const page = (id: string) => watchPage(id, site(), files);
  const format = (itag: number, extra: Record<string, unknown>) => ({ itag, bitrate: expect.any(Number), fps: extra.height ? 25 : null, audio_language: null, ...extra });

  it('the muxed file by default, the audio track for output audio, a video-only height merged with audio', () => {
    expect(chooseDownload(page('vid00000001'), { query: 'vid00000001' }, site())).toEqual({
      ok: true,
      sources: [{ role: 'muxed', url: `${site()}/videoplayback?id=vid00000001&itag=18&source=sim`, size: size(18) }],
      container: 'mp4',
      facts: {
        video_id: 'vid00000001', output: 'video', start_at: null, end_at: null, audio_format: null,
        video_format: format(18, { mime_type: 'video/mp4; codecs="avc1.42001E, mp4a.40.2"', container: 'mp4', quality_label: '360p', width: 640, height: 360, video_codec: 'avc1.42001E', audio_codec: 'mp4a.40.2' }),
      },
    });
    const audio = chooseDownload(page('vid00000001'), { query: 'vid00000001', output: 'audio', start_at: '00:00:01' }, site());
    expect(audio).toMatchObject({ ok: true, sources: [{ role: 'audio', size: size(140) }], container: 'm4a', facts: { output: 'audio', start_at: '00:00:01', video_format: null, audio_format: { itag: 140, container: 'm4a' } } });
    const merged = chooseDownload(page('vid00000001'), { query: 'vid00000001', video_quality: '240p' }, site());
    expect(merged).toMatchObject({ ok: true, container: 'mp4', sources: [{ role: 'video', size: size(133) }, { role: 'audio', size: size(140) }], facts: { video_format: { itag: 133, height: 240 }, audio_format: { itag: 140 } } });
  });

  it('refuses with MEDIA_NOT_DOWNLOADABLE and the reason: signature, no formats, range past the end', () => {
    expect(chooseDownload(page('vid00000007'), { query: 'vid00000007' }, site())).toEqual({
      ok: false, code: 'MEDIA_NOT_DOWNLOADABLE', data: { reason: 'signature_required' },
      message: 'Every matching video format needs a signature the player script computes; Gleaner does not run that script.',
    });
    expect(chooseDownload(page('vid00000003'), { query: 'vid00000003' }, site())).toEqual({
      ok: false, code: 'MEDIA_NOT_DOWNLOADABLE', data: { reason: 'no_formats' },
      message: 'The page lists no stream formats (live, unavailable or restricted video). The page says: This video is private.',
    });
    expect(chooseDownload(page('vid00000001'), { query: 'vid00000001', start_at: '00:00:10' }, site())).toEqual({
      ok: false, code: 'MEDIA_NOT_DOWNLOADABLE', data: { reason: 'empty_range' }, message: 'start_at (00:00:10) is past the end of the video (10 s).',
    });
    expect(chooseDownload('<html>nothing</html>', { query: 'x' }, site())).toMatchObject({ ok: false, data: { reason: 'no_formats' } });
  });
});

describe('ffmpeg', () => {
  it('is found on PATH, or says what is missing and what to install', async () => {
    expect(await checkFfmpeg()).toEqual({ ok: true, ffmpeg: 'ffmpeg', ffprobe: 'ffprobe', version: expect.stringMatching(/^\d/), reason: null });
    expect(ffmpegPaths('/usr/bin/ffmpeg')).toEqual({ ffmpeg: '/usr/bin/ffmpeg', ffprobe: '/usr/bin/ffprobe' });
    expect(await checkFfmpeg('/nonexistent/ffmpeg')).toEqual({
      ok: false, ffmpeg: '/nonexistent/ffmpeg', ffprobe: 'ffprobe', version: null,
      reason: '/nonexistent/ffmpeg was not found: install ffmpeg (Debian/Ubuntu: apt-get install ffmpeg) or set GLEANER_FFMPEG to the ffmpeg binary',
    });
  });

  it('cuts every input at the same times and maps video from one, audio from the other, stream copy', () => {
    const signal = new AbortController().signal;
    expect(remuxArgs({ inputs: [{ path: 'v', take: 'video', format: 'mov' }, { path: 'a', take: 'audio', format: 'matroska' }], output: 'o.mp4', container: 'mp4', start: 2, end: 7, signal })).toEqual([
      '-hide_banner', '-nostdin', '-v', 'error', '-y',
      '-protocol_whitelist', 'file', '-f', 'mov', '-ss', '2', '-to', '7', '-i', 'v',
      '-protocol_whitelist', 'file', '-f', 'matroska', '-ss', '2', '-to', '7', '-i', 'a',
      '-map', '0:v:0', '-map', '1:a:0', '-c', 'copy', '-avoid_negative_ts', 'make_zero', '-movflags', '+faststart', '-protocol_whitelist', 'file', '-f', 'mp4', 'o.mp4',
    ]);
    expect(remuxArgs({ inputs: [{ path: 'm', take: 'audio', format: 'matroska' }], output: 'o.webm', container: 'webm', start: 0, end: undefined, signal })).toEqual([
      '-hide_banner', '-nostdin', '-v', 'error', '-y', '-protocol_whitelist', 'file', '-f', 'matroska', '-i', 'm',
      '-map', '0:a:0', '-c', 'copy', '-avoid_negative_ts', 'make_zero', '-protocol_whitelist', 'file', '-f', 'webm', 'o.webm',
    ]);
  });
});

describe('fetchToFile', () => {
  const url = (itag: number) => `${sim.origin}/video/videoplayback?id=vid00000001&itag=${itag}`;
  const target = (name: string) => join(scratch, name);
  let plain: Server;
  let plainUrl: string;
  beforeAll(async () => {
    // A server that ignores Range (200, whole body), refuses /forbidden, and stalls on /stall.
    plain = createServer((req, res) => {
      if (req.url === '/forbidden') return void res.writeHead(403).end('no');
      if (req.url === '/stall') {
        res.writeHead(206, { 'content-range': 'bytes 0-99999/100000', 'content-length': 100000 });
        return void res.write(Buffer.alloc(1000));
      }
      res.writeHead(200, { 'content-length': 5000 }).end(Buffer.alloc(5000, 7));
    });
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    plainUrl = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    plain.closeAllConnections();
    plain.close();
  });
  const get = (u: string, path: string, over: Partial<Parameters<typeof fetchToFile>[0]> = {}, policy = OPEN) =>
    fetchToFile({ url: u, headers: [], proxy: null, path, maxBytes: 10_000_000, signal: new AbortController().signal, ...over }, transports, policy);

  it('asks for the stream range by range and writes it whole', async () => {
    const got = await get(url(134), target('134'), { chunkBytes: 40_000 });
    expect([got.size, got.requests]).toEqual([size(134), Math.ceil((size(134) as number) / 40_000)]);
    expect(readFileSync(target('134')).equals(readFileSync(files.find((f) => f.itag === 134)!.path))).toBe(true);
  });

  it('reads a server that ignores ranges whole; refuses what is over the cap, refused, forbidden or aborted', async () => {
    expect(await get(`${plainUrl}/whole`, target('whole'))).toMatchObject({ size: 5000, requests: 1 });
    const fail = (p: Promise<unknown>) => p.then(() => undefined, (err: GleanerError) => [err.code, err.message]);
    expect(await fail(get(url(140), target('cap'), { maxBytes: 1000 }))).toEqual(['RESPONSE_TOO_LARGE', 'The media is larger than 1000 bytes (GLEANER_MEDIA_MAX_BYTES).']);
    expect(await fail(get(`${plainUrl}/whole`, target('cap2'), { maxBytes: 4000 }))).toEqual(['RESPONSE_TOO_LARGE', 'The media is larger than 4000 bytes (GLEANER_MEDIA_MAX_BYTES).']);
    expect(await fail(get(`${plainUrl}/forbidden`, target('403')))).toEqual(['UPSTREAM_FAILED', 'The media stream answered HTTP 403.']);
    expect((await fail(get(url(140), target('private'), {}, { allowPrivate: false, hosts: {} })))?.[0]).toBe('TARGET_FORBIDDEN');
    const abort = new AbortController();
    const stalled = get(`${plainUrl}/stall`, target('stall'), { signal: abort.signal });
    // The download is under way (its file is open, the server stalls after 1000 bytes): abort it.
    await until(() => existsSync(target('stall')), 'the stalled download to open its file');
    abort.abort(new GleanerError('REQUEST_FAILED_SCRAPE_TIMEOUT'));
    expect(await fail(stalled)).toEqual(['REQUEST_FAILED_SCRAPE_TIMEOUT', 'The scrape did not finish within the synchronous deadline; retry with backoff or use the async route.']);
  });
});

describe('the media step in the flow executor', () => {
  const plan = (params: Record<string, unknown>) => planVideo(routeById('media/video/download')!, params, simTargets(sim.origin))[0]!;

  it('fetches the chosen 240p video and the audio, cuts 00:00:02–00:00:07 and merges them', async () => {
    const seen = sim.log.length;
    const run = await flowRunner().run(plan({ query: 'vid00000001', video_quality: '240', start_at: '00:00:02', end_at: '00:00:07' }));
    const media = run.media!;
    try {
      expect(sim.log.slice(seen)).toEqual([
        'GET /video/watch?v=vid00000001&hl=en&bpctr=9999999999&has_verified=1',
        'GET /video/videoplayback?id=vid00000001&itag=133&source=sim',
        'GET /video/videoplayback?id=vid00000001&itag=140&source=sim',
      ]);
      expect([media.container, media.size, media.fetchedBytes]).toEqual(['mp4', statSync(media.path).size, (size(133) as number) + (size(140) as number)]);
      expect(Math.abs(media.duration - 5)).toBeLessThan(0.1);
      expect(Math.abs(seconds(media.path) - media.duration)).toBeLessThan(0.001);
      expect(streams(media.path)).toEqual(['audio', 'video,240']);
      // Only the output is left in the run's folder: the fetched streams went after the remux.
      expect(readdirSync(media.dir)).toEqual(['out.mp4']);
    } finally {
      rmSync(media.dir, { recursive: true, force: true });
    }
  });

  it('an audio download is the audio track alone, to the end', async () => {
    const run = await flowRunner().run(plan({ query: 'vid00000001', output: 'audio', start_at: '00:00:04' }));
    const media = run.media!;
    try {
      expect([media.container, streams(media.path), Math.abs(media.duration - 6) < 0.1]).toEqual(['m4a', ['audio'], true]);
    } finally {
      rmSync(media.dir, { recursive: true, force: true });
    }
  });

  it('signed-only media fails with the documented problem and leaves no temp folder', async () => {
    const failure = await flowRunner().run(plan({ query: 'vid00000007' })).catch((err: GleanerError) => err);
    expect([failure instanceof GleanerError && failure.code, (failure as GleanerError).data]).toEqual(['MEDIA_NOT_DOWNLOADABLE', { reason: 'signature_required' }]);
    expect(leftovers()).toEqual([]);
  });

  it('an abort mid-download removes the temp folder', async () => {
    const stall = createServer((_req, res) => {
      res.writeHead(206, { 'content-range': 'bytes 0-99999/100000', 'content-length': 100000 });
      res.write(Buffer.alloc(1000));
    });
    await new Promise<void>((resolve) => stall.listen(0, '127.0.0.1', resolve));
    const stallUrl = `http://127.0.0.1:${(stall.address() as AddressInfo).port}/media`;
    const step: MediaStep = { kind: 'media', name: 'media', output: 'video', range: { start: 0 }, choose: () => ({ ok: true, sources: [{ role: 'muxed', url: stallUrl, size: null }], container: 'mp4', facts: {} }) };
    const abort = new TaskAbort();
    const env = flowRunner().env;
    const budget = new TaskBudget(env.setup.config.taskMaxBytes, env.setup.config.maxResponseBytes);
    const ctx = { msg: { seq: 1, task: task({}), browser: null } as TaskMessage, env, device: 'desktop' as const, country: undefined, runJs: false, screenshot: false, abort, budget, canRender: false, escalated: false };
    const running = runMediaStep(step, '', {}, { ctx, proxy: null, profile: profileOf(ctx, null, undefined) }).catch((err: unknown) => err);
    await until(() => leftovers().length === 1, "the download's temp folder");
    abort.abort(new GleanerError('SERVICE_UNAVAILABLE', 'The task was cancelled.'));
    expect(((await running) as GleanerError).message).toBe('The task was cancelled.');
    expect(leftovers()).toEqual([]);
    stall.closeAllConnections();
    stall.close();
  });
});
