/**
 * Video pages from before the initial data was embedded, planner → simulator → parser
 * (test/sites/video-legacy.ts): the server-rendered results page and `ytplayer.config` watch
 * pages of 2019 (player response as a JSON string) and 2017 (flat args, meta tags). Exact JSON.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSearch } from '../../core/targets/video/search.js';
import { closeFlowRunner } from '../helpers/flow-runner.js';
import { runRoute } from '../helpers/video.js';
import { startSimulator, type Simulator } from '../sites/server.js';
import { CHANNEL_ID, CHANNEL_NAME, VIDEOS } from '../sites/video-data.js';
import { tileHits, tilesPage } from '../sites/video-legacy.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(async () => {
  await closeFlowRunner();
  await sim.close();
});

type J = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('server-rendered results page (yt-lockup tiles)', () => {
  const q = 'trail __tiles__';

  it('videos, channel and playlist tiles in page order; shelf repeats listed at their own place; the promoted tile is left out', async () => {
    const run = await runRoute(sim, 'media/video/search', { query: q });
    const json = run.json as J;
    const list = tileHits(q);
    // The page's tile order: hits 1-3, the shelf repeating the first two videos, hits 4-10.
    const shelf = list.filter((h) => h.kind === 'video').slice(0, 2);
    const tiles = [...list.slice(0, 3), ...shelf, ...list.slice(3)];
    const videos = tiles.map((h, i) => ({ h, position: i + 1 })).filter(({ h }) => h.kind === 'video');
    expect(run.status).toBe('parsed');
    expect(json.videos).toEqual(
      videos.map(({ h, position }) => ({
        position,
        id: h.id,
        title: h.title,
        url: `SIM/video/watch?v=${h.id}`,
        channel: CHANNEL_NAME,
        channel_id: CHANNEL_ID,
        channel_url: `SIM/video/channel/${CHANNEL_ID}`,
        duration: h.duration,
        view_count: h.views,
        published_text: `${Math.floor(h.ageHours / 24) + 1} days ago`,
        description: `Snippet of ${h.title}`,
        thumbnail: `https://img.example/vi/${h.id}/hqdefault.jpg`,
        is_live: false,
        badges: h.features.has('4k') ? ['4K'] : [],
      })),
    );
    const channel = list.find((h) => h.kind === 'channel')!;
    const playlist = list.find((h) => h.kind === 'playlist')!;
    expect(json.channels).toEqual([
      { position: tiles.indexOf(channel) + 1, id: channel.id, title: channel.title, url: `SIM/video/channel/${channel.id}`, handle: null, channel_follower_count: channel.n * 100, video_count: channel.n, description: null, thumbnail: `https://img.example/ch/${channel.id}.jpg` },
    ]);
    expect(json.playlists).toEqual([
      { position: tiles.indexOf(playlist) + 1, id: playlist.id, title: playlist.title, url: `SIM/video/playlist?list=${playlist.id}`, channel: CHANNEL_NAME, channel_id: CHANNEL_ID, video_count: playlist.n, thumbnail: `https://img.example/pl/${playlist.id}.jpg` },
    ]);
    expect([json.query, json.shorts, json.continuation]).toEqual([q, [], null]);
  });

  it('tiles that lost their video ids make the page partial, naming videos', () => {
    const html = tilesPage(q).replace(/ data-context-item-id="[^"]*"/g, '').replace(/href="\/watch\?v=[^"]*"/g, 'href="#"');
    expect(parseSearch({ html, url: 'https://video.example/results?search_query=x', page: 1, params: {} })).toMatchObject({ status: 'partial', missing: ['videos'] });
  });
});

describe('ytplayer.config watch pages', () => {
  const v = VIDEOS.vid00000001!;
  const common = (id: string) => ({
    id,
    title: v.title,
    description: v.description,
    channel: CHANNEL_NAME,
    channel_id: CHANNEL_ID,
    duration: v.length,
    view_count: v.views,
    upload_date: v.date.slice(0, 10),
    categories: [v.category],
    tags: v.keywords,
    live_status: 'not_live',
    availability: 'public',
  });
  const pick = (j: J) => Object.fromEntries(Object.keys(common('')).map((k) => [k, j[k]]));

  it('2019: the player response is the JSON string in args.player_response', async () => {
    const run = await runRoute(sim, 'media/video/metadata', { query: 'old20190001' });
    expect([run.status, pick(run.json as J)]).toEqual(['parsed', common('old20190001')]);
  });

  it('2017: flat args, meta itemprop date/category and #eow-description fill the player-response shape', async () => {
    const run = await runRoute(sim, 'media/video/metadata', { query: 'old20170001' });
    const json = run.json as J;
    expect([run.status, pick(json)]).toEqual(['parsed', common('old20170001')]);
    expect(json.thumbnail).toBe('https://img.example/vi/old20170001/default.jpg');
  });

  it('2017 live page: live_playback marks a stream playing now', async () => {
    const run = await runRoute(sim, 'media/video/metadata', { query: 'old20170005' });
    expect([(run.json as J).live_status, (run.json as J).duration, run.status]).toEqual(['is_live', null, 'parsed']);
  });
});
