/** Video flows: the exact upstream requests of every route, hosts from GLEANER_TARGETS, follow-ups and readers. */
import { describe, expect, it } from 'vitest';
import { routeById } from '../../core/registry/index.js';
import type { FetchStep, Flow, MediaStep, Reader } from '../../core/targets/flow.js';
import { aboutToken, channelPath, DEFAULT_CLIENT_VERSION, planVideo } from '../../core/targets/video/plan.js';
import { channelContinuation, channelPage } from '../sites/video-channel.js';
import { CHANNEL_ID, CLIENT_VERSION } from '../sites/video-data.js';
import { searchContinuation, searchPage, token } from '../sites/video-lists.js';
import { wallOf } from '../../core/targets/video/wall.js';
import { captchaPage, consentPage } from '../sites/video-walls.js';
import { json3, watchPage } from '../sites/video-watch.js';

const SIM = 'http://127.0.0.1:8090';
const ALL = { video: { baseUrl: `${SIM}/video` }, video_api: { baseUrl: `${SIM}/video-api` }, video_suggest: { baseUrl: `${SIM}/video-suggest/` } };
const ONLY_VIDEO = { video: { baseUrl: `${SIM}/video` } };
const SITE = { cookie: 'SOCS=CAI' };
const API_HEADERS = { ...SITE, 'content-type': 'application/json', 'x-youtube-client-name': '1', 'x-youtube-client-version': '{{client_version}}' };
const fn = { from: 'fn', read: expect.any(Function) };

function plan(id: string, params: Record<string, unknown>, targets: Record<string, { baseUrl: string }> = ALL): Flow[] {
  const route = routeById(id);
  if (!route) throw new Error(`no route ${id}`);
  return planVideo(route, params, targets);
}
const step = (flow: Flow | undefined, i = 0) => flow?.steps[i] as FetchStep;
/** A `fn` reader applied to a body. */
const readWith = (r: Reader | undefined, body: string) => (r?.from === 'fn' ? r.read(body, {}) : undefined);

describe('video planning', () => {
  it('metadata fetches the watch page with the country asked for; download adds the media step', () => {
    const want = (url: string) => [{ page: 1, steps: [{ kind: 'fetch', name: 'page', url, headers: SITE }], check: expect.any(Function) }];
    expect(plan('media/video/metadata', { query: 'vid00000001' })).toEqual(want(`${SIM}/video/watch?v=vid00000001&hl=en&bpctr=9999999999&has_verified=1`));
    expect(plan('media/video/metadata', { query: 'a&b', location: 'de' })).toEqual(want(`${SIM}/video/watch?v=a%26b&hl=en&gl=DE&bpctr=9999999999&has_verified=1`));
    expect(plan('media/video/download', { query: 'vid00000001', output: 'audio', start_at: '00:00:02', end_at: '00:01:05' })).toEqual([
      {
        page: 1,
        steps: [
          { kind: 'fetch', name: 'page', url: `${SIM}/video/watch?v=vid00000001&hl=en&bpctr=9999999999&has_verified=1`, headers: SITE },
          { kind: 'media', name: 'media', output: 'audio', range: { start: 2, end: 65 }, choose: expect.any(Function) },
        ],
        check: expect.any(Function),
      },
    ]);
    expect((plan('media/video/download', { query: 'v', output: ['html'] })[0]?.steps[1] as MediaStep)).toMatchObject({ output: 'video', range: { start: 0 } });
  });

  it('every page flow retries the platform walls, then returns them (a download fails)', () => {
    const page = (url: string, body: string, status = 200) => ({ url, status, body, headers: {} });
    const consent = consentPage(`${SIM}/video`, `${SIM}/video/watch?v=x`);
    const captcha = captchaPage(`${SIM}/video/results?search_query=x`);
    const bot = watchPage('botcheck000', `${SIM}/video`, []);
    const verdict = (wall: string, lastResort: string) => ({ ok: false, retry: true, code: 'REQUEST_FAILED_AFTER_MANY_RETRIES', message: expect.stringContaining('instead of the page'), data: { wall }, lastResort, ...(lastResort === 'return' ? { uncharged: true } : {}), wall: true });
    for (const id of ['media/video/metadata', 'media/video/subtitles', 'media/video/channel', 'media/video/search', 'media/video/search/max']) {
      const [flow] = plan(id, { query: 'vid00000001', json: { prompt: 'p' } });
      expect(flow?.check?.(page(`${SIM}/video/watch?v=x`, consent), {}), id).toEqual(verdict('consent', 'return'));
      expect(flow?.check?.(page(`${SIM}/video/sorry/index?continue=x`, captcha, 429), {}), id).toEqual(verdict('captcha', 'return'));
      expect(flow?.check?.(page(`${SIM}/video/watch?v=botcheck000`, bot), {}), id).toEqual(verdict('bot_check', 'return'));
      expect(flow?.check?.(page(`${SIM}/video/watch?v=vid00000001`, watchPage('vid00000001', `${SIM}/video`, [])), {}), id).toEqual({ ok: true });
    }
    const [download] = plan('media/video/download', { query: 'x' });
    expect(download?.check?.(page(`${SIM}/video/watch?v=x`, consent), {})).toEqual(verdict('consent', 'fail'));
    // API answers (continuations, transcript) are JSON and never a wall.
    expect(wallOf('{"responseContext":{}}', `${SIM}/video/youtubei/v1/browse`)).toBeUndefined();
    expect(wallOf('<html>consent</html>', 'https://consent.example/m?continue=x')).toBe('consent');
  });

  it('search builds sp from the filters; search/max adds continuations of the internal search call', () => {
    expect(plan('media/video/search', { query: 'trail running', type: 'videos', hd: true, sort_by: 'view_count' })).toEqual([
      { page: 1, steps: [{ kind: 'fetch', name: 'page', url: `${SIM}/video/results?search_query=trail%20running&sp=CAMSBBABIAE%3D&hl=en`, headers: SITE }], check: expect.any(Function) },
    ]);
    expect(plan('media/video/search', { query: 'q', sort_by: 'relevance', '4k': false })).toEqual([
      { page: 1, steps: [{ kind: 'fetch', name: 'page', url: `${SIM}/video/results?search_query=q&hl=en`, headers: SITE }], check: expect.any(Function) },
    ]);
    const [max] = plan('media/video/search/max', { query: 'trail', location: 'US' });
    expect(max).toEqual({
      page: 1,
      check: expect.any(Function),
      steps: [{ kind: 'fetch', name: 'page', url: `${SIM}/video/results?search_query=trail&hl=en&gl=US`, headers: SITE, read: { client_version: fn }, more: { max: 35, next: expect.any(Function) } }],
    });
    const next = step(max).more!.next;
    const page1 = searchPage('trail', null);
    expect(next(page1, 0, { client_version: CLIENT_VERSION }, [])).toEqual({
      method: 'POST',
      url: `${SIM}/video/youtubei/v1/search?prettyPrint=false`,
      headers: { ...SITE, 'content-type': 'application/json', 'x-youtube-client-name': '1', 'x-youtube-client-version': CLIENT_VERSION },
      body: JSON.stringify({ context: { client: { clientName: 'WEB', clientVersion: CLIENT_VERSION, hl: 'en', gl: 'US' } }, continuation: token('search', 'trail', '', 20) }),
    });
    expect(JSON.parse(next(searchContinuation('trail', '', 260), 12, {}, [])?.body ?? '{}').context.client.clientVersion).toBe(DEFAULT_CLIENT_VERSION);
    expect(next(searchContinuation('trail', '', 280), 14, {}, [])).toBeUndefined(); // the last page has no token
    expect(readWith(step(max).read?.client_version, page1)).toBe(CLIENT_VERSION);
  });

  it('channel: the videos tab, browse continuations until the limit (the page\'s cards plus those gathered), then the About panel', () => {
    expect(channelPath(CHANNEL_ID)).toBe(`/channel/${CHANNEL_ID}`);
    expect(channelPath('@gleaneroutdoors')).toBe('/@gleaneroutdoors');
    expect(channelPath('Old Name')).toBe('/c/Old%20Name');
    const [flow] = plan('media/video/channel', { query: CHANNEL_ID, limit: 45 });
    expect(flow).toEqual({
      page: 1,
      steps: [
        { kind: 'fetch', name: 'page', page: true, url: `${SIM}/video/channel/${CHANNEL_ID}/videos?hl=en`, headers: SITE, read: { client_version: fn, about_token: fn, page_cards: fn }, more: { max: 3, next: expect.any(Function) } },
        {
          kind: 'fetch', name: 'about', optional: true, keep: true, method: 'POST', url: `${SIM}/video/youtubei/v1/browse?prettyPrint=false`, headers: API_HEADERS,
          body: '{"context":{"client":{"clientName":"WEB","clientVersion":"{{client_version}}","hl":"en"}},"continuation":"{{about_token}}"}',
        },
      ],
      check: expect.any(Function),
    });
    const next = step(flow).more!.next;
    const page = channelPage(CHANNEL_ID, 'videos', `${SIM}/video`) as string;
    expect(readWith(step(flow).read?.page_cards, page)).toBe('30');
    const vars = { client_version: 'v1', page_cards: '30' };
    expect(JSON.parse(next(page, 0, vars, [])?.body ?? '{}')).toEqual({ context: { client: { clientName: 'WEB', clientVersion: 'v1', hl: 'en' } }, continuation: token('chan', CHANNEL_ID, 'videos', 30) });
    // 30 on the page + 30 gathered reach the limit of 45: no third request.
    const second = channelContinuation(30);
    expect(next(second, 1, vars, [second])).toBeUndefined();
    // Nothing gathered yet (a retried attempt starts again): the page's 30 are below 45.
    expect(next(page, 0, vars, [])).toBeDefined();
    expect(aboutToken(page)).toBe(token('about', CHANNEL_ID));
    const [small] = plan('media/video/channel', { query: '@gleaneroutdoors', limit: 10 });
    expect(step(small).more!.next(page, 0, vars, [])).toBeUndefined();
  });

  it('subtitles: the watch page, the chosen track (a URL read from the page), the transcript panel only when the track gave nothing', () => {
    const [flow] = plan('media/video/subtitles', { query: 'vid00000001', language_code: 'en', subtitle_origin: 'auto_generated' });
    expect(flow).toEqual({
      page: 1,
      steps: [
        { kind: 'fetch', name: 'watch', page: true, url: `${SIM}/video/watch?v=vid00000001&hl=en&bpctr=9999999999&has_verified=1`, headers: SITE, read: { client_version: fn, track_url: fn, transcript_params: fn } },
        { kind: 'fetch', name: 'track', optional: true, keep: true, url: expect.any(Function), headers: SITE, when: expect.any(Function), read: { track_segments: fn } },
        {
          kind: 'fetch', name: 'transcript', optional: true, keep: true, method: 'POST', url: `${SIM}/video/youtubei/v1/get_transcript?prettyPrint=false`, headers: API_HEADERS,
          body: '{"context":{"client":{"clientName":"WEB","clientVersion":"{{client_version}}","hl":"en"}},"params":"{{transcript_params}}"}',
          when: expect.any(Function),
        },
      ],
      check: expect.any(Function),
    });
    const [watch, track, transcript] = flow!.steps as FetchStep[];
    const page = watchPage('vid00000001', `${SIM}/video`, []);
    const trackUrl = `${SIM}/video/api/timedtext?v=vid00000001&caps=asr&xoaf=5&lang=en&kind=asr&signature=simvid00000001&fmt=json3`;
    expect(readWith(watch!.read?.track_url, page)).toBe(trackUrl);
    expect((track!.url as (v: Record<string, string>) => string)({ track_url: trackUrl })).toBe(trackUrl);
    expect([track!.when!({ track_url: trackUrl }), track!.when!({})]).toEqual([true, false]);
    expect(readWith(track!.read?.track_segments, json3('vid00000001', 'en', 'asr') as string)).toBe('1');
    expect(readWith(track!.read?.track_segments, '<html>Forbidden</html>')).toBeUndefined();
    const params = readWith(watch!.read?.transcript_params, page);
    // {1: id, 2: urlencode(base64({1: "asr", 2: "en", 3: ""})), 3: 1, 5: panel, 6: 1, 7: 1, 8: 1}
    expect(params).toBe('Cgt2aWQwMDAwMDAwMRISQ2dOaGMzSVNBbVZ1R2dBJTNEGAEqM2VuZ2FnZW1lbnQtcGFuZWwtc2VhcmNoYWJsZS10cmFuc2NyaXB0LXNlYXJjaC1wYW5lbDABOAFAAQ==');
    // The fallback runs only when the track gave no segments and the page has the panel.
    expect([transcript!.when!({ transcript_params: 'p', track_segments: '1' }), transcript!.when!({ transcript_params: 'p' }), transcript!.when!({})]).toEqual([false, true, false]);
    const [none] = plan('media/video/subtitles', { query: 'vid00000001', language_code: 'fr' });
    expect(readWith(step(none).read?.track_url, page)).toBeUndefined();
    expect(readWith(step(none).read?.transcript_params, page)).toBeUndefined();
  });

  it('autocomplete uses the suggest host and trainability the data API host, each falling back to video', () => {
    expect(plan('media/video/autocomplete', { query: 'trail', language: 'de', location: 'ch' })).toEqual([
      { page: 1, steps: [{ kind: 'fetch', name: 'page', url: `${SIM}/video-suggest/complete/search?client=youtube&ds=yt&q=trail&hl=de&gl=CH` }] },
    ]);
    expect(plan('media/video/video/trainability', { query: 'vid00000001' })).toEqual([
      { page: 1, steps: [{ kind: 'fetch', name: 'page', url: `${SIM}/video-api/v3/videoTrainability?id=vid00000001` }] },
    ]);
    expect(step(plan('media/video/autocomplete', { query: 'q' }, ONLY_VIDEO)[0]).url).toBe(`${SIM}/video/complete/search?client=youtube&ds=yt&q=q&hl=en`);
    expect(step(plan('media/video/video/trainability', { query: 'x' }, ONLY_VIDEO)[0]).url).toBe(`${SIM}/video/v3/videoTrainability?id=x`);
  });

  it('without a video host the request fails with a problem naming GLEANER_TARGETS', () => {
    expect(() => plan('media/video/metadata', { query: 'x' }, {})).toThrow(/GLEANER_TARGETS/);
  });
});
