/**
 * Pages of the video platform from before the initial data was embedded (hand-written, in the
 * structure of 2013-2020 captures; no captured page is copied):
 *
 * - `tilesPage`: the server-rendered results page — `ol.item-section` of `yt-lockup` tiles
 *   (video tiles with `data-context-item-id`, `h3` title link, byline, meta list "age" /
 *   "N views", description, `video-time`, badges; a channel tile; a playlist tile), a shelf
 *   ("Latest from ...") repeating two videos of the list, and a promoted tile in an ads box;
 * - `legacyWatchPage`: a watch page whose player data is `ytplayer.config` — `2019`: the player
 *   response as a JSON string in `args.player_response`; `2017`: flat `args` strings, the date,
 *   category and family safety in `<meta itemprop>`, the description in `#eow-description`.
 */
import { CHANNEL_ID, CHANNEL_NAME, clock, grouped, VIDEOS, type SimVideo } from './video-data.js';
import { hits, type Hit } from './video-lists.js';

const escHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function videoTile(h: Hit): string {
  const badges = h.features.has('4k') ? '<div class="yt-lockup-badges"><ul class="yt-badge-list"><li class="yt-badge-item"><span class="yt-badge">4K</span></li></ul></div>' : '';
  return `<li><div class="yt-lockup yt-lockup-tile yt-lockup-video clearfix" data-context-item-id="${h.id}"><div class="yt-lockup-dismissable"><div class="yt-lockup-thumbnail"><a aria-hidden="true" href="/watch?v=${h.id}"><div class="yt-thumb video-thumb"><span class="yt-thumb-simple"><img width="196" height="110" src="https://img.example/vi/${h.id}/hqdefault.jpg" alt=""><span class="video-time" aria-hidden="true">${clock(h.duration)}</span></span></div></a></div><div class="yt-lockup-content"><h3 class="yt-lockup-title"><a href="/watch?v=${h.id}" class="yt-uix-tile-link" title="${escHtml(h.title)}">${escHtml(h.title)}</a><span class="accessible-description"> - Duration: ${clock(h.duration)}.</span></h3><div class="yt-lockup-byline"><a href="/channel/${CHANNEL_ID}">${CHANNEL_NAME}</a></div><div class="yt-lockup-meta"><ul class="yt-lockup-meta-info"><li>${Math.floor(h.ageHours / 24) + 1} days ago</li><li>${grouped(h.views)} views</li></ul></div><div class="yt-lockup-description">Snippet of ${escHtml(h.title)}</div>${badges}</div></div></div></li>`;
}

function otherTile(h: Hit): string {
  if (h.kind === 'channel') {
    return `<li><div class="yt-lockup yt-lockup-tile yt-lockup-channel clearfix"><div class="yt-lockup-thumbnail"><a href="/channel/${h.id}"><img src="//img.example/ch/${h.id}.jpg" width="88" height="88" alt=""></a></div><div class="yt-lockup-content"><h3 class="yt-lockup-title"><a href="/channel/${h.id}" title="${escHtml(h.title)}">${escHtml(h.title)}</a><span class="accessible-description"> - Channel</span></h3><div class="yt-lockup-meta"><ul class="yt-lockup-meta-info"><li>${h.n} videos</li></ul></div><span class="yt-subscriber-count" title="${grouped(h.n * 100)}">${grouped(h.n * 100)}</span></div></div></li>`;
  }
  return `<li><div class="yt-lockup yt-lockup-tile yt-lockup-playlist clearfix"><div class="yt-lockup-thumbnail"><a href="/watch?v=s0001x&amp;list=${h.id}"><img src="https://img.example/pl/${h.id}.jpg" alt=""><div class="sidebar"><span class="formatted-video-count-label"><b>${h.n}</b> videos</span></div></a></div><div class="yt-lockup-content"><h3 class="yt-lockup-title"><a href="/watch?v=s0001x&amp;list=${h.id}" title="${escHtml(h.title)}">${escHtml(h.title)}</a></h3><div class="yt-lockup-byline"><a href="/channel/${CHANNEL_ID}">${CHANNEL_NAME}</a></div></div></div></li>`;
}

/** The first tiles of a server-rendered results page: hits 1-10, a shelf repeating two of them after the third. */
export function tileHits(query: string): Hit[] {
  return hits(query).slice(0, 10);
}

export function tilesPage(query: string): string {
  const list = tileHits(query);
  const videos = list.filter((h) => h.kind === 'video');
  const shelf = `<li><div class="feed-item-container"><h2 class="branded-page-module-title"><span>Latest from ${CHANNEL_NAME}</span></h2><ul class="shelf-content">${videos.slice(0, 2).map(videoTile).join('')}</ul></div></li>`;
  const ad = `<li><div class="pyv-afc-ads-container"><div class="yt-lockup yt-lockup-tile yt-lockup-video" data-context-item-id="promoted001"><h3><a href="/watch?v=promoted001" title="Sponsored gear">Sponsored gear</a></h3></div></div></li>`;
  const tiles = list.map((h, i) => (h.kind === 'video' ? videoTile(h) : otherTile(h)) + (i === 2 ? shelf : '')).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escHtml(query)} - Video</title></head><body><form id="masthead-search"><input id="masthead-search-term" name="search_query" value="${escHtml(query)}"></form><div id="results"><ol class="section-list"><li><ol class="item-section">${ad}${tiles}</ol></li></ol></div></body></html>`;
}

/** Catalogue videos re-issued under an 11-character legacy id: `old2019` / `old2017` + the last four of the catalogue id. */
export function legacyVideo(id: string): { video: SimVideo; style: '2019' | '2017' } | undefined {
  const m = /^old(2019|2017)(\w{4})$/.exec(id);
  const src = m ? VIDEOS[`vid0000${m[2]}`] : undefined;
  return m && src ? { video: { ...src, id }, style: m[1] as '2019' | '2017' } : undefined;
}

export function legacyWatchPage(v: SimVideo, style: '2019' | '2017'): string {
  const live = v.state === 'live';
  const details = { videoId: v.id, title: v.title, lengthSeconds: String(v.length), keywords: v.keywords, channelId: CHANNEL_ID, shortDescription: v.description, viewCount: String(v.views), author: CHANNEL_NAME, isLiveContent: live, thumbnail: { thumbnails: [{ url: `https://img.example/vi/${v.id}/hqdefault.jpg`, width: 480, height: 360 }] } };
  const micro = { playerMicroformatRenderer: { uploadDate: v.date.slice(0, 10), publishDate: v.date.slice(0, 10), category: v.category, externalChannelId: CHANNEL_ID, isFamilySafe: true } };
  const args =
    style === '2019'
      ? { loaderUrl: `https://video.example/watch?v=${v.id}`, player_response: JSON.stringify({ playabilityStatus: { status: 'OK' }, videoDetails: details, microformat: micro }) }
      : {
          video_id: v.id, title: v.title, author: CHANNEL_NAME, ucid: CHANNEL_ID, length_seconds: String(v.length), view_count: String(v.views), keywords: v.keywords.join(','),
          thumbnail_url: `https://img.example/vi/${v.id}/default.jpg`, live_playback: live ? '1' : undefined,
          player_response: JSON.stringify({ adSafetyReason: { isWatchHistoryPaused: true } }),
        };
  const config = JSON.stringify({ attrs: { id: 'movie_player' }, assets: { js: '/player/base.js' }, args }).replace(/\//g, '\\/');
  const metas =
    style === '2017'
      ? `<meta itemprop="name" content="${escHtml(v.title)}"><meta itemprop="channelId" content="${CHANNEL_ID}"><meta itemprop="datePublished" content="${v.date.slice(0, 10)}"><meta itemprop="genre" content="${v.category}"><meta itemprop="isFamilyFriendly" content="True">`
      : '';
  const desc = style === '2017' ? `<div id="watch-description"><p id="eow-description">${escHtml(v.description).replace(/\n/g, '<br>')}</p></div>` : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escHtml(v.title)} - Video</title></head><body><div id="watch7-content">${metas}<h1 id="eow-title">${escHtml(v.title)}</h1>${desc}</div><script>var ytplayer = ytplayer || {};ytplayer.config = ${config};ytplayer.load = function() {};</script></body></html>`;
}
