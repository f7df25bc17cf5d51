/**
 * The eight video routes through the HTTP API: the real gateway and farm, the video simulator as
 * the platform (its request log is the exact upstream traffic), real Chromium for `run_js`, and
 * the S3-compatible test server (SigV4 verified) for downloads, whose objects are measured with
 * ffprobe. Every route in each mode it has; walls; a node without ffmpeg.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { call, postJson, startGateway, type TestGateway } from '../helpers/gateway.js';
import { startS3Server, type S3Server } from '../helpers/s3.js';
import { simTargets } from '../helpers/video.js';
import { startSimulator, type Simulator } from '../sites/server.js';
import { mediaFiles, type MediaFile } from '../sites/video-media.js';
import { until } from '../helpers/wait.js';

let sim: Simulator;
let s3: S3Server;
let gw: TestGateway;
let files: MediaFile[];
let scratch: string;

beforeAll(async () => {
  [sim, s3, files] = await Promise.all([startSimulator(), startS3Server({ keys: { AKTEST: 'secret-test-key' }, buckets: ['media'] }), mediaFiles()]);
  gw = await startGateway({
    targets: simTargets(sim.origin),
    storage: { s3: { accessKeyId: 'AKTEST', secretAccessKey: 'secret-test-key', endpoint: s3.endpoint, region: 'us-east-1', buckets: { '*': ['media'] } } },
  });
  scratch = mkdtempSync(join(tmpdir(), 'gleaner-video-api-'));
});
afterAll(async () => {
  await gw?.close();
  await Promise.all([sim?.close(), s3?.close()]);
  rmSync(scratch, { recursive: true, force: true });
});

const WATCH = (id: string) => `GET /video/watch?v=${id}&hl=en&bpctr=9999999999&has_verified=1`;
const BROWSE = 'POST /video/youtubei/v1/browse?prettyPrint=false';
const SEARCH_API = 'POST /video/youtubei/v1/search?prettyPrint=false';

/** Runs `fn` and returns what the simulator received meanwhile. */
async function upstream<T>(fn: () => Promise<T>): Promise<{ value: T; requests: string[] }> {
  const from = sim.log.length;
  const value = await fn();
  return { value, requests: sim.log.slice(from) };
}

async function waitDone(id: string, g: TestGateway = gw): Promise<any> {
  return until(async () => {
    const a = await call(`${g.url}/v1/async/scrape/${id}`, { headers: g.auth });
    return a.body?.status !== 'pending' && a.body;
  }, `job ${id} to finish`, 30_000);
}

const sync = (route: string, body: Record<string, unknown>) => postJson(gw, `/v1/scrape/media/video/${route}`, body);
/** Submits one async job and collects it. */
async function async(route: string, body: Record<string, unknown>): Promise<any> {
  const a = await postJson(gw, `/v1/async/scrape/media/video/${route}`, body);
  expect(a.status).toBe(202);
  return waitDone(a.body.metadata.request_id);
}
const local = (v: unknown): any => JSON.parse(JSON.stringify(v).replaceAll(sim.origin, 'SIM'));

describe('metadata', () => {
  const FACTS = {
    id: 'vid00000001', title: 'Trail Running Basics', channel: 'Gleaner Outdoors', channel_id: 'UCGleanerOutdoors0000001', uploader_id: '@gleaneroutdoors',
    channel_follower_count: 12500, duration: 600, view_count: 123456, like_count: 4321, comment_count: 87, upload_date: '2024-03-05T08:00:00-08:00',
    categories: ['Sports'], tags: ['trail', 'running', 'basics'], live_status: 'not_live', availability: 'public', age_limit: 0,
    chapters: [{ title: 'Intro', start_time: 0, end_time: 120 }, { title: 'Gear', start_time: 120, end_time: 420 }, { title: 'On the trail', start_time: 420, end_time: 600 }],
  };

  test('sync: one watch page, the parsed facts', async () => {
    const { value: a, requests } = await upstream(() => sync('metadata', { query: 'vid00000001', output: ['json'] }));
    expect(requests).toEqual([WATCH('vid00000001')]);
    expect([a.status, a.body.status, a.body.results.length, a.body.results[0].metadata]).toEqual([200, 200, 1, {
      page: 1, run_js: false, url: `${sim.origin}/video/watch?v=vid00000001&hl=en&bpctr=9999999999&has_verified=1`, status_code: 200, json_source: 'builtin', parse_status: 'parsed',
    }]);
    expect(a.body.results[0].json).toMatchObject(FACTS);
  });

  test('sync with run_js renders the page in Chromium and parses the rendered DOM', async () => {
    const { value: a, requests } = await upstream(() => sync('metadata', { query: 'vid00000001', output: ['json'], run_js: true }));
    expect(requests).toEqual([WATCH('vid00000001')]);
    expect([a.status, a.body.results[0].metadata.run_js, a.body.results[0].metadata.parse_status]).toEqual([200, true, 'parsed']);
    expect(a.body.results[0].json).toMatchObject(FACTS);
  });

  test('async and batch: the same facts; a private video states its availability', async () => {
    const job = await async('metadata', { query: 'vid00000001', output: ['json'] });
    expect([job.status, job.results[0].json]).toMatchObject(['done', FACTS]);
    const b = await postJson(gw, '/v1/async/scrape/batch/media/video/metadata', { query: ['vid00000001', 'vid00000003'], output: ['json'] });
    const [one, two] = await Promise.all(b.body.data.map((d: any) => waitDone(d.metadata.request_id)));
    expect(one.results[0].json.title).toBe('Trail Running Basics');
    expect(two.results[0].json).toMatchObject({ id: 'vid00000003', availability: 'private', playability_reason: 'This video is private' });
  });

  test('the bot check on every attempt is returned and called blocked', async () => {
    const { value: a, requests } = await upstream(() => sync('metadata', { query: 'botcheck000', output: ['json'] }));
    expect(requests).toEqual(Array(3).fill(WATCH('botcheck000')));
    expect([a.status, a.body.results[0].metadata.parse_status]).toEqual([200, 'blocked']);
  });
});

describe('subtitles', () => {
  const SCHEMA = {
    type: 'object',
    properties: {
      video_id: { type: 'string' }, language_code: { type: 'string' }, origin: { type: 'string' }, source: { type: 'string' },
      segments: { type: 'array', items: { type: 'object', properties: { start_ms: { type: 'integer' }, end_ms: { type: 'integer' }, text: { type: 'string' } } } },
    },
  };
  const EN = [
    { start_ms: 0, end_ms: 2500, text: 'Welcome to the trail.' },
    { start_ms: 2500, end_ms: 5500, text: 'Pack light, drink often.' },
    { start_ms: 5500, end_ms: 9500, text: 'See you at the summit.' },
  ];
  const TRACK = (id: string, q: string) => `GET /video/api/timedtext?v=${id}&caps=asr&xoaf=5&${q}&signature=sim${id}&fmt=json3`;
  const body = (query: string, language_code: string) => ({ query, language_code, output: ['json'], json: { schema: SCHEMA } });

  test('sync: the watch page, the chosen track; json filled from its segments', async () => {
    const { value: a, requests } = await upstream(() => sync('subtitles', body('vid00000001', 'en')));
    expect(requests).toEqual([WATCH('vid00000001'), TRACK('vid00000001', 'lang=en')]);
    expect([a.status, a.body.results[0].json, a.body.results[0].metadata.json_source]).toEqual([
      200, { video_id: 'vid00000001', language_code: 'en', origin: 'uploader_provided', source: 'track', segments: EN }, 'offline',
    ]);
  });

  test('a refused track falls back to the transcript panel', async () => {
    const { value: a, requests } = await upstream(() => sync('subtitles', body('vid00000006', 'en')));
    expect(requests).toEqual([WATCH('vid00000006'), 'GET /video/api/timedtext?v=vid00000006&caps=asr&xoaf=5&lang=en&exp=xpe&signature=simvid00000006&fmt=json3', 'POST /video/youtubei/v1/get_transcript?prettyPrint=false']);
    expect(a.body.results[0].json).toEqual({ video_id: 'vid00000006', language_code: 'en', origin: 'uploader_provided', source: 'transcript', segments: EN });
  });

  test('no matching track: an empty result, not an error, and nothing more fetched', async () => {
    const { value: a, requests } = await upstream(() => sync('subtitles', body('vid00000001', 'fr')));
    expect(requests).toEqual([WATCH('vid00000001')]);
    // The schema's other fields stay empty and are listed as unfilled: no segments, no error.
    expect([a.status, a.body.results[0].json, a.body.results[0].metadata.unfilled]).toEqual([200, { video_id: 'vid00000001', language_code: 'fr' }, ['/origin', '/source', '/segments']]);
  });

  test('async and batch: the auto-generated track', async () => {
    const job = await async('subtitles', { ...body('vid00000001', 'en'), subtitle_origin: 'auto_generated' });
    expect(job.results[0].json).toEqual({
      video_id: 'vid00000001', language_code: 'en', origin: 'auto_generated', source: 'track',
      segments: [{ start_ms: 0, end_ms: 2400, text: 'welcome to the trail' }, { start_ms: 2600, end_ms: 5700, text: 'pack light drink often' }],
    });
    const b = await postJson(gw, '/v1/async/scrape/batch/media/video/subtitles', { ...body('x', 'de'), query: ['vid00000001'] });
    expect((await waitDone(b.body.data[0].metadata.request_id)).results[0].json.segments).toEqual([
      { start_ms: 0, end_ms: 2500, text: 'Willkommen auf dem Pfad.' }, { start_ms: 2500, end_ms: 9500, text: 'Bis zum Gipfel.' },
    ]);
  });

  test('without json the route is refused (no built-in parser for callers)', async () => {
    const a = await sync('subtitles', { query: 'vid00000001' });
    expect([a.status, a.body.errors.map((e: any) => e.pointer)]).toEqual([400, ['#/json', '#/output']]);
  });
});

describe('channel, search, autocomplete, trainability', () => {
  const CHANNEL = 'UCGleanerOutdoors0000001';

  test('channel: videos up to the limit across continuations, then the About panel; sync and async', async () => {
    const { value: a, requests } = await upstream(() => sync('channel', { query: CHANNEL, limit: 45, output: ['json'] }));
    expect(requests).toEqual([`GET /video/channel/${CHANNEL}/videos?hl=en`, BROWSE, BROWSE]);
    const j = local(a.body.results[0].json);
    expect([j.videos.length, j.videos[44].id, j.title, j.country, j.view_count, j.video_count]).toEqual([45, 'ch000000045', 'Gleaner Outdoors', 'Switzerland', 1234567, 75]);
    const job = await async('channel', { query: '@gleaneroutdoors', limit: 1000, output: ['json'] });
    expect([job.results[0].json.videos.length, job.results[0].json.continuation]).toEqual([75, null]);
  });

  test('search: the filter in sp; sync and async', async () => {
    const { value: a, requests } = await upstream(() => sync('search', { query: 'trail', type: 'videos', hd: true, sort_by: 'view_count', output: ['json'] }));
    expect(requests).toEqual(['GET /video/results?search_query=trail&sp=CAMSBBABIAE%3D&hl=en']);
    const j = a.body.results[0].json;
    expect([j.videos.length > 0, j.channels, j.playlists]).toEqual([true, [], []]);
    const job = await async('search', { query: 'trail', output: ['json'] });
    expect(job.results[0].json.videos[0]).toMatchObject({ position: 1, id: 's0001wu0283', title: 'trail result 1' });
  });

  test('search/max: every continuation within the deadline; sync and async', async () => {
    const { value: a, requests } = await upstream(() => sync('search/max', { query: 'trail', output: ['json'] }));
    expect(requests).toEqual(['GET /video/results?search_query=trail&hl=en', ...Array(14).fill(SEARCH_API)]);
    const j = a.body.results[0].json;
    expect([j.videos.length + j.channels.length + j.playlists.length, j.continuation]).toEqual([300, null]);
    const job = await async('search/max', { query: 'trail', output: ['json'] });
    expect(job.results[0].json.videos.length).toBe(j.videos.length);
  });

  test('a captcha is retried on the next attempt; on every attempt it is blocked', async () => {
    const { value: a, requests } = await upstream(() => sync('search', { query: 'x __captcha1__', output: ['json'] }));
    expect(requests.map((r) => r.split('?')[0])).toEqual(['GET /video/results', 'GET /video/sorry/index', 'GET /video/results']);
    expect(a.body.results[0].metadata).toMatchObject({ status_code: 200, parse_status: 'parsed' });
    const b = await sync('search', { query: 'x __captcha__', output: ['json'] });
    expect([b.status, b.body.results[0].metadata.status_code, b.body.results[0].metadata.parse_status, b.body.results[0].json]).toEqual([200, 429, 'blocked', null]);
  });

  test('autocomplete: the suggest host, JSONP read; sync and async', async () => {
    const { value: a, requests } = await upstream(() => sync('autocomplete', { query: 'trail', language: 'de', output: ['json'] }));
    expect(requests).toEqual(['GET /video-suggest/complete/search?client=youtube&ds=yt&q=trail&hl=de']);
    expect(a.body.results[0].json).toEqual({ query: 'trail', suggestions: ['trail', 'trail anleitung', 'trail schuhe', 'trail für anfänger'] });
    expect((await async('autocomplete', { query: 'gear', output: ['json'] })).results[0].json.suggestions[1]).toBe('gear tutorial');
  });

  test('trainability: the data API host; sync and async', async () => {
    const { value: a, requests } = await upstream(() => sync('video/trainability', { query: 'vid00000005', output: ['json'] }));
    expect(requests).toEqual(['GET /video-api/v3/videoTrainability?id=vid00000005']);
    expect(a.body.results[0].json).toEqual({ video_id: 'vid00000005', permitted: ['party-a', 'party-b'], etag: 'etag-vid00000005' });
    expect((await async('video/trainability', { query: 'vid00000002', output: ['json'] })).results[0].json.permitted).toEqual(['none']);
  });
});

describe('download', () => {
  const STORAGE = { type: 's3', url: 's3://media/downloads/' };
  const probe = (bytes: Buffer, name: string) => {
    const file = join(scratch, name);
    writeFileSync(file, bytes);
    const out = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration:stream=codec_type,height', '-of', 'json', file], { encoding: 'utf8' })) as {
      format: { duration: string };
      streams: { codec_type: string; height?: number }[];
    };
    return { duration: Number(out.format.duration), streams: out.streams.map((s) => `${s.codec_type}${s.height ? ` ${s.height}` : ''}`).sort() };
  };

  test('async: the 240p video and the audio by range, cut 00:00:02–00:00:07, merged, uploaded; deliveries.storage records it', async () => {
    const s3From = s3.requests.length;
    const { value: a, requests } = await upstream(async () => {
      const submitted = await postJson(gw, '/v1/async/scrape/media/video/download', { query: 'vid00000001', video_quality: '240', start_at: '00:00:02', end_at: '00:00:07', storage: STORAGE });
      expect(submitted.status).toBe(202);
      return waitDone(submitted.body.metadata.request_id);
    });
    const id = a.metadata.request_id;
    expect(requests).toEqual([WATCH('vid00000001'), 'GET /video/videoplayback?id=vid00000001&itag=133&source=sim', 'GET /video/videoplayback?id=vid00000001&itag=140&source=sim']);
    const key = `downloads/${id}.mp4`;
    const object = s3.getObject('media', key);
    expect([object?.headers['content-type'], s3.requests.slice(s3From).map((r) => [r.method, r.rawPath, r.status])]).toEqual(['video/mp4', [['PUT', `/media/${key}`, 200]]]);
    const measured = probe(object!.body, 'download.mp4');
    expect(measured.streams).toEqual(['audio', 'video 240']);
    expect(Math.abs(measured.duration - 5)).toBeLessThan(0.1);
    const json = a.results[0].json;
    expect(local(json)).toEqual({
      video_id: 'vid00000001', output: 'video', start_at: '00:00:02', end_at: '00:00:07',
      video_format: expect.objectContaining({ itag: 133, height: 240, container: 'mp4', video_codec: 'avc1.42C015' }),
      audio_format: expect.objectContaining({ itag: 140, container: 'm4a', audio_codec: 'mp4a.40.2' }),
      object_key: key, location: `${s3.endpoint}/media/${key}`, storage_type: 's3', size_bytes: object!.body.length, duration_s: json.duration_s, container: 'mp4', content_type: 'video/mp4',
    });
    expect(Math.abs(json.duration_s - measured.duration)).toBeLessThan(0.001);
    expect([a.status, a.results.length, a.results[0].html, a.results[0].metadata]).toEqual(['done', 1, null, {
      page: 1, run_js: false, url: `${sim.origin}/video/watch?v=vid00000001&hl=en&bpctr=9999999999&has_verified=1`, status_code: 200, json_source: 'builtin', parse_status: 'parsed',
    }]);
    expect(a.deliveries).toEqual({ storage: { state: 'delivered', attempts: 1, deliveredAt: expect.any(Number), key, size: object!.body.length, duration: json.duration_s } });
    // The media was never in the result: the stored result is the small JSON only.
    expect(JSON.stringify(a).length).toBeLessThan(3000);
  });

  test('batch, output audio: the audio track alone as .m4a, to the end', async () => {
    const b = await postJson(gw, '/v1/async/scrape/batch/media/video/download', { query: ['vid00000001'], output: 'audio', start_at: '00:00:04', storage: STORAGE });
    const job = await waitDone(b.body.data[0].metadata.request_id);
    const key = `downloads/${job.metadata.request_id}.m4a`;
    expect([job.status, job.results[0].json.object_key, job.results[0].json.content_type, job.deliveries.storage.key]).toEqual(['done', key, 'audio/mp4', key]);
    const measured = probe(s3.getObject('media', key)!.body, 'audio.m4a');
    expect([measured.streams, Math.abs(measured.duration - 6) < 0.1]).toEqual([['audio'], true]);
  });

  test('media that needs a signature fails with MEDIA_NOT_DOWNLOADABLE; nothing is uploaded', async () => {
    const s3From = s3.requests.length;
    const { value: job, requests } = await upstream(() => async('download', { query: 'vid00000007', storage: STORAGE }));
    expect(requests).toEqual([WATCH('vid00000007')]);
    expect([job.status, job.error, job.deliveries, s3.requests.length - s3From]).toEqual([
      'faulted',
      { title: 'MEDIA_NOT_DOWNLOADABLE', status: 422, detail: 'Every matching video format needs a signature the player script computes; Gleaner does not run that script.' },
      undefined,
      0,
    ]);
  });

  test('without storage: 400 naming #/storage; there is no sync download', async () => {
    const a = await postJson(gw, '/v1/async/scrape/media/video/download', { query: 'vid00000001' });
    expect([a.status, a.body.title, a.body.errors]).toEqual([400, 'VALIDATION_ERROR', [{ pointer: '#/storage', detail: 'is required on this route: the downloaded file is uploaded to the bucket it names' }]]);
    const b = await postJson(gw, '/v1/async/scrape/batch/media/video/download', { query: ['vid00000001'], storage: null });
    expect([b.status, b.body.errors[0].pointer]).toEqual([400, '#/storage']);
    expect((await sync('download', { query: 'vid00000001' })).status).toBe(404);
  });
});

describe('a node without ffmpeg', () => {
  let bare: TestGateway;
  beforeAll(async () => {
    bare = await startGateway({ targets: simTargets(sim.origin), ffmpeg: '/nonexistent/ffmpeg' });
  });
  afterAll(async () => bare?.close());

  test('downloads are refused with a 501 naming what to install; /readyz says why; other routes work', async () => {
    const a = await postJson(bare, '/v1/async/scrape/media/video/download', { query: 'vid00000001', storage: STORAGE_OF_TEST });
    expect([a.status, a.body.title, a.body.detail]).toEqual([
      501, 'FFMPEG_NOT_AVAILABLE',
      'Media downloads need ffmpeg and ffprobe on the server: /nonexistent/ffmpeg was not found: install ffmpeg (Debian/Ubuntu: apt-get install ffmpeg) or set GLEANER_FFMPEG to the ffmpeg binary.',
    ]);
    const ready = await call(`${bare.url}/readyz`);
    expect([ready.status, ready.body.status, ready.body.ffmpeg, ready.body.ffmpeg_reason]).toEqual([
      200, 'ready', false,
      '/nonexistent/ffmpeg was not found: install ffmpeg (Debian/Ubuntu: apt-get install ffmpeg) or set GLEANER_FFMPEG to the ffmpeg binary; install ffmpeg (`apt-get install -y ffmpeg`) or point GLEANER_FFMPEG at an ffmpeg binary',
    ]);
    expect((await postJson(bare, '/v1/scrape/media/video/metadata', { query: 'vid00000001', output: ['json'] })).body.results[0].json.title).toBe('Trail Running Basics');
  });
});

const STORAGE_OF_TEST = { type: 's3', url: 's3://media/none/' };
