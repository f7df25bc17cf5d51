/**
 * The one redirect loop of the plain path, shared by page fetches (net/fetcher.ts) and ranged
 * media downloads (net/ranged.ts): each hop is checked (scheme, IP literal, the name's
 * addresses) and sent on the transport pinned to what was checked (net/transports.ts); the
 * flow's cookie jar gets every hop's Set-Cookie and gives every hop its cookies; 303 (and 301/302
 * after a POST) continue as GET without a body, as browsers do; at most MAX_REDIRECTS hops.
 *
 * Returns the final response with its body unread: the caller reads it under its own cap.
 */
import { isIP } from 'node:net';
import type { CookieJar } from 'tough-cookie';
import { fetch as wreqFetch, type Response } from 'wreq-js';
import { GleanerError } from '../../core/errors.js';
import type { HeaderList } from '../identity/headers.js';
import { wireHeaders } from './emulation.js';
import type { ProxyEntry } from './proxies.js';
import { bare, checkUrl, refusalIn, resolveChecked, type NetPolicy } from './ssrf.js';
import type { Transports } from './transports.js';

export const MAX_REDIRECTS = 10;
/** Per-hop bound of the client itself; the task's deadline (the signal) is the real one. */
const HOP_TIMEOUT_MS = 120_000;

export interface HopRequest {
  url: string;
  method: 'GET' | 'POST';
  body: string | undefined;
}

export interface FollowRequest extends HopRequest {
  /** The headers of a hop (the jar's cookies for that URL are given as `cookie`). */
  headers: (hop: HopRequest, cookie: string | undefined) => HeaderList;
  proxy: ProxyEntry | null;
  signal: AbortSignal;
  jar?: CookieJar | undefined;
  /** Return a redirect as it is instead of following it (a crawl's page: its target is a URL of the crawl). */
  manualRedirects?: boolean;
}

export interface Followed {
  url: string;
  response: Response;
  /** Requests made and their approximate bytes (redirect hops included). */
  requests: number;
  requestBytes: number;
}

export async function follow(req: FollowRequest, transports: Transports, policy: NetPolicy): Promise<Followed> {
  let hop: HopRequest = { url: checkUrl(req.url, policy).href, method: req.method, body: req.body };
  let requestBytes = 0;
  for (let n = 0; ; n++) {
    const url = new URL(hop.url);
    const address = policy.allowPrivate || isIP(bare(url.hostname)) ? undefined : (await resolveChecked(url.hostname, policy)).address;
    if (req.signal.aborted) throw abortReason(req.signal);
    const transport = await transports.for(req.proxy, url.hostname, req.proxy ? undefined : address);
    const cookie = req.jar ? req.jar.getCookieStringSync(hop.url) || undefined : undefined;
    const headers = req.headers(hop, cookie);
    requestBytes += estimateBytes(url, hop, headers);
    let response: Response;
    try {
      response = await wreqFetch(hop.url, {
        method: hop.method,
        headers: wireHeaders(headers),
        body: hop.body,
        transport,
        redirect: 'manual',
        disableDefaultHeaders: true,
        signal: req.signal,
        timeout: HOP_TIMEOUT_MS,
      });
    } catch (err) {
      throw asFetchError(err, req.signal, url);
    }
    if (req.jar) storeCookies(req.jar, response.headers.getSetCookie(), hop.url);
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || location === null || req.manualRedirects) return { url: hop.url, response, requests: n + 1, requestBytes };
    await response.body?.cancel().catch(() => undefined);
    if (n >= MAX_REDIRECTS) throw new GleanerError('UPSTREAM_FAILED', `More than ${MAX_REDIRECTS} redirects.`, { final: true });
    hop = nextHop(hop, response.status, location, policy);
  }
}

function nextHop(hop: HopRequest, status: number, location: string, policy: NetPolicy): HopRequest {
  let next: string;
  try {
    next = new URL(location, hop.url).href;
  } catch {
    throw new GleanerError('UPSTREAM_FAILED', `The target redirected to an invalid location ${JSON.stringify(location.slice(0, 200))}.`, { final: true });
  }
  const url = checkUrl(next, policy).href;
  const toGet = status === 303 || ((status === 301 || status === 302) && hop.method === 'POST');
  return toGet ? { url, method: 'GET', body: undefined } : { url, method: hop.method, body: hop.body };
}

/** Keeps what the upstream sets; a malformed cookie is ignored, as a browser would. */
function storeCookies(jar: CookieJar, lines: string[], url: string): void {
  for (const line of lines) {
    try {
      jar.setCookieSync(line, url, { ignoreError: true });
    } catch {
      // ignored: a cookie the jar refuses (bad domain, bad syntax) is not the page's failure
    }
  }
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason instanceof GleanerError ? signal.reason : new GleanerError('SERVICE_UNAVAILABLE', 'The task was cancelled.');
}

/** The abort's reason, a refusal, else a retryable upstream failure naming the client's cause. */
export function asFetchError(err: unknown, signal: AbortSignal, url: URL): unknown {
  if (signal.aborted) return abortReason(signal);
  if (err instanceof GleanerError) return err;
  const refusal = refusalIn(err);
  if (refusal) return refusal;
  return new GleanerError('UPSTREAM_FAILED', `Fetching ${url.host} failed (${causeOf(err)}).`, undefined, { cause: err });
}

/** A short, address-free cause from the client's message (`connect`, `certificate not trusted`, ...). */
function causeOf(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  if (/CERTIFICATE_VERIFY_FAILED|certificate/i.test(text)) return 'certificate not trusted';
  if (/timed? ?out/i.test(text)) return 'timeout';
  if (/dns|resolve/i.test(text)) return 'name not resolved';
  if (/connect/i.test(text)) return 'connection failed';
  if (/decod|decompress/i.test(text)) return 'body could not be decoded';
  return 'network error';
}

function estimateBytes(url: URL, hop: HopRequest, headers: HeaderList): number {
  let n = hop.method.length + url.pathname.length + url.search.length + 12 + url.host.length + 8;
  for (const [k, v] of headers) n += k.length + v.length + 4;
  return n + (hop.body ? Buffer.byteLength(hop.body) : 0);
}
