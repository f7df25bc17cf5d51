/**
 * Search (with `sp` filters and continuations), channel (limit, continuations, About panel),
 * autocomplete and trainability: planner → simulator → parser, and strange pages.
 */
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseChannel } from '../../core/targets/video/channel.js';
import { OUTPUT_SCHEMAS } from '../../core/targets/video/schemas.js';
import { parseSearch } from '../../core/targets/video/search.js';
import { parseAutocomplete, parseTrainability } from '../../core/targets/video/suggest.js';
import { closeFlowRunner } from '../helpers/flow-runner.js';
import { runRoute } from '../helpers/video.js';
import { channelPage, SHORTS, STREAMS } from '../sites/video-channel.js';
import { CHANNEL_ID } from '../sites/video-data.js';
import { CHANNEL_PAGE, filtered, shortIds, token } from '../sites/video-lists.js';
import { startSimulator, type Simulator } from '../sites/server.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(async () => {
  await closeFlowRunner();
  await sim.close();
});

interface Item {
  id: string;
  position: number;
  duration?: number | null;
  view_count?: number | null;
  is_live?: boolean;
}
type J = Record<string, unknown> & { videos: Item[]; shorts: Item[]; channels: Item[]; playlists: Item[] };
const ids = (list: { id: string }[]) => list.map((x) => x.id);

describe('media/video/search', () => {
  it('reads the results page: videos, a shorts shelf, channels and playlists with one running position', async () => {
    const run = await runRoute(sim, 'media/video/search', { query: 'trail' });
    expect(run.requests).toEqual(['GET SIM/video/results?search_query=trail&hl=en']);
    expect(run.status).toBe('parsed');
    const j = run.json as J;
    const first20 = filtered('trail', null).slice(0, 20);
    expect(ids(j.videos)).toEqual(first20.filter((h) => h.kind === 'video').map((h) => h.id));
    expect(ids(j.channels)).toEqual(first20.filter((h) => h.kind === 'channel').map((h) => h.id));
    expect(ids(j.playlists)).toEqual(first20.filter((h) => h.kind === 'playlist').map((h) => h.id));
    expect(ids(j.shorts)).toEqual(shortIds('trail'));
    expect(j.videos[0]).toEqual({
      position: 1, id: 's0001wu0283', title: 'trail result 1', url: 'SIM/video/watch?v=s0001wu0283', channel: 'Gleaner Outdoors',
      channel_id: 'UCGleanerOutdoors0000001', channel_url: 'SIM/video/@gleaneroutdoors', duration: 900, view_count: 511043,
      published_text: '3 months ago', description: 'Snippet of trail result 1', thumbnail: 'https://img.example/vi/s0001wu0283/hqdefault.jpg', is_live: false, badges: ['CC'],
    });
    expect(j.shorts[0]).toEqual({ position: 6, id: shortIds('trail')[0], title: 'trail short 1', url: `SIM/video/shorts/${shortIds('trail')[0]}`, view_count: 1200, thumbnail: `https://img.example/vi/${shortIds('trail')[0]}/frame0.jpg` });
    expect(j.channels[0]).toEqual({ position: 3, id: 'UCwu02830000000000000003', title: 'trail result 3', url: 'SIM/video/@chan3', handle: '@chan3', channel_follower_count: 3500, video_count: null, description: 'About trail result 3', thumbnail: 'https://img.example/vi/UCwu02830000000000000003/hqdefault.jpg' });
    expect(j.playlists[0]).toEqual({ position: 11, id: 'PLwu028300000007', title: 'trail result 7', url: 'SIM/video/playlist?list=PLwu028300000007', channel: 'Gleaner Outdoors', channel_id: 'UCGleanerOutdoors0000001', video_count: 7, thumbnail: 'https://img.example/pl/PLwu028300000007.jpg' });
    const { videos, shorts, channels, playlists, ...rest } = j;
    expect(rest).toEqual({ query: 'trail', result_count: 300000, corrected_query: null, did_you_mean: null, refinements: ['trail tutorial', 'trail for beginners'], continuation: token('search', 'trail', '', 20) });
    expect([...videos, ...shorts, ...channels, ...playlists].map((x) => x.position).sort((a, b) => a - b)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
  });

  it('the simulator answers the sp filter the planner builds: type, duration, features and order', async () => {
    const run = await runRoute(sim, 'media/video/search', { query: 'trail', type: 'videos', duration: '<4', sort_by: 'view_count' });
    expect(run.requests).toEqual(['GET SIM/video/results?search_query=trail&sp=CAMSBBABGAE%3D&hl=en']);
    const j = run.json as J;
    expect(ids(j.videos)).toEqual(filtered('trail', 'CAMSBBABGAE=').slice(0, 20).map((h) => h.id));
    expect(j.videos.every((v) => (v.duration ?? 0) < 240)).toBe(true);
    expect(j.videos.map((v) => v.view_count)).toEqual([...j.videos.map((v) => v.view_count)].sort((a, b) => (b ?? 0) - (a ?? 0)));
    expect([j.shorts, j.channels, j.playlists]).toEqual([[], [], []]);
    const live = (await runRoute(sim, 'media/video/search', { query: 'trail', live: true })).json as J;
    expect(live.videos.length).toBe(filtered('trail', 'EgJAAQ==').length);
    expect(live.videos.every((v) => v.is_live && v.duration === null && v.view_count === null)).toBe(true);
    const channels = (await runRoute(sim, 'media/video/search', { query: 'trail', type: 'channels' })).json as J;
    expect([channels.videos.length, channels.channels.length]).toEqual([0, 12]);
  });

  it('reports a corrected spelling', async () => {
    const j = (await runRoute(sim, 'media/video/search', { query: 'trail runing' })).json as J;
    expect([j.query, j.corrected_query, j.videos[0]?.id]).toEqual(['trail runing', 'trail running', filtered('trail running', null)[0]?.id]);
  });

  it('search/max follows continuations to the end of the results', async () => {
    const run = await runRoute(sim, 'media/video/search/max', { query: 'trail' });
    expect(run.requests.length).toBe(15);
    expect(run.requests.slice(1).every((r) => r === 'POST SIM/video/youtubei/v1/search?prettyPrint=false')).toBe(true);
    const j = run.json as J;
    const all = filtered('trail', null);
    expect(ids(j.videos)).toEqual(all.filter((h) => h.kind === 'video').map((h) => h.id));
    expect([j.videos.length + j.channels.length + j.playlists.length, j.shorts.length, j.continuation]).toEqual([300, 4, null]);
    expect(j.videos[j.videos.length - 1]?.position).toBe(304);
  });

  it('strange bodies are unrecognised, an empty result set is parsed', () => {
    const input = (html: string) => ({ html, url: 'http://sim/video/results?search_query=x', page: 1, params: { query: 'x' } });
    for (const html of ['', '<html></html>', '{"contents":{}}', 'var ytInitialData = {"contents": {"twoColumnBrowseResultsRenderer": {}}};']) {
      expect(parseSearch(input(html))).toEqual({ json: null, status: 'unrecognised' });
    }
    const empty = parseSearch(input('var ytInitialData = {"contents":{"twoColumnSearchResultsRenderer":{"primaryContents":{"sectionListRenderer":{"contents":[]}}}}};'));
    expect(empty.status).toBe('parsed');
    expect((empty.json as J).videos).toEqual([]);
  });
});

describe('media/video/channel', () => {
  it('reads header, About panel and videos up to the limit through browse continuations', async () => {
    const run = await runRoute(sim, 'media/video/channel', { query: 'UCGleanerOutdoors0000001', limit: 45 });
    expect(run.requests).toEqual([
      'GET SIM/video/channel/UCGleanerOutdoors0000001/videos?hl=en',
      'POST SIM/video/youtubei/v1/browse?prettyPrint=false',
      'POST SIM/video/youtubei/v1/browse?prettyPrint=false',
    ]);
    const { videos, ...facts } = run.json as J;
    expect(run.status).toBe('parsed');
    expect(facts).toEqual({
      channel_id: 'UCGleanerOutdoors0000001', title: 'Gleaner Outdoors', handle: '@gleaneroutdoors', url: 'SIM/video/channel/UCGleanerOutdoors0000001',
      description: 'Trail films every week.\nNew videos on Fridays.', channel_follower_count: 12500, video_count: 75, tags: ['trail', 'running', 'trail films'],
      avatar: 'https://img.example/avatar/s900.jpg', is_verified: true, tab: 'videos', continuation: token('chan', 'UCGleanerOutdoors0000001', 'videos', 60),
      view_count: 1234567, joined_date: '2013-07-09', joined_date_text: 'Joined Jul 9, 2013', country: 'Switzerland',
      links: [{ title: 'Shop', url: 'https://shop.gleaner.example/' }, { title: 'Blog', url: 'https://blog.gleaner.example/trails' }],
    });
    expect(videos.length).toBe(45);
    expect(videos[44]).toEqual({ position: 45, id: 'ch000000045', type: 'video', title: 'Channel video 45', url: 'SIM/video/watch?v=ch000000045', duration: 375, view_count: 4545, published_text: '45 days ago', thumbnail: 'https://img.example/vi/ch000000045/hqdefault.jpg', is_live: false });
  });

  it('a handle addresses the channel; no limit reads the first page only', async () => {
    const run = await runRoute(sim, 'media/video/channel', { query: '@gleaneroutdoors' });
    expect(run.requests).toEqual(['GET SIM/video/@gleaneroutdoors/videos?hl=en', 'POST SIM/video/youtubei/v1/browse?prettyPrint=false']);
    expect((run.json as J).videos.length).toBe(CHANNEL_PAGE);
    const all = await runRoute(sim, 'media/video/channel', { query: '@gleaneroutdoors', limit: 1000 });
    expect([all.requests.length, (all.json as J).videos.length, (all.json as J).continuation]).toEqual([4, 75, null]);
  });

  it('a captcha on the search or channel page is retried on the next attempt; one on every attempt is blocked', async () => {
    const once = await runRoute(sim, 'media/video/search', { query: 'trail __captcha1__' });
    const results = 'GET SIM/video/results?search_query=trail%20__captcha1__&hl=en';
    const sorry = `GET SIM/video/sorry/index?continue=${encodeURIComponent(`SIM/video/results?search_query=trail%20__captcha1__&hl=en`).replace('SIM', encodeURIComponent(sim.origin))}`;
    expect(once.requests).toEqual([results, sorry, results]);
    expect(once.status).toBe('parsed');
    const always = await runRoute(sim, 'media/video/search/max', { query: 'x __captcha__' });
    expect([always.requests.length, always.status, always.json]).toEqual([6, 'blocked', null]);
    const channel = await runRoute(sim, 'media/video/channel', { query: '@captcha', limit: 40 });
    expect([channel.requests, channel.status]).toEqual([Array(3).fill('GET SIM/video/@captcha/videos?hl=en'), 'blocked']);
  });

  it('an unknown channel and strange bodies are unrecognised', async () => {
    expect((await runRoute(sim, 'media/video/channel', { query: '@nobody' })).status).toBe('unrecognised');
    for (const html of ['', '[]', '<p>x</p>']) expect(parseChannel({ html, url: 'http://sim/video/@x', page: 1, params: {} })).toEqual({ json: null, status: 'unrecognised' });
  });
});

describe('media/video/autocomplete and trainability', () => {
  it('reads suggestions from the JSONP answer, in the language asked for', async () => {
    const run = await runRoute(sim, 'media/video/autocomplete', { query: 'trail', language: 'de' });
    expect(run.requests).toEqual(['GET SIM/video-suggest/complete/search?client=youtube&ds=yt&q=trail&hl=de']);
    expect([run.status, run.json]).toEqual(['parsed', { query: 'trail', suggestions: ['trail', 'trail anleitung', 'trail schuhe', 'trail für anfänger'] }]);
  });

  it('reads the xhr=t JSON form and guarded answers; strange bodies are unrecognised', () => {
    const input = (html: string) => ({ html, url: 'http://sim/complete/search', page: 1, params: { query: 'he' } });
    expect(parseAutocomplete(input('["he",[["hello",0,[512]],["help",0,[512,433]]],{"k":1}]')).json).toEqual({ query: 'he', suggestions: ['hello', 'help'] });
    expect(parseAutocomplete(input(")]}'\n[\"he\",[[\"hey\",0]]]")).json).toEqual({ query: 'he', suggestions: ['hey'] });
    for (const html of ['', 'window.google.ac.h(', '{"a":1}', '<html></html>']) expect(parseAutocomplete(input(html))).toEqual({ json: null, status: 'unrecognised' });
  });

  it('passes the trainability resource through', async () => {
    const all = await runRoute(sim, 'media/video/video/trainability', { query: 'vid00000001' });
    expect(all.requests).toEqual(['GET SIM/video-api/v3/videoTrainability?id=vid00000001']);
    expect([all.status, all.json]).toEqual(['parsed', { video_id: 'vid00000001', permitted: ['all'], etag: 'etag-vid00000001' }]);
    expect((await runRoute(sim, 'media/video/video/trainability', { query: 'vid00000002' })).json).toEqual({ video_id: 'vid00000002', permitted: ['none'], etag: 'etag-vid00000002' });
    expect((await runRoute(sim, 'media/video/video/trainability', { query: 'vid00000005' })).json).toEqual({ video_id: 'vid00000005', permitted: ['party-a', 'party-b'], etag: 'etag-vid00000005' });
    expect((await runRoute(sim, 'media/video/video/trainability', { query: 'zzz' })).status).toBe('unrecognised');
    expect(parseTrainability({ html: '{"permitted":"all"}', url: 'x', page: 1, params: {} }).status).toBe('unrecognised');
  });
});

describe('channel tabs and output schemas', () => {
  it('reads the shorts and streams tabs', () => {
    const site = 'http://sim/video';
    const shorts = parseChannel({ html: channelPage('@gleaneroutdoors', 'shorts', site) as string, url: `${site}/@gleaneroutdoors/shorts`, page: 1, params: {} });
    const sj = shorts.json as J & { tab: string; videos: (Item & { type: string; title: string })[] };
    expect([sj.tab, sj.videos.length, sj.videos[0]]).toEqual(['shorts', SHORTS, { position: 1, id: 'cs000000001', type: 'short', title: 'Channel short 1', url: `${site}/shorts/cs000000001`, duration: null, view_count: 1000, published_text: null, thumbnail: null, is_live: false }]);
    const streams = parseChannel({ html: channelPage(CHANNEL_ID, 'streams', site) as string, url: `${site}/channel/${CHANNEL_ID}/streams`, page: 1, params: {} });
    const tj = streams.json as J & { tab: string; videos: (Item & { published_text: string })[] };
    expect([tj.tab, tj.videos.length, tj.videos[1]?.duration, tj.videos[1]?.published_text]).toEqual(['streams', STREAMS, 3602, 'Streamed 2 weeks ago']);
    const home = parseChannel({ html: channelPage(CHANNEL_ID, 'featured', site) as string, url: `${site}/channel/${CHANNEL_ID}`, page: 1, params: {} });
    expect(ids((home.json as J).videos)).toEqual(['vid00000001']);
  });

  it('every route answers JSON its output schema accepts', async () => {
    const ajv = new Ajv({ allErrors: true, strict: false });
    const runs: [string, Record<string, unknown>][] = [
      ['media/video/metadata', { query: 'vid00000001' }], ['media/video/metadata', { query: 'vid00000003' }], ['media/video/metadata', { query: 'vid00000005' }],
      ['media/video/subtitles', { query: 'vid00000006', language_code: 'en' }], ['media/video/subtitles', { query: 'vid00000001', language_code: 'fr' }],
      ['media/video/search', { query: 'trail' }], ['media/video/search/max', { query: 'trail', type: 'playlists' }],
      ['media/video/channel', { query: CHANNEL_ID, limit: 31 }], ['media/video/autocomplete', { query: 'trail' }], ['media/video/video/trainability', { query: 'vid00000005' }],
    ];
    for (const [id, params] of runs) {
      const validate = ajv.compile(OUTPUT_SCHEMAS[id] as object);
      const run = await runRoute(sim, id, params);
      expect([id, params, validate(run.json), validate.errors ?? null]).toEqual([id, params, true, null]);
    }
  });
});
