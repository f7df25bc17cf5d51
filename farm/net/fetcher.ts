/**
 * The plain-HTTP path (`run_js: false`): one request per hop on Chrome's TLS and HTTP/2
 * (net/follow.ts, net/transports.ts), the body read under the size cap. Bodies arrive decoded
 * (gzip, deflate, br, zstd: the client inflates them, as Chrome does); the cap applies to the
 * decoded bytes as they arrive, so a compression bomb ends as RESPONSE_TOO_LARGE.
 */
import type { CookieJar } from 'tough-cookie';
import type { Response } from 'wreq-js';
import { GleanerError } from '../../core/errors.js';
import type { HeaderList } from '../identity/headers.js';
import { asFetchError, follow, type HopRequest } from './follow.js';
import type { ProxyEntry } from './proxies.js';
import type { NetPolicy } from './ssrf.js';
import type { Transports } from './transports.js';

export { MAX_REDIRECTS } from './follow.js';

/** Response headers by lower-case name (Set-Cookie as a list), as flows and checks read them. */
export type RawHeaders = Record<string, string | string[] | undefined>;

export interface HttpRequest {
  url: string;
  method: 'GET' | 'POST';
  /** The headers of a hop, in order (identity/headers.ts); `cookie` is the jar's for that hop. */
  headers: (hop: HopRequest, cookie: string | undefined) => HeaderList;
  body?: string;
  proxy: ProxyEntry | null;
  maxBytes: number;
  /** The task's abort (deadline, cancel). */
  abort: { readonly signal: AbortSignal };
  /** A flow's cookie jar: its cookies are sent on every hop and every hop's Set-Cookie is stored. */
  jar?: CookieJar;
  /** A 3xx is answered as it is, not followed (crawl pages). */
  manualRedirects?: boolean;
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

export async function httpFetch(req: HttpRequest, transports: Transports, policy: NetPolicy): Promise<HttpResponse> {
  const signal = req.abort.signal;
  const got = await follow({ ...req, body: req.body, signal, jar: req.jar }, transports, policy);
  const url = new URL(got.url);
  let body: Buffer;
  try {
    body = await readCapped(got.response, req.maxBytes);
  } catch (err) {
    throw asFetchError(err, signal, url);
  }
  const headers = rawHeaders(got.response);
  return { url: got.url, status: got.response.status, contentType: first(headers['content-type']) ?? '', headers, body, requestBytes: got.requestBytes };
}

/** The body, failing with RESPONSE_TOO_LARGE as soon as more than `max` bytes are declared or received. */
export async function readCapped(res: Response, max: number): Promise<Buffer> {
  if (res.contentLength !== null && res.contentLength > max) {
    await res.body?.cancel().catch(() => undefined);
    throw tooLarge(max);
  }
  const stream = res.body;
  if (!stream) return Buffer.alloc(0);
  const reader = stream.getReader();
  const chunks: Buffer[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(max);
    }
    chunks.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
  }
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
}

export function rawHeaders(res: Response): RawHeaders {
  const out: RawHeaders = {};
  for (const [name, value] of res.headers) {
    if (name === 'set-cookie') continue;
    const had = out[name];
    out[name] = had === undefined ? value : `${had}, ${value}`;
  }
  const cookies = res.headers.getSetCookie();
  if (cookies.length) out['set-cookie'] = cookies;
  return out;
}

/** The first value of a response header (Set-Cookie is a list). */
export function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

/** RESPONSE_TOO_LARGE for a response over `max` bytes, on every path (plain, browser network, render). */
export function tooLarge(max: number): GleanerError {
  return new GleanerError('RESPONSE_TOO_LARGE', `The upstream response is larger than ${max} bytes.`, { maxBytes: max });
}
