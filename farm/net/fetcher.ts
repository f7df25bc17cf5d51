/**
 * The plain-HTTP path (`run_js: false`): one undici request per hop, redirects followed by hand
 * (at most 10, each hop re-checked), the body read under the size cap.
 */
import type { CookieJar } from 'tough-cookie';
import { GleanerError } from '../../core/errors.js';
import type { Agents } from './agents.js';
import type { Abortable } from '../worker/abort.js';
import { exchange, type RawHeaders } from './exchange.js';
import type { ProxyEntry } from './proxies.js';
import { redirectTarget } from './redirect.js';
import { checkUrl, refusalIn, resolveChecked, type NetPolicy } from './ssrf.js';

export const MAX_REDIRECTS = 10;

export interface HttpRequest {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  proxy: ProxyEntry | null;
  maxBytes: number;
  abort: Abortable;
  /** A flow's cookie jar: its cookies are sent on every hop and every hop's Set-Cookie is stored. */
  jar?: CookieJar;
}

export interface HttpResponse {
  /** Final URL after redirects. */
  url: string;
  status: number;
  contentType: string;
  /** Headers of the final response (lower-case names). */
  headers: RawHeaders;
  body: Buffer;
  requestBytes: number;
}

export async function httpFetch(req: HttpRequest, agents: Agents, policy: NetPolicy): Promise<HttpResponse> {
  let url = checkUrl(req.url, policy);
  let method = req.method;
  let body = req.body;
  let requestBytes = 0;
  const dispatcher = agents.for(req.proxy);
  const tooLargeError = () => tooLarge(req.maxBytes);
  for (let hop = 0; ; hop++) {
    // Through a proxy the proxy resolves the name, so the guard resolves it first; a proxy
    // that resolves differently is a residual risk (the proxy is the operator's own).
    if (req.proxy && !policy.allowPrivate) await resolveChecked(url.hostname, policy);
    // undici may add to the headers object it is given: each hop gets its own.
    const headers = { ...req.headers };
    if (req.jar) withJarCookies(headers, req.jar, url.href);
    requestBytes += estimateRequestBytes(url, method, headers, body);
    let res;
    try {
      res = await exchange(dispatcher, {
        origin: url.origin,
        path: url.pathname + url.search,
        method,
        headers,
        body,
        abort: req.abort,
        maxBytes: req.maxBytes,
        tooLarge: tooLargeError,
      });
    } catch (err) {
      if (err instanceof GleanerError) throw err;
      throw asFetchError(err, req.abort, url);
    }
    if (req.jar) storeCookies(req.jar, res.headers['set-cookie'], url.href);
    if (res.status >= 300 && res.status < 400 && res.location !== undefined) {
      if (hop >= MAX_REDIRECTS) {
        throw new GleanerError('UPSTREAM_FAILED', `More than ${MAX_REDIRECTS} redirects.`, { final: true });
      }
      url = checkUrl(redirectTarget(res.location, url, res.status), policy);
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
      }
      continue;
    }
    return { url: url.href, status: res.status, contentType: res.contentType, headers: res.headers, body: res.body, requestBytes };
  }
}

/** Adds the jar's cookies for `url` to a `cookie` header the step may already carry. */
function withJarCookies(headers: Record<string, string>, jar: CookieJar, url: string): void {
  const fromJar = jar.getCookieStringSync(url);
  if (!fromJar) return;
  const own = headers.cookie ?? headers.Cookie;
  delete headers.Cookie;
  headers.cookie = own ? `${own}; ${fromJar}` : fromJar;
}

/** Keeps what the upstream sets; a malformed cookie is ignored, as a browser would. */
function storeCookies(jar: CookieJar, setCookie: string | string[] | undefined, url: string): void {
  if (setCookie === undefined) return;
  for (const line of Array.isArray(setCookie) ? setCookie : [setCookie]) {
    try {
      jar.setCookieSync(line, url, { ignoreError: true });
    } catch {
      // ignored: a cookie the jar refuses (bad domain, bad syntax) is not the page's failure
    }
  }
}

function tooLarge(max: number): GleanerError {
  return new GleanerError('RESPONSE_TOO_LARGE', `The upstream response is larger than ${max} bytes.`, { maxBytes: max });
}

/** Maps a thrown value to the farm's codes: abort reason, refusal, else a retryable upstream failure. */
function asFetchError(err: unknown, abort: Abortable, url: URL): GleanerError {
  if (abort.aborted && abort.reason instanceof GleanerError) return abort.reason;
  const refusal = refusalIn(err);
  if (refusal) return refusal;
  const code = (err as { code?: unknown })?.code;
  return new GleanerError('UPSTREAM_FAILED', `Fetching ${url.host} failed${typeof code === 'string' ? ` (${code})` : ''}.`);
}

function estimateRequestBytes(url: URL, method: string, headers: Record<string, string>, body: string | undefined): number {
  let n = method.length + url.pathname.length + url.search.length + 12 + url.host.length + 8;
  for (const [k, v] of Object.entries(headers)) n += k.length + v.length + 4;
  return n + (body ? Buffer.byteLength(body) : 0);
}
