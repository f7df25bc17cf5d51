/**
 * Flows of the video platform's routes. Hosts come from GLEANER_TARGETS: `video` (the site:
 * watch, results and channel pages, the internal API `/youtubei/v1/...`), `video_api` (the
 * owner's public data API, e.g. `https://<data api host>/youtube` so that `/v3/...` follows) and
 * `video_suggest` (the suggestion host); either optional token falls back to `video`.
 *
 * | route | requests |
 * |---|---|
 * | `metadata` | `GET {video}/watch?v=<id>&hl=en&bpctr=9999999999&has_verified=1` (the last two skip the content-warning interstitial, as the OSS downloader does) |
 * | `download` | the same watch page, then a media step: the chosen streams by range (download.ts) |
 * | `subtitles` | the watch page; `GET <chosen track baseUrl>&fmt=json3` (optional, only when a track matches: its URL is read whole from the page); then `POST {video}/youtubei/v1/get_transcript` `{context, params}` (optional, the fallback: only when the track gave no segments and the page has a transcript panel; `params` built for the chosen track) |
 * | `channel` | `GET {video}/channel/<UC id>/videos` (`/@handle/videos` for a handle); follow-ups `POST {video}/youtubei/v1/browse` `{context, continuation}` until `limit` videos (the page's cards plus the follow-ups gathered); then the About panel `POST .../browse` with the header's continuation (optional) |
 * | `search` | `GET {video}/results?search_query=<q>&sp=<filter>&hl=en` |
 * | `search/max` | the same, then follow-ups `POST {video}/youtubei/v1/search` `{context, continuation}`, at most 35 (≈700 results) within the deadline |
 * | `autocomplete` | `GET {video_suggest}/complete/search?client=youtube&ds=yt&q=<q>&hl=<language>&gl=<location>` (JSONP) |
 * | `video/trainability` | `GET {video_api}/v3/videoTrainability?id=<id>` |
 *
 * Watch, results and channel flows `check` their page for the platform's walls (wall.ts: consent
 * interstitial, captcha, bot check) and retry them on the next proxy; the last one is returned
 * for the parser to call `blocked` (a download fails instead).
 *
 * `location` (a country code) adds `gl=<CC>` to page URLs and `gl` to the API context; `sp`
 * is built by sp.ts from `upload_date`, `type`, `duration`, `sort_by` and the feature flags.
 * Every request to the site carries the consent cookie `SOCS=CAI` (the OSS downloader's), so
 * pages fetched from consent-law countries are the content, not the consent form. The API
 * context's `clientVersion` is read from the page's `ytcfg`, with a fixed fallback.
 */
import { GleanerError } from '../../errors.js';
import type { RouteSpec } from '../../registry/types.js';
import { buildUrl, int, str, type Params, type Query, type Targets } from '../base.js';
import type { FetchStep, Flow, Vars } from '../flow.js';
import { captionTracks, chooseTrack, hasTranscriptPanel, json3Segments, json3Url, transcriptParams } from './captions.js';
import { countCards } from './continuation.js';
import { downloadFlow } from './download.js';
import { at } from './json.js';
import { absolute, pageData } from './page.js';
import { apiRequest, channelPath, CLIENT_VERSION, country, hostsOf, pageTail, SITE_HEADERS, watchStep, type Hosts } from './requests.js';
import { searchFilter } from './sp.js';
import { videoWallCheck } from './wall.js';

export { apiRequest, channelPath, DEFAULT_CLIENT_VERSION } from './requests.js';

/** GLEANER_TARGETS tokens this family reads besides `video`. */
export const VIDEO_HOSTS: readonly string[] = ['video_api', 'video_suggest'];

/** Continuation pages of `search/max`: the reference serves up to ~700 results, 20 a page. */
export const SEARCH_MAX_FOLLOW_UPS = 35;
/** Videos a channel grid page holds; `limit` above it needs continuations. */
const CHANNEL_PAGE = 30;

/** A wall on a page the parser reads is retried, then handed to the parser (which says `blocked`). */
const WALLS = videoWallCheck('return');

function subtitlesFlow(hosts: Hosts, params: Params): Flow {
  const language = str(params.language_code) ?? null;
  const origin = str(params.subtitle_origin) ?? null;
  const videoId = str(params.query) ?? '';
  const choose = (body: string) => chooseTrack(captionTracks(pageData(body).player), language, origin);
  const watch = watchStep(hosts, params, {
    name: 'watch',
    page: true,
    read: {
      client_version: CLIENT_VERSION,
      // The chosen track in its JSON format; unset when no track matches (the track step is skipped).
      track_url: {
        from: 'fn',
        read: (body: string) => {
          const url = choose(body)?.url;
          return url ? json3Url(absolute(url, hosts.video) as string) : undefined;
        },
      },
      // Only when the page offers the panel and a track matches: unset, the fallback step is skipped.
      transcript_params: {
        from: 'fn',
        read: (body: string) => {
          const track = choose(body);
          return track && hasTranscriptPanel(pageData(body).data) ? transcriptParams(videoId, track) : undefined;
        },
      },
    },
  });
  const track: FetchStep = {
    kind: 'fetch',
    name: 'track',
    optional: true,
    keep: true,
    // The URL comes whole from the page (a signed query a `{{var}}` would re-encode).
    url: (vars) => vars.track_url ?? '',
    headers: SITE_HEADERS,
    when: (vars) => vars.track_url !== undefined,
    read: { track_segments: { from: 'fn', read: (body: string) => ((json3Segments(body)?.length ?? 0) > 0 ? '1' : undefined) } },
  };
  const fallback: FetchStep = {
    kind: 'fetch',
    name: 'transcript',
    optional: true,
    keep: true,
    ...apiRequest(hosts.video, 'get_transcript', params, { client_version: '{{client_version}}' }, { params: '{{transcript_params}}' }),
    // Only when the track was refused or empty, and the page has the panel.
    when: (vars) => vars.track_segments === undefined && vars.transcript_params !== undefined,
  };
  return { page: 1, steps: [watch, track, fallback], check: WALLS };
}

/** Result cards of a channel tab or continuation body. */
const cardsIn = (body: string): number => countCards(body).cards;

function channelFlow(hosts: Hosts, params: Params): Flow {
  const query = str(params.query) ?? '';
  const limit = Math.max(1, int(params.limit) ?? CHANNEL_PAGE);
  const page: FetchStep = {
    kind: 'fetch',
    name: 'page',
    page: true,
    url: buildUrl(hosts.video, `${channelPath(query)}/videos`, pageTail(params)),
    headers: SITE_HEADERS,
    read: {
      client_version: CLIENT_VERSION,
      about_token: { from: 'fn', read: (body: string) => aboutToken(body) },
      page_cards: { from: 'fn', read: (body: string) => String(cardsIn(body)) },
    },
    more: {
      max: Math.ceil(limit / CHANNEL_PAGE) + 1,
      // Videos so far: the page's, read once by the page step, plus every follow-up gathered.
      next: (body: string, _count: number, vars: Readonly<Vars>, gathered: readonly string[]) => {
        const videos = Number(vars.page_cards ?? 0) + gathered.reduce((n, b) => n + cardsIn(b), 0);
        const token = countCards(body).token;
        if (videos >= limit || !token) return undefined;
        return apiRequest(hosts.video, 'browse', params, vars, { continuation: token });
      },
    },
  };
  const about: FetchStep = {
    kind: 'fetch',
    name: 'about',
    optional: true,
    keep: true,
    ...apiRequest(hosts.video, 'browse', params, { client_version: '{{client_version}}' }, { continuation: '{{about_token}}' }),
  };
  return { page: 1, steps: [page, about], check: WALLS };
}

/** The About panel's continuation token, from the channel header (description preview or links suffix). */
export function aboutToken(body: string): string | undefined {
  const { data } = pageData(body);
  const header = at(data, 'header');
  const text = header === undefined ? '' : JSON.stringify(header);
  // The header opens the About panel with a browse continuation; the tab grid's own continuation
  // is outside the header, so the first token inside it is the panel's.
  const m = /"continuationCommand":\{"token":"([^"]+)"/.exec(text);
  return m ? m[1] : undefined;
}

function searchFlow(hosts: Hosts, params: Params, max: boolean): Flow {
  const sp = searchFilter(params);
  const q: Query = [['search_query', str(params.query) ?? ''], ...(sp ? ([['sp', sp]] as Query) : []), ...pageTail(params)];
  const page: FetchStep = { kind: 'fetch', name: 'page', url: buildUrl(hosts.video, '/results', q), headers: SITE_HEADERS };
  if (!max) return { page: 1, steps: [page], check: WALLS };
  return {
    page: 1,
    check: WALLS,
    steps: [
      {
        ...page,
        read: { client_version: CLIENT_VERSION },
        more: {
          max: SEARCH_MAX_FOLLOW_UPS,
          next: (body: string, _count: number, vars: Readonly<Vars>) => {
            const token = countCards(body).token;
            return token ? apiRequest(hosts.video, 'search', params, vars, { continuation: token }) : undefined;
          },
        },
      },
    ],
  };
}

function one(url: string, headers?: Readonly<Record<string, string>>): Flow {
  return { page: 1, steps: [{ kind: 'fetch', name: 'page', url, ...(headers ? { headers } : {}) }] };
}

export function planVideo(route: RouteSpec, params: Params, targets: Targets): Flow[] {
  const hosts = hostsOf(targets, params);
  const query = str(params.query) ?? '';
  switch (route.id) {
    case 'media/video/metadata':
      return [{ page: 1, steps: [watchStep(hosts, params)], check: WALLS }];
    case 'media/video/download':
      return [downloadFlow(watchStep(hosts, params), params, hosts.video)];
    case 'media/video/subtitles':
      return [subtitlesFlow(hosts, params)];
    case 'media/video/channel':
      return [channelFlow(hosts, params)];
    case 'media/video/search':
      return [searchFlow(hosts, params, false)];
    case 'media/video/search/max':
      return [searchFlow(hosts, params, true)];
    case 'media/video/autocomplete': {
      const q: Query = [['client', 'youtube'], ['ds', 'yt'], ['q', query], ['hl', str(params.language) ?? 'en']];
      const gl = country(params);
      if (gl) q.push(['gl', gl]);
      return [one(buildUrl(hosts.suggest, '/complete/search', q))];
    }
    case 'media/video/video/trainability':
      return [one(buildUrl(hosts.api, '/v3/videoTrainability', [['id', query]]))];
    default:
      throw new GleanerError('INTERNAL_ERROR', `The video family has no flow for route ${route.id}.`, { route: route.id });
  }
}
