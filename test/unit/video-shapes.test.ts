/**
 * Page shapes the video parsers met on real captures beyond the fixtures, each as a small
 * hand-written page of the same structure: the watch page asked as data (`pbj=1` list, the
 * `{playerResponse}` wrapper), premieres and a `next` answer alone while live, a page with
 * only its markup, grid-layout search continuations, the 2025 shorts card, a video with several
 * uploaders, a channel tab's later page, and headers of topic and age-gated channels.
 */
import { describe, expect, it } from 'vitest';
import { parseChannel } from '../../core/targets/video/channel.js';
import { countOf, inLanguage } from '../../core/targets/video/counts.js';
import { displayedDate } from '../../core/targets/video/dates.js';
import { parseSearch } from '../../core/targets/video/search.js';
import { parseWatch } from '../../core/targets/video/watch.js';

const YT = 'https://www.youtube.com';
type J = Record<string, any>;
const run = (parser: typeof parseWatch, body: unknown, url: string) => {
  const out = parser({ html: typeof body === 'string' ? body : JSON.stringify(body), url, page: 1, params: {} });
  return { status: out.status, json: out.json as J };
};

const player = (extra: J = {}) => ({
  playabilityStatus: { status: 'OK' },
  videoDetails: { videoId: 'abcdefghijk', title: 'A title', lengthSeconds: '125', channelId: 'UCaaaaaaaaaaaaaaaaaaaaaa', author: 'An author', viewCount: '4321', isLiveContent: false, ...extra },
  microformat: { playerMicroformatRenderer: { uploadDate: '2020-02-17T10:00:00-08:00', publishDate: '2020-02-17T10:00:00-08:00', category: 'Music' } },
});
const next = (views: J) => ({
  contents: { twoColumnWatchNextResults: { results: { results: { contents: [
    { videoPrimaryInfoRenderer: { title: { runs: [{ text: 'Radio' }] }, viewCount: { videoViewCountRenderer: views } } },
    { videoSecondaryInfoRenderer: { owner: { videoOwnerRenderer: {
      attributedTitle: { content: 'One and Two' },
      navigationEndpoint: { showDialogCommand: { panelLoadingStrategy: { inlineContent: { dialogViewModel: { customContent: { listViewModel: { listItems: [
        { listItemViewModel: { title: { content: 'One' }, rendererContext: { commandContext: { onTap: { innertubeCommand: { browseEndpoint: { browseId: 'UCbbbbbbbbbbbbbbbbbbbbbb' } } } } } } },
      ] } } } } } } },
    } } } },
  ] } } } },
  currentVideoEndpoint: { watchEndpoint: { videoId: 'lmnopqrstuv' } },
});

describe('watch answers asked as data', () => {
  it('reads the pbj=1 list: player response and initial data from their entries', () => {
    const body = [{ page: 'watch', csn: 'x' }, { page: 'watch', playerResponse: player() }, { page: 'watch', response: next({ viewCount: { simpleText: '4,321 views' } }) }];
    const { status, json } = run(parseWatch, body, `${YT}/watch?v=abcdefghijk&pbj=1`);
    expect(status).toBe('parsed');
    expect([json.id, json.title, json.channel, json.duration, json.view_count, json.categories, json.live_status]).toEqual(['abcdefghijk', 'A title', 'An author', 125, 4321, ['Music'], 'not_live']);
  });

  it('reads a {playerResponse} wrapper (a call with $fields=playerResponse) as the player response', () => {
    const { json } = run(parseWatch, `)]}'\n${JSON.stringify({ playerResponse: player() })}`, `${YT}/youtubei/v1/reel/reel_item_watch`);
    expect([json.id, json.title, json.view_count]).toEqual(['abcdefghijk', 'A title', 4321]);
  });

  it('takes a premiere (broadcast details, isLiveContent false) for not live, a past stream for was_live', () => {
    const premiere = player();
    (premiere.microformat.playerMicroformatRenderer as J).liveBroadcastDetails = { isLiveNow: false, startTimestamp: '2020-02-17T18:14:58+00:00' };
    expect(run(parseWatch, premiere, `${YT}/youtubei/v1/player`).json.live_status).toBe('not_live');
    const past = player({ isLiveContent: undefined });
    (past.microformat.playerMicroformatRenderer as J).liveBroadcastDetails = { isLiveNow: false };
    expect(run(parseWatch, past, `${YT}/youtubei/v1/player`).json.live_status).toBe('was_live');
  });

  it('reads a next answer alone: "watching now" is live viewers, several uploaders give the first one', () => {
    const { json } = run(parseWatch, next({ viewCount: { runs: [{ text: '10,226' }, { text: ' watching now' }] }, isLive: true }), `${YT}/youtubei/v1/next`);
    expect([json.id, json.live_status, json.view_count, json.concurrent_view_count]).toEqual(['lmnopqrstuv', 'is_live', null, 10226]);
    expect([json.channel, json.channel_id]).toEqual(['One and Two', 'UCbbbbbbbbbbbbbbbbbbbbbb']);
  });
});

describe('a watch page with only its markup', () => {
  const page = `<html><head><link rel="canonical" href="${YT}/watch?v=arj7oStGLkU">
<meta property="og:title" content="Og title">
<script type="application/ld+json">{"@type":"VideoObject","name":"Tom & Jerry","uploadDate":"2016-04-06T09:59:35-07:00",
"interactionStatistic":[{"interactionType":{"@type":"LikeAction"},"userInteractionCount":7},{"interactionType":{"@type":"WatchAction"},"userInteractionCount":1234}],
"comment":[{"dateCreated":"2020-05-11T12:29:04-07:00","author":{"name":"a commenter"}}]}</script>
<span itemscope itemtype="http://schema.org/VideoObject"><meta itemprop="identifier" content="arj7oStGLkU"><meta itemprop="duration" content="PT12M48S">
<span itemprop="author" itemscope itemtype="http://schema.org/Person"><link itemprop="url" href="http://www.youtube.com/@TED"><link itemprop="name" content="TED"></span>
<meta itemprop="genre" content="Education"></span></head><body></body></html>`;

  it('reads JSON-LD first, then microdata, as a partial result', () => {
    const out = parseWatch({ html: page, url: `${YT}/watch?v=arj7oStGLkU`, page: 1, params: {} });
    const j = out.json as J;
    expect(out.status).toBe('partial');
    expect([j.id, j.title, j.webpage_url, j.channel, j.uploader_id, j.duration, j.view_count, j.upload_date, j.categories]).toEqual([
      'arj7oStGLkU', 'Tom & Jerry', `${YT}/watch?v=arj7oStGLkU`, 'TED', '@TED', 768, 1234, '2016-04-06T09:59:35-07:00', ['Education'],
    ]);
  });
});

describe('listings', () => {
  const video = (id: string) => ({ videoRenderer: { videoId: id, title: { runs: [{ text: `t ${id}` }] }, lengthText: { simpleText: '1:05' }, viewCountText: { simpleText: '1,024 views' } } });

  it('reads a grid-layout search continuation: cards without sections, recommendation shelves left out', () => {
    const body = { onResponseReceivedCommands: [{ appendContinuationItemsAction: { continuationItems: [
      { richItemRenderer: { content: video('aaaaaaaaaa1') } },
      { richSectionRenderer: { content: { richShelfRenderer: { title: { simpleText: 'Learn at home' }, contents: [{ richItemRenderer: { content: video('bbbbbbbbbb1') } }] } } } },
      { richItemRenderer: { content: video('aaaaaaaaaa2') } },
      { continuationItemRenderer: { continuationEndpoint: { continuationCommand: { token: 'NEXT' } } } },
    ] } }] };
    const j = run(parseSearch, body, `${YT}/youtubei/v1/search`).json;
    expect(j.videos.map((v: J) => [v.position, v.id, v.duration, v.view_count])).toEqual([[1, 'aaaaaaaaaa1', 65, 1024], [2, 'aaaaaaaaaa2', 65, 1024]]);
    expect(j.continuation).toBe('NEXT');
  });

  it('reads a shorts card whose image is a thumbnail view model, and a video of several uploaders', () => {
    const short = { shortsLockupViewModel: { onTap: { innertubeCommand: { reelWatchEndpoint: { videoId: 'cccccccccc1' } } }, overlayMetadata: { primaryText: { content: 'S' }, secondaryText: { content: '1,2 Mio. Aufrufe' } },
      thumbnailViewModel: { thumbnailViewModel: { image: { sources: [{ url: 'https://i.ytimg.com/vi/cccccccccc1/oar.jpg', width: 405 }] } } } } };
    const multi = { videoRenderer: { videoId: 'dddddddddd1', ownerText: { runs: [{ text: 'A and B', navigationEndpoint: { showDialogCommand: { x: [{ browseEndpoint: { browseId: 'UCcccccccccccccccccccccc', canonicalBaseUrl: '/@a' } }] } } }] } } };
    const body = { contents: { twoColumnSearchResultsRenderer: { primaryContents: { sectionListRenderer: { contents: [{ itemSectionRenderer: { contents: [{ reelShelfRenderer: { items: [short] } }, multi] } }] } } } } };
    const j = run(parseSearch, body, `${YT}/results?search_query=x`).json;
    expect(j.shorts).toEqual([{ position: 1, id: 'cccccccccc1', title: 'S', url: `${YT}/shorts/cccccccccc1`, view_count: 1200000, thumbnail: 'https://i.ytimg.com/vi/cccccccccc1/oar.jpg' }]);
    expect([j.videos[0].channel, j.videos[0].channel_id, j.videos[0].channel_url]).toEqual(['A and B', 'UCcccccccccccccccccccccc', `${YT}/@a`]);
  });

  it('reads a search answer past the last page as no results with its estimate', () => {
    const { status, json } = run(parseSearch, { responseContext: {}, estimatedResults: '677' }, `${YT}/youtubei/v1/search`);
    expect([status, json.result_count, json.videos, json.continuation]).toEqual(['parsed', 677, [], null]);
  });

  it('reads a channel tab continuation answer as the page videos', () => {
    const body = { onResponseReceivedActions: [{ appendContinuationItemsAction: { continuationItems: [
      { richItemRenderer: { content: video('eeeeeeeeee1') } },
      { continuationItemRenderer: { continuationEndpoint: { continuationCommand: { token: 'MORE' } } } },
    ] } }] };
    const { status, json } = run(parseChannel, body, `${YT}/youtubei/v1/browse`);
    expect(status).toBe('parsed');
    expect([json.videos.map((v: J) => v.id), json.continuation]).toEqual([['eeeeeeeeee1'], 'MORE']);
  });

  it('reads the headers of a topic channel (with its rich-section shelves) and of an age-gated channel', () => {
    const topic = {
      header: { carouselHeaderRenderer: { contents: [{ topicChannelDetailsRenderer: { title: { simpleText: 'Sports' }, subtitle: { simpleText: '74.4m subscribers' },
        avatar: { thumbnails: [{ url: '//yt3.example/a=s88', width: 88 }] }, subscribeButton: { subscribeButtonRenderer: { channelId: 'UCdddddddddddddddddddddd' } } } }] } },
      contents: { twoColumnBrowseResultsRenderer: { tabs: [{ tabRenderer: { selected: true, content: { richGridRenderer: { contents: [
        { richSectionRenderer: { content: { richShelfRenderer: { contents: [{ richItemRenderer: { content: video('ffffffffff1') } }] } } } },
      ] } } } }] } },
    };
    const t = run(parseChannel, topic, `${YT}/youtubei/v1/browse`).json;
    expect([t.channel_id, t.title, t.channel_follower_count, t.avatar, t.videos.map((v: J) => v.id)]).toEqual(['UCdddddddddddddddddddddd', 'Sports', 74400000, 'https://yt3.example/a=s88', ['ffffffffff1']]);
    const gate = { contents: { twoColumnBrowseResultsRenderer: { tabs: [{ tabRenderer: { selected: true, content: { sectionListRenderer: { contents: [
      { channelAgeGateRenderer: { channelTitle: 'Whisky', avatar: { thumbnails: [{ url: 'https://yt3.example/w', width: 144 }] } } },
    ] } } } }] } } };
    const g = run(parseChannel, gate, `${YT}/youtubei/v1/browse`).json;
    expect([g.title, g.avatar, g.videos]).toEqual(['Whisky', 'https://yt3.example/w', []]);
  });
});

describe('counts in more interface languages', () => {
  it.each([
    ['1.2 लाख सदस्य', 120000], ['1,5 тис. переглядів', 1500], ['1,2 E megtekintés', 1200], ['2,3 χιλ. προβολές', 2300], ['1,2 milj. katselukertaa', 1200000],
  ])('%s → %d', (text, n) => expect(countOf(text)).toBe(n));
});

describe('counts read in the page\'s language', () => {
  it.each([
    ['tr', '1,2 B görüntüleme', 1200], ['tr', '3,4 Mn abone', 3400000], ['tr', '1,1 Mr görüntüleme', 1100000000], ['tr', '1.234.567 görüntüleme', 1234567],
    ['id', '1,5 M x ditonton', 1500000000], ['id', '2,3 jt subscriber', 2300000], ['ro', '1,2 mil. de vizionări', 1200000], ['cs', '4,5 tis. zhlédnutí', 4500],
    ['vi', '1,2 T lượt xem', 1200000000], ['es', '1,2 mil M de visualizaciones', 1200000000], ['es', '17,3 mil suscriptores', 17300], ['es', '4,69 M de suscriptores', 4690000], ['da', '7,8 t. visninger', 7800], ['en', '1.2B views', 1200000000], [null, '1,2 B görüntüleme', 1200000000],
  ])('%s: %s → %d', (lang, text, n) => expect(inLanguage(lang, () => countOf(text))).toBe(n));
});

describe('printed dates in the page\'s language', () => {
  it.each([
    ['en', 'Premiered Apr 14, 2017', '2017-04-14'], ['en', 'Streamed live on 26 Nov 2022', '2022-11-26'], ['en', 'Joined Jul 9, 2013', '2013-07-09'],
    ['tr', '14 Nis 2017', '2017-04-14'], ['tr', 'Katılma tarihi: 9 Tem 2013', '2013-07-09'], ['de', 'Premiere am 14.04.2017', '2017-04-14'],
    ['fr', 'Diffusé en direct le 1 sept. 2014', '2014-09-01'], ['fr', '3 juil. 2019', '2019-07-03'], ['es', 'Publicado el 14 abr 2017', '2017-04-14'],
    ['pt', '14 de abr. de 2017', '2017-04-14'], ['it', '9 gen 2010', '2010-01-09'], ['ru', '14 апр. 2017 г.', '2017-04-14'], ['uk', '3 квіт. 2020 р.', '2020-04-03'],
    ['pl', '5 paź 2018', '2018-10-05'], ['nl', '2 mrt. 2016', '2016-03-02'], ['id', '17 Agu 2021', '2021-08-17'], ['hu', '2017. ápr. 14.', '2017-04-14'],
    ['cs', '14. 4. 2017', '2017-04-14'], ['vi', '14 thg 4, 2017', '2017-04-14'], ['ja', '2017/04/14', '2017-04-14'], ['zh', '2017年4月14日', '2017-04-14'],
    ['ko', '2017. 4. 14.', '2017-04-14'], ['el', '2 Ιουλ 2015', '2015-07-02'], ['en', '4/5/2017', '2017-04-05'], ['fr', '4/5/2017', '2017-05-04'],
    ['en', '1,234 views', null], ['tr', 'Bugün', null],
  ])('%s: %s → %s', (lang, text, iso) => expect(displayedDate(text, lang)).toBe(iso));

  it('reads relative dates against the answer\'s own clock, never one to come', () => {
    const now = Date.UTC(2024, 2, 5, 10, 0, 0) / 1000;
    expect(['3 hours ago', '3 saat önce', 'vor 14 Stunden', 'il y a 2 jours', 'Streamed live 5 hours ago', '3 時間前', '1 week ago'].map((t) => displayedDate(t, null, now)))
      .toEqual(['2024-03-05', '2024-03-05', '2024-03-04', '2024-03-03', '2024-03-05', '2024-03-05', '2024-02-27']);
    expect([displayedDate('Premieres in 3 hours', 'en', now), displayedDate('3 hours ago', 'en', null)]).toEqual([null, null]);
  });
});

describe('a next answer alone in another interface language', () => {
  const signIn = (hl: string) => ({ topbar: { desktopTopbarRenderer: { a11ySkipNavigationButton: { buttonRenderer: { command: { commandMetadata: { webCommandMetadata: {
    url: `https://accounts.google.com/ServiceLogin?service=youtube&uilel=3&passive=true&continue=https%3A%2F%2Fwww.youtube.com%2F&hl=${hl}&ec=65620` } } } } } } } });
  const answer = (hl: string, date: string, views: string, subs: string, seconds?: string) => {
    const body = next({ viewCount: { simpleText: views } }) as J;
    const rows = body.contents.twoColumnWatchNextResults.results.results.contents;
    rows[0].videoPrimaryInfoRenderer.dateText = { simpleText: date };
    rows[1].videoSecondaryInfoRenderer.owner.videoOwnerRenderer.subscriberCountText = { simpleText: subs };
    return { ...body, ...signIn(hl), ...(seconds ? { frameworkUpdates: { entityBatchUpdate: { timestamp: { seconds, nanos: 0 } } } } : {}) };
  };

  it('reads its counts and date in that language (Turkish: B is bin, a thousand)', () => {
    const { json } = run(parseWatch, answer('tr', '14 Nis 2017', '1.234 görüntüleme', '12,3 B abone'), `${YT}/youtubei/v1/next`);
    expect([json.upload_date, json.publish_date, json.view_count, json.channel_follower_count]).toEqual(['2017-04-14', '2017-04-14', 1234, 12300]);
  });

  it('reads a relative date against the answer\'s timestamp, and a German date', () => {
    const tr = run(parseWatch, answer('tr', '5 saat önce', '17 görüntüleme', '1,1 Mn abone', String(Date.UTC(2024, 2, 5, 10) / 1000)), `${YT}/youtubei/v1/next`).json;
    const de = run(parseWatch, answer('de', 'Premiere am 14.04.2017', '1.234 Aufrufe', '1,2 Mio. Abonnenten'), `${YT}/youtubei/v1/next`).json;
    expect([tr.upload_date, tr.channel_follower_count, de.upload_date, de.view_count, de.channel_follower_count]).toEqual(['2024-03-05', 1100000, '2017-04-14', 1234, 1200000]);
  });
});

describe('a results page in another interface language', () => {
  const card = (id: string, views: string) => ({ videoRenderer: { videoId: id, title: { runs: [{ text: `t ${id}` }] }, lengthText: { simpleText: '1:05' }, viewCountText: { simpleText: views } } });
  const data = { contents: { twoColumnSearchResultsRenderer: { primaryContents: { sectionListRenderer: { contents: [{ itemSectionRenderer: { contents: [
    card('aaaaaaaaaa1', '89 B görüntüleme'), card('aaaaaaaaaa2', '1,2 Mn görüntüleme'), card('aaaaaaaaaa3', '1.024 görüntüleme'),
  ] } }] } } } } };
  const page = (lang: string) => `<!DOCTYPE html><html style="font-size: 10px" lang="${lang}"><head></head><body><script>var ytInitialData = ${JSON.stringify(data)};</script></body></html>`;

  it('reads the short counts by the page\'s language: Turkish B is bin (thousand), an English page\'s B a billion', () => {
    const tr = run(parseSearch, page('tr-TR'), `${YT}/results?search_query=x`).json;
    const en = run(parseSearch, page('en'), `${YT}/results?search_query=x`).json;
    expect([tr.videos.map((v: J) => v.view_count), en.videos[0].view_count]).toEqual([[89000, 1200000, 1024], 89000000000]);
  });
});
