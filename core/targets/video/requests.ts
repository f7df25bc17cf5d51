/**
 * The video platform's request vocabulary, shared by its flows: hosts from GLEANER_TARGETS
 * (`video`, optional `video_api` and `video_suggest`), the page URL tail (`hl`, `gl`), the
 * watch page URL, channel paths, and internal API calls (`/youtubei/v1/<endpoint>`) with the
 * web client's context. plan.ts documents which flow sends what.
 */
import { baseFor, buildUrl, str, type Params, type Query, type Targets } from '../base.js';
import type { FetchStep, StepRequest, Vars } from '../flow.js';
import { ytcfgValue } from './page.js';

/** The web client version sent when a page does not name its own (any recent one is accepted). */
export const DEFAULT_CLIENT_VERSION = '2.20250101.00.00';
/** Every request to the site carries the consent cookie (plan.ts). */
export const SITE_HEADERS = { cookie: 'SOCS=CAI' } as const;

export interface Hosts {
  video: string;
  api: string;
  suggest: string;
}

export function hostsOf(targets: Targets, params: Params): Hosts {
  const video = baseFor(targets, 'video', params).url;
  const has = (t: string) => Object.prototype.hasOwnProperty.call(targets, t) && typeof targets[t]?.baseUrl === 'string' && targets[t]?.baseUrl !== '';
  return {
    video,
    api: has('video_api') ? baseFor(targets, 'video_api', params).url : video,
    suggest: has('video_suggest') ? baseFor(targets, 'video_suggest', params).url : video,
  };
}

export function country(params: Params): string | undefined {
  const loc = str(params.location);
  return loc && /^[A-Za-z]{2}$/.test(loc) ? loc.toUpperCase() : undefined;
}

/** Query parameters every page request ends with: interface language, and the country asked for. */
export function pageTail(params: Params): Query {
  const q: Query = [['hl', 'en']];
  const gl = country(params);
  if (gl) q.push(['gl', gl]);
  return q;
}

/** The client version of the page a follow-up continues, read once by the page step. */
export const CLIENT_VERSION = { from: 'fn', read: (body: string) => ytcfgValue(body, 'INNERTUBE_CLIENT_VERSION') ?? DEFAULT_CLIENT_VERSION } as const;

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

export function watchUrl(hosts: Hosts, params: Params): string {
  const id = str(params.query) ?? '';
  return buildUrl(hosts.video, '/watch', [['v', id], ...pageTail(params), ['bpctr', '9999999999'], ['has_verified', '1']]);
}

/** `UC...` ids and `@handles` as the site addresses them; other names as legacy custom URLs. */
export function channelPath(query: string): string {
  if (/^UC[\w-]{22}$/.test(query)) return `/channel/${query}`;
  if (query.startsWith('@')) return `/${encodeURIComponent(query).replace(/^%40/, '@')}`;
  return `/c/${encodeURIComponent(query)}`;
}

/** The watch page request (`name: page` unless `extra` says otherwise). */
export function watchStep(hosts: Hosts, params: Params, extra: Partial<FetchStep> = {}): FetchStep {
  return { kind: 'fetch', name: 'page', url: watchUrl(hosts, params), headers: SITE_HEADERS, ...extra };
}
