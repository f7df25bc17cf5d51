/**
 * Watch pages and subtitles: planner → simulator → parser, with exact JSON; restricted, private,
 * removed, live and bot-check pages; the transcript fallback; strange pages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSubtitles } from '../../core/targets/video/subtitles.js';
import { parseWatch } from '../../core/targets/video/watch.js';
import { closeFlowRunner } from '../helpers/flow-runner.js';
import { runRoute } from '../helpers/video.js';
import { startSimulator, type Simulator } from '../sites/server.js';
import { captchaPage, consentPage } from '../sites/video-walls.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(async () => {
  await closeFlowRunner();
  await sim.close();
});

const WATCH = (id: string) => `GET SIM/video/watch?v=${id}&hl=en&bpctr=9999999999&has_verified=1`;
const TRACK = (q: string) => `SIM/video/api/timedtext?v=vid00000001&caps=asr&xoaf=5&${q}&signature=simvid00000001`;

describe('media/video/metadata', () => {
  it('reads the player response and the initial data of a normal page', async () => {
    const run = await runRoute(sim, 'media/video/metadata', { query: 'vid00000001' });
    expect(run.requests).toEqual([WATCH('vid00000001')]);
    expect(run.status).toBe('parsed');
    expect(run.json).toEqual({
      id: 'vid00000001',
      title: 'Trail Running Basics',
      description: 'Gear list: {shoes, vest}; see you};\nMore at the channel.',
      webpage_url: 'SIM/video/watch?v=vid00000001',
      channel: 'Gleaner Outdoors',
      channel_id: 'UCGleanerOutdoors0000001',
      channel_url: 'SIM/video/channel/UCGleanerOutdoors0000001',
      uploader_id: '@gleaneroutdoors',
      uploader_url: 'SIM/video/@gleaneroutdoors',
      channel_follower_count: 12500,
      channel_is_verified: true,
      duration: 600,
      view_count: 123456,
      concurrent_view_count: null,
      like_count: 4321,
      comment_count: 87,
      upload_date: '2024-03-05T08:00:00-08:00',
      publish_date: '2024-03-05T08:00:00-08:00',
      categories: ['Sports'],
      tags: ['trail', 'running', 'basics'],
      thumbnails: [
        { url: 'https://img.example/vi/vid00000001/default.jpg', width: 120, height: 90 },
        { url: 'https://img.example/vi/vid00000001/hqdefault.jpg', width: 480, height: 360 },
      ],
      thumbnail: 'https://img.example/vi/vid00000001/hqdefault.jpg',
      chapters: [
        { title: 'Intro', start_time: 0, end_time: 120 },
        { title: 'Gear', start_time: 120, end_time: 420 },
        { title: 'On the trail', start_time: 420, end_time: 600 },
      ],
      live_status: 'not_live',
      live_start_time: null,
      live_end_time: null,
      availability: 'public',
      age_limit: 0,
      playability_status: 'OK',
      playability_reason: null,
      subtitles: {
        en: [{ name: 'English', url: TRACK('lang=en') }],
        de: [{ name: 'German', url: TRACK('lang=de') }],
      },
      automatic_captions: { en: [{ name: 'English (auto-generated)', url: TRACK('lang=en&kind=asr') }] },
    });
  });

  it('states the availability of age-restricted, private, removed and live pages', async () => {
    const pick = (j: unknown, keys: string[]) => Object.fromEntries(keys.map((k) => [k, (j as Record<string, unknown>)[k]]));
    const KEYS = ['id', 'title', 'duration', 'view_count', 'concurrent_view_count', 'live_status', 'availability', 'age_limit', 'playability_status', 'playability_reason'];
    const age = await runRoute(sim, 'media/video/metadata', { query: 'vid00000002' });
    expect([age.status, pick(age.json, KEYS)]).toEqual(['parsed', {
      id: 'vid00000002', title: 'Night Descent', duration: 600, view_count: 5000, concurrent_view_count: null, live_status: 'not_live',
      availability: 'needs_auth', age_limit: 18, playability_status: 'LOGIN_REQUIRED', playability_reason: 'Sign in to confirm your age',
    }]);
    const gone = { title: null, duration: null, view_count: null, concurrent_view_count: null, live_status: null, age_limit: 0 };
    const priv = await runRoute(sim, 'media/video/metadata', { query: 'vid00000003' });
    expect([priv.status, pick(priv.json, KEYS)]).toEqual(['parsed', { id: 'vid00000003', ...gone, availability: 'private', playability_status: 'LOGIN_REQUIRED', playability_reason: 'This video is private' }]);
    const removed = await runRoute(sim, 'media/video/metadata', { query: 'vid00000004' });
    expect([removed.status, pick(removed.json, KEYS)]).toEqual(['parsed', { id: 'vid00000004', ...gone, availability: 'unavailable', playability_status: 'ERROR', playability_reason: 'This video has been removed by the uploader' }]);
    const unknown = await runRoute(sim, 'media/video/metadata', { query: 'nosuchvideo' });
    expect([unknown.status, pick(unknown.json, KEYS)]).toEqual(['parsed', { id: 'nosuchvideo', ...gone, availability: 'unavailable', playability_status: 'ERROR', playability_reason: 'Video unavailable' }]);
    const live = await runRoute(sim, 'media/video/metadata', { query: 'vid00000005' });
    expect([live.status, pick(live.json, [...KEYS, 'live_start_time'])]).toEqual(['parsed', {
      id: 'vid00000005', title: 'Summit Live Cam', duration: null, view_count: 98765, concurrent_view_count: 1234, live_status: 'is_live',
      availability: 'public', age_limit: 0, playability_status: 'OK', playability_reason: null, live_start_time: '2025-01-10T14:00:00+00:00',
    }]);
  });

  it('calls the bot check blocked, so the farm tries another proxy', async () => {
    const bot = await runRoute(sim, 'media/video/metadata', { query: 'botcheck000' });
    expect(bot.status).toBe('blocked');
  });

  it('gives unrecognised for strange pages and never throws', () => {
    const input = (html: string) => ({ html, url: 'http://sim/video/watch?v=x', page: 1, params: { query: 'x' } });
    for (const html of ['', '<html><body>Consent</body></html>', 'var ytInitialData = {"broken": ', '{"nope":1}', 'var ytInitialPlayerResponse = [1,2];']) {
      expect(parseWatch(input(html))).toEqual({ json: null, status: 'unrecognised' });
    }
    expect(parseSubtitles(input('<html></html>'))).toEqual({ json: null, status: 'unrecognised' });
  });

  it('a wall on every attempt is retried, then returned and called blocked', async () => {
    const run = await runRoute(sim, 'media/video/metadata', { query: 'consent0000' });
    expect(run.requests).toEqual([WATCH('consent0000'), WATCH('consent0000'), WATCH('consent0000')]);
    expect([run.status, run.json]).toEqual(['blocked', null]);
    const subs = await runRoute(sim, 'media/video/subtitles', { query: 'consent0000', language_code: 'en' });
    expect([subs.requests.length, subs.status, subs.json]).toEqual([3, 'blocked', null]);
    const input = (html: string, url: string) => ({ html, url, page: 1, params: { query: 'x' } });
    expect(parseWatch(input(consentPage('http://sim/video', 'http://sim/video/watch?v=x'), 'http://sim/video/watch?v=x')).status).toBe('blocked');
    expect(parseWatch(input(captchaPage('http://sim/video/watch?v=x'), 'http://sim/video/sorry/index?continue=x')).status).toBe('blocked');
  });
});

describe('media/video/subtitles', () => {
  const SEGMENTS_EN = [
    { start_ms: 0, end_ms: 2500, text: 'Welcome to the trail.' },
    { start_ms: 2500, end_ms: 5500, text: 'Pack light, drink often.' },
    { start_ms: 5500, end_ms: 9500, text: 'See you at the summit.' },
  ];
  const TRANSCRIPT = 'POST SIM/video/youtubei/v1/get_transcript?prettyPrint=false';

  it('fetches the chosen track in json3 and returns its segments; the transcript panel is not asked', async () => {
    const run = await runRoute(sim, 'media/video/subtitles', { query: 'vid00000001', language_code: 'en' });
    expect(run.requests).toEqual([WATCH('vid00000001'), `GET ${TRACK('lang=en')}&fmt=json3`]);
    expect([run.status, run.json]).toEqual(['parsed', { video_id: 'vid00000001', language_code: 'en', name: 'English', origin: 'uploader_provided', source: 'track', segments: SEGMENTS_EN }]);
  });

  it('auto-generated tracks are the asr kind; their word segments join into lines', async () => {
    const run = await runRoute(sim, 'media/video/subtitles', { query: 'vid00000001', language_code: 'en', subtitle_origin: 'auto_generated' });
    expect(run.requests[1]).toBe(`GET ${TRACK('lang=en&kind=asr')}&fmt=json3`);
    expect(run.json).toEqual({
      video_id: 'vid00000001', language_code: 'en', name: 'English (auto-generated)', origin: 'auto_generated', source: 'track',
      segments: [{ start_ms: 0, end_ms: 2400, text: 'welcome to the trail' }, { start_ms: 2600, end_ms: 5700, text: 'pack light drink often' }],
    });
  });

  it('matches a regional code to the base language', async () => {
    const run = await runRoute(sim, 'media/video/subtitles', { query: 'vid00000001', language_code: 'de-DE' });
    expect(run.json).toEqual({
      video_id: 'vid00000001', language_code: 'de', name: 'German', origin: 'uploader_provided', source: 'track',
      segments: [{ start_ms: 0, end_ms: 2500, text: 'Willkommen auf dem Pfad.' }, { start_ms: 2500, end_ms: 9500, text: 'Bis zum Gipfel.' }],
    });
  });

  it('falls back to the transcript panel when the track URL is refused', async () => {
    const run = await runRoute(sim, 'media/video/subtitles', { query: 'vid00000006', language_code: 'en' });
    expect(run.requests).toEqual([WATCH('vid00000006'), 'GET SIM/video/api/timedtext?v=vid00000006&caps=asr&xoaf=5&lang=en&exp=xpe&signature=simvid00000006&fmt=json3', TRANSCRIPT]);
    expect([run.status, run.json]).toEqual(['parsed', { video_id: 'vid00000006', language_code: 'en', name: 'English', origin: 'uploader_provided', source: 'transcript', segments: SEGMENTS_EN }]);
  });

  it('no matching track is an empty result, not an error, and fetches nothing more', async () => {
    const fr = await runRoute(sim, 'media/video/subtitles', { query: 'vid00000001', language_code: 'fr' });
    expect(fr.requests).toEqual([WATCH('vid00000001')]);
    expect([fr.status, fr.json]).toEqual(['parsed', { video_id: 'vid00000001', language_code: 'fr', name: null, origin: null, source: null, segments: [] }]);
    const age = await runRoute(sim, 'media/video/subtitles', { query: 'vid00000002', language_code: 'en', subtitle_origin: 'auto_generated' });
    expect(age.json).toEqual({ video_id: 'vid00000002', language_code: 'en', name: null, origin: 'auto_generated', source: null, segments: [] });
  });
});
