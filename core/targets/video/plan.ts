/**
 * Flows of the video platform's routes. Hosts come from GLEANER_TARGETS: `video` (the site:
 * watch, results and channel pages, the internal API `/youtubei/v1/...`), `video_api` (the
 * owner's public data API, e.g. `https://<data api host>/youtube` so that `/v3/...` follows) and
 * `video_suggest` (the suggestion host); either optional token falls back to `video`.
 *
 * | route | requests |
 * |---|---|
 * | `metadata`, `download` | `GET {video}/watch?v=<id>&hl=en&bpctr=9999999999&has_verified=1` (the last two skip the content-warning interstitial, as the OSS downloader does) |
 * | `subtitles` | the watch page, then follow-up `GET <chosen track baseUrl>&fmt=json3`; then `POST {video}/youtubei/v1/get_transcript` `{context, params}` (optional, the fallback: `params` built for the chosen track; skipped when no track matches or the page has no transcript panel; made even when the track answered, as a step cannot depend on an earlier one failing) |
 * | `channel` | `GET {video}/channel/<UC id>/videos` (`/@handle/videos` for a handle); follow-ups `POST {video}/youtubei/v1/browse` `{context, continuation}` until `limit` videos; then the About panel `POST .../browse` with the header's continuation (optional) |
 * | `search` | `GET {video}/results?search_query=<q>&sp=<filter>&hl=en` |
 * | `search/max` | the same, then follow-ups `POST {video}/youtubei/v1/search` `{context, continuation}`, at most 35 (≈700 results) within the deadline |
 * | `autocomplete` | `GET {video_suggest}/complete/search?client=youtube&ds=yt&q=<q>&hl=<language>&gl=<location>` (JSONP) |
 * | `video/trainability` | `GET {video_api}/v3/videoTrainability?id=<id>` |
 *
 * `location` (a country code) adds `gl=<CC>` to page URLs and `gl` to the API context; `sp`
 * is built by sp.ts from `upload_date`, `type`, `duration`, `sort_by` and the feature flags.
 * Every request to the site carries the consent cookie `SOCS=CAI` (the OSS downloader's), so
 * pages fetched from consent-law countries are the content, not the consent form. The API
 * context's `clientVersion` is read from the page's `ytcfg`, with a fixed fallback.
 */
import { GleanerError } from '../../errors.js';
import type { RouteSpec } from '../../registry/types.js';
import { baseFor, buildUrl, int, str, type Params, type Query, type Targets } from '../base.js';
import type { FetchStep, Flow, StepRequest, Vars } from '../flow.js';
import { captionTracks, chooseTrack, hasTranscriptPanel, json3Url, transcriptParams } from './captions.js';
import { countCards } from './continuation.js';
import { at } from './json.js';
import { absolute, pageData, ytcfgValue } from './page.js';
import { searchFilter } from './sp.js';

/** GLEANER_TARGETS tokens this family reads besides `video`. */
export const VIDEO_HOSTS: readonly string[] = ['video_api', 'video_suggest'];

/** The web client version sent when a page does not name its own (any recent one is accepted). */
export const DEFAULT_CLIENT_VERSION = '2.20250101.00.00';
/** Continuation pages of `search/max`: the reference serves up to ~700 results, 20 a page. */
export const SEARCH_MAX_FOLLOW_UPS = 35;
/** Videos a channel grid page holds; `limit` above it needs continuations. */
const CHANNEL_PAGE = 30;

const SITE_HEADERS = { cookie: 'SOCS=CAI' } as const;

interface Hosts {
  video: string;
  api: string;
  suggest: string;
}

function hostsOf(targets: Targets, params: Params): Hosts {
  const video = baseFor(targets, 'video', params).url;
  const has = (t: string) => Object.prototype.hasOwnProperty.call(targets, t) && typeof targets[t]?.baseUrl === 'string' && targets[t]?.baseUrl !== '';
  return {
    video,
    api: has('video_api') ? baseFor(targets, 'video_api', params).url : video,
    suggest: has('video_suggest') ? baseFor(targets, 'video_suggest', params).url : video,
  };
}

function country(params: Params): string | undefined {
  const loc = str(params.location);
  return loc && /^[A-Za-z]{2}$/.test(loc) ? loc.toUpperCase() : undefined;
}

/** Query parameters every page request ends with: interface language, and the country asked for. */
function pageTail(params: Params): Query {
  const q: Query = [['hl', 'en']];
  const gl = country(params);
  if (gl) q.push(['gl', gl]);
  return q;
}

/** The client version of the page a follow-up continues, read once by the page step. */
const CLIENT_VERSION = { from: 'fn', read: (body: string) => ytcfgValue(body, 'INNERTUBE_CLIENT_VERSION') ?? DEFAULT_CLIENT_VERSION } as const;

/** An internal API request (`/youtubei/v1/<endpoint>`) with the web client's context. */
export function apiRequest(video: string, endpoint: string, params: Params, vars: Readonly<Vars>, payload: Record<string, unknown>): StepRequest {
  const client: Record<string, string> = { clientName: 'WEB', clientVersion: vars.client_version ?? DEFAULT_CLIENT_VERSION, hl: 'en' };
  const gl = country(params);
  if (gl) client.gl = gl;
  return {
    method: 'POST',
    url: `${video}/youtubei/v1/${endpoint}?prettyPrint=false`,
    headers: { ...SITE_HEADERS, 'content-type': 'application/json', 'x-youtube-client-name': '1', 'x-youtube-client-version': client.clientVersion as string },
    body: JSON.stringify({ context: { client }, ...payload }),
  };
}

function watchUrl(hosts: Hosts, params: Params): string {
  const id = str(params.query) ?? '';
  return buildUrl(hosts.video, '/watch', [['v', id], ...pageTail(params), ['bpctr', '9999999999'], ['has_verified', '1']]);
}

/** `UC...` ids and `@handles` as the site addresses them; other names as legacy custom URLs. */
export function channelPath(query: string): string {
  if (/^UC[\w-]{22}$/.test(query)) return `/channel/${query}`;
  if (query.startsWith('@')) return `/${encodeURIComponent(query).replace(/^%40/, '@')}`;
  return `/c/${encodeURIComponent(query)}`;
}

function subtitlesFlow(hosts: Hosts, params: Params): Flow {
  const language = str(params.language_code) ?? null;
  const origin = str(params.subtitle_origin) ?? null;
  const videoId = str(params.query) ?? '';
  const choose = (body: string) => chooseTrack(captionTracks(pageData(body).player), language, origin);
  const watch: FetchStep = {
    kind: 'fetch',
    name: 'watch',
    page: true,
    url: watchUrl(hosts, params),
    headers: SITE_HEADERS,
    read: {
      client_version: CLIENT_VERSION,
      // Only when the page offers the panel and a track matches: unset, the fallback step is skipped.
      transcript_params: {
        from: 'fn',
        read: (body: string) => {
          const track = choose(body);
          return track && hasTranscriptPanel(pageData(body).data) ? transcriptParams(videoId, track) : undefined;
        },
      },
    },
    // The chosen track in its JSON format, as a follow-up: its URL comes whole from the page
    // (a signed query), which a `{{var}}` in a step URL cannot carry (variables are URL-encoded).
    more: {
      max: 1,
      next: (body: string, count: number) => {
        if (count > 0) return undefined;
        const url = choose(body)?.url;
        return url ? { url: json3Url(absolute(url, hosts.video) as string), headers: SITE_HEADERS } : undefined;
      },
    },
  };
  const fallback: FetchStep = {
    kind: 'fetch',
    name: 'transcript',
    optional: true,
    keep: true,
    ...apiRequest(hosts.video, 'get_transcript', params, { client_version: '{{client_version}}' }, { params: '{{transcript_params}}' }),
  };
  return { page: 1, steps: [watch, fallback] };
}

function channelFlow(hosts: Hosts, params: Params): Flow {
  const query = str(params.query) ?? '';
  const limit = Math.max(1, int(params.limit) ?? CHANNEL_PAGE);
  // Videos gathered so far by this flow's follow-ups. Reset on the first call of each attempt
  // (count 0): a retried attempt re-runs the page step and starts counting again. Each planned
  // flow owns its counter; flows are not shared between tasks.
  let gathered = 0;
  const page: FetchStep = {
    kind: 'fetch',
    name: 'page',
    page: true,
    url: buildUrl(hosts.video, `${channelPath(query)}/videos`, pageTail(params)),
    headers: SITE_HEADERS,
    read: {
      client_version: CLIENT_VERSION,
      about_token: { from: 'fn', read: (body: string) => aboutToken(body) },
    },
    more: {
      max: Math.ceil(limit / CHANNEL_PAGE) + 1,
      next: (body: string, count: number, vars: Readonly<Vars>) => {
        if (count === 0) gathered = 0;
        const { cards, token } = countCards(body);
        gathered += cards;
        if (gathered >= limit || !token) return undefined;
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
  return { page: 1, steps: [page, about] };
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
  if (!max) return { page: 1, steps: [page] };
  return {
    page: 1,
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
    case 'media/video/download':
      return [one(watchUrl(hosts, params), SITE_HEADERS)];
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
