/**
 * The request headers of the plain path, as the profile's Chrome sends them: names, order and
 * values (HTTP/2 form: lower-case names). Two kinds, because Chrome sends two different sets:
 *
 * - a top-level navigation (a page typed or opened: `sec-fetch-site: none`, `sec-fetch-user`,
 *   `upgrade-insecure-requests`, the long `accept`, `priority: u=0, i`);
 * - a script's fetch()/XHR (a flow's JSON call: `accept: *\/*` or the step's own, `sec-fetch-mode:
 *   cors`, `sec-fetch-dest: empty`, `origin` on a POST, `priority: u=1, i`), in the different
 *   order Chrome uses for those.
 *
 * The order and values were read from Chromium 156 itself by the recording server
 * (test/helpers/recorder/); test/integration/fingerprint.test.ts compares every run with the
 * local Chromium, so a release that changes them fails there, not in production.
 *
 * A step's own headers replace Chrome's value in Chrome's place; names Chrome would not send
 * go before `priority` (where Chrome puts request headers a page adds). Cookies go where Chrome
 * puts them (after `accept-language`). Over HTTP/1.1 the transport writes Chrome's capitalised
 * names with `Host` and `Connection` first (net/emulation.ts).
 */

/** What of a profile (identity/profile.ts) the headers are made from. */
export interface HeaderProfile {
  userAgent: string;
  acceptLanguage: string;
  userAgentData: { brands: ReadonlyArray<{ brand: string; version: string }>; mobile: boolean; platform: string };
}

/** Header lines in the order sent. */
export type HeaderList = Array<[string, string]>;

export type RequestKind = 'navigate' | 'fetch';

export interface HeaderRequest {
  method: 'GET' | 'POST';
  url: string;
  /** The step's own headers (any case); they win over Chrome's values. */
  headers?: Readonly<Record<string, string>> | undefined;
  /** The flow's cookies for this URL (from its jar), joined as Chrome joins them. */
  cookie?: string | undefined;
  /** The page this request comes from (a flow's earlier step), if any. */
  referer?: string | undefined;
}

/** The `Accept` of a Chrome 156 navigation (image/jxl is new in 15x). */
export const NAVIGATE_ACCEPT =
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/jxl,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7';

/** `br` and `zstd` are decoded by the client (net/transports.ts), as Chrome does. */
export const ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

export function secChUa(profile: HeaderProfile): string {
  return profile.userAgentData.brands.map((b) => `"${b.brand}";v="${b.version}"`).join(', ');
}

/** Which of Chrome's two header sets a step's request is: a JSON or POST call is a script's fetch(). */
export function kindOf(req: Pick<HeaderRequest, 'method' | 'headers'>): RequestKind {
  const accept = own(req.headers, 'accept');
  const type = own(req.headers, 'content-type');
  if (accept !== undefined && !/^text\/html/i.test(accept)) return 'fetch';
  if (req.method === 'POST' && type !== undefined && !/^application\/x-www-form-urlencoded/i.test(type)) return 'fetch';
  return 'navigate';
}

export function requestHeaders(profile: HeaderProfile, req: HeaderRequest): HeaderList {
  const kind = kindOf(req);
  const base = kind === 'navigate' ? navigation(profile, req) : scriptFetch(profile, req);
  return withOwn(base, req.headers);
}

function navigation(profile: HeaderProfile, req: HeaderRequest): HeaderList {
  const site = req.referer ? siteOf(req.referer, req.url) : 'none';
  const out: HeaderList = [
    ['sec-ch-ua', secChUa(profile)],
    ['sec-ch-ua-mobile', profile.userAgentData.mobile ? '?1' : '?0'],
    ['sec-ch-ua-platform', `"${profile.userAgentData.platform}"`],
    ['upgrade-insecure-requests', '1'],
    ['user-agent', profile.userAgent],
    ['accept', NAVIGATE_ACCEPT],
    ['sec-fetch-site', site],
    ['sec-fetch-mode', 'navigate'],
    ['sec-fetch-user', '?1'],
    ['sec-fetch-dest', 'document'],
  ];
  if (req.referer) out.push(['referer', req.referer]);
  out.push(['accept-encoding', ACCEPT_ENCODING], ['accept-language', profile.acceptLanguage]);
  if (req.cookie) out.push(['cookie', req.cookie]);
  if (overTls(req.url)) out.push(['priority', 'u=0, i']);
  return out;
}

function scriptFetch(profile: HeaderProfile, req: HeaderRequest): HeaderList {
  const site = req.referer ? siteOf(req.referer, req.url) : 'same-origin';
  const out: HeaderList = [
    ['sec-ch-ua-platform', `"${profile.userAgentData.platform}"`],
    ['user-agent', profile.userAgent],
    ['sec-ch-ua', secChUa(profile)],
  ];
  const type = own(req.headers, 'content-type');
  if (type !== undefined) out.push(['content-type', type]);
  out.push(['sec-ch-ua-mobile', profile.userAgentData.mobile ? '?1' : '?0'], ['accept', '*/*']);
  if (req.method === 'POST') out.push(['origin', new URL(req.referer ?? req.url).origin]);
  out.push(['sec-fetch-site', site], ['sec-fetch-mode', 'cors'], ['sec-fetch-dest', 'empty']);
  if (req.referer) out.push(['referer', req.referer]);
  out.push(['accept-encoding', ACCEPT_ENCODING], ['accept-language', profile.acceptLanguage]);
  if (req.cookie) out.push(['cookie', req.cookie]);
  if (overTls(req.url)) out.push(['priority', 'u=1, i']);
  return out;
}

/**
 * The step's headers over Chrome's: a name Chrome sends keeps its place with the step's value
 * (a step's `cookie` is joined before the jar's); other names go before `priority`.
 */
function withOwn(base: HeaderList, extra: Readonly<Record<string, string>> | undefined): HeaderList {
  if (!extra) return base;
  const added: HeaderList = [];
  let cookie: string | undefined;
  for (const [rawName, value] of Object.entries(extra)) {
    const name = rawName.toLowerCase();
    if (name === 'cookie') {
      cookie = value;
      continue;
    }
    const at = base.findIndex(([n]) => n === name);
    if (at >= 0) base[at] = [name, value];
    else added.push([name, value]);
  }
  if (cookie !== undefined) {
    const at = base.findIndex(([n]) => n === 'cookie');
    if (at >= 0) base[at] = ['cookie', `${cookie}; ${base[at][1]}`];
    else base.splice(base.findIndex(([n]) => n === 'accept-language') + 1, 0, ['cookie', cookie]);
  }
  // Before `priority`, Chrome's last line (where it sends one).
  if (added.length) base.splice(base[base.length - 1][0] === 'priority' ? base.length - 1 : base.length, 0, ...added);
  return base;
}

/**
 * Chrome sends `Priority` over HTTP/2 only. A cleartext `http://` page is always HTTP/1.1, so
 * it gets none; over TLS the protocol is settled after the headers are made, so an https server
 * without h2 still gets it from the native client (a known difference, README "What a site sees").
 */
function overTls(url: string): boolean {
  return /^https:/i.test(url);
}

function own(headers: Readonly<Record<string, string>> | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return v;
  return undefined;
}

/** `Sec-Fetch-Site` of a request to `url` made from `from`. */
function siteOf(from: string, url: string): string {
  try {
    const a = new URL(from);
    const b = new URL(url);
    if (a.origin === b.origin) return 'same-origin';
    return registrable(a.hostname) === registrable(b.hostname) && a.protocol === b.protocol ? 'same-site' : 'cross-site';
  } catch {
    return 'none';
  }
}

/** The last two labels: close enough to the registrable domain for the sites flows visit. */
function registrable(host: string): string {
  return host.split('.').slice(-2).join('.');
}

/**
 * A media element's request (a video stream fetched by range, net/ranged.ts): `identity`
 * encoding, as Chrome asks for media, so byte ranges are ranges of the file itself.
 */
export function mediaHeaders(profile: HeaderProfile, extra?: Readonly<Record<string, string>>): HeaderList {
  const base: HeaderList = [
    ['sec-ch-ua-platform', `"${profile.userAgentData.platform}"`],
    ['user-agent', profile.userAgent],
    ['sec-ch-ua', secChUa(profile)],
    ['sec-ch-ua-mobile', profile.userAgentData.mobile ? '?1' : '?0'],
    ['accept', '*/*'],
    ['sec-fetch-site', 'cross-site'],
    ['sec-fetch-mode', 'no-cors'],
    ['sec-fetch-dest', 'video'],
    ['accept-encoding', 'identity;q=1, *;q=0'],
    ['accept-language', profile.acceptLanguage],
    ['priority', 'i'],
  ];
  return withOwn(base, extra);
}
