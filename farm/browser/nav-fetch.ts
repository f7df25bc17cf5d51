/**
 * Worker side: a plain page fetched by Chromium's own network stack (issue #20). The tab
 * navigates to the URL as a person's Chrome would — its TLS ClientHello, HTTP/2 frames and
 * navigation headers are the browser's own, byte for byte — and the tab's protocol session
 * intercepts the main-frame document response (CDP `Fetch`, response stage), reads its body
 * (decoded, as the network service hands it over) and fails the navigation before anything is
 * committed: no document is parsed, no script runs, no subresource is requested.
 *
 * - Redirects are followed by the browser (each hop paused, recorded, continued) up to
 *   MAX_REDIRECTS; with `manualRedirects` a 3xx is answered as it is (a crawl's page).
 * - The body is capped at `maxBytes`: a declared length over it fails at once; otherwise it is
 *   read as a stream and the read stops past the cap (a compression bomb included: the stream
 *   carries decoded bytes).
 * - Chrome's HTTP cache would answer a repeated URL without asking the site: every hop whose
 *   response the cache could keep is noted, and a fetch of a noted URL empties the context's
 *   cache first (http-cache.ts), so every fetch goes to the site.
 * - Failures: the deadline or a cancel (the signal's reason), the guard proxy's refusal
 *   (TARGET_FORBIDDEN), net errors (UPSTREAM_FAILED with Chrome's `net::ERR_…` name).
 * - Every host the navigation goes to (the URL's, each redirect's target) is added to the tab
 *   run's `navHosts`, so that a failure the guard proxy caused can be named (nav-page.ts): the
 *   library's request events are off on fetch tabs (tab.ts).
 *
 * Concurrency: one fetch per tab at a time (the tab is leased); the listeners are removed on
 * every way out, so a late protocol event of a finished fetch is ignored.
 */
import { GleanerError } from '../../core/errors.js';
import { first, tooLarge, type RawHeaders } from '../net/fetcher.js';
import { MAX_REDIRECTS } from '../net/follow.js';
import { REFUSED_HEADER } from '../net/guard-proxy.js';
import { forgetIfCached, mayBeCached, noteCached } from './http-cache.js';
import { hostOf, type Tab } from './tab.js';

/** What this module reads of CDP's `Fetch.requestPaused` (the library does not export the protocol's types). */
interface HeaderEntry {
  name: string;
  value: string;
}
interface Paused {
  requestId: string;
  frameId: string;
  resourceType: string;
  request: { url: string };
  responseStatusCode?: number;
  responseErrorReason?: string;
  responseHeaders?: HeaderEntry[];
}

export interface NavFetchRequest {
  url: string;
  /** Extra request headers (a flow step's own), set on the tab for this fetch. */
  headers: Record<string, string> | undefined;
  maxBytes: number;
  manualRedirects: boolean;
  signal: AbortSignal;
}

export interface NavFetchResult {
  /** The URL of the response returned (after the browser's redirects). */
  url: string;
  status: number;
  headers: RawHeaders;
  body: Buffer;
  /** Every URL requested, redirects included (cookies are read back for them). */
  hops: string[];
  requestBytes: number;
}

/** IO.read chunk: large enough that a typical page is one read. */
const READ_SIZE = 1 << 20;

export async function navFetch(tab: Tab, req: NavFetchRequest): Promise<NavFetchResult> {
  const { cdp } = tab;
  await tab.prepare(true, req.headers);
  await forgetIfCached(tab.page.context(), cdp, req.url);
  tab.run?.navHosts.add(hostOf(req.url));
  const hops: string[] = [];
  // Set once a paused response is being taken or refused: the navigation then fails by our
  // hand (net::ERR_ABORTED), which may be reported before that handling settles.
  const state = { taking: false };
  let done = false;
  let onPaused: (e: Paused) => void = () => undefined;
  let onAbort: () => void = () => undefined;
  try {
    const result = await new Promise<NavFetchResult>((resolve, reject) => {
      const fail = (err: unknown) => {
        done = true;
        reject(err);
      };
      onAbort = () => fail(req.signal.reason);
      if (req.signal.aborted) return onAbort();
      req.signal.addEventListener('abort', onAbort, { once: true });
      onPaused = (e) => {
        if (done) return;
        // Not this tab's main frame (an old document's frames of a reused tab): let it be.
        if (e.frameId !== tab.mainFrameId || e.resourceType !== 'Document') {
          void cdp.send('Fetch.continueRequest', { requestId: e.requestId }).catch(() => undefined);
          return;
        }
        void onResponse(tab, req, e, hops, state).then(
          (out) => {
            if (done) return;
            if (out === 'continue') return;
            done = true;
            resolve(out);
          },
          fail,
        );
      };
      cdp.on('Fetch.requestPaused', onPaused);
      cdp.send('Page.navigate', { url: req.url }).then(
        // The navigation ends (fails) when the response is taken; an error before it is the fetch's.
        (nav) => {
          if (!done && !state.taking && nav.errorText) fail(navError(nav.errorText, hops.length ? hops : [req.url]));
        },
        fail,
      );
    });
    return result;
  } finally {
    done = true;
    cdp.off('Fetch.requestPaused', onPaused);
    req.signal.removeEventListener('abort', onAbort);
  }
}

/** One paused document response: a redirect to follow, or the response to return. */
async function onResponse(tab: Tab, req: NavFetchRequest, e: Paused, hops: string[], state: { taking: boolean }): Promise<NavFetchResult | 'continue'> {
  const { cdp } = tab;
  const requestId = e.requestId;
  hops.push(e.request.url);
  const redirect = e.responseStatusCode !== undefined && e.responseStatusCode >= 300 && e.responseStatusCode < 400 && hasLocation(e.responseHeaders);
  state.taking = !redirect || req.manualRedirects || hops.length > MAX_REDIRECTS;
  if (e.responseErrorReason) state.taking = false;
  if (e.responseErrorReason || e.responseStatusCode === undefined) {
    // A network failure (a certificate, a reset): let it end the navigation, whose error names
    // it precisely (net::ERR_CERT_AUTHORITY_INVALID; the pause says only "Failed").
    state.taking = false;
    await cdp.send('Fetch.continueRequest', { requestId }).catch(() => undefined);
    return 'continue';
  }
  const status = e.responseStatusCode;
  const headers = rawHeaders(e.responseHeaders ?? []);
  const cacheable = mayBeCached(status, headers);
  if (cacheable) {
    noteCached(tab.page.context(), e.request.url);
    // The chain's first URL too: fetching it again must not meet a kept hop (a 301) on the way.
    noteCached(tab.page.context(), hops[0]!);
  }
  if (headers[REFUSED_HEADER] !== undefined) {
    await cdp.send('Fetch.failRequest', { requestId, errorReason: 'Aborted' }).catch(() => undefined);
    const host = hostOf(e.request.url);
    throw new GleanerError('TARGET_FORBIDDEN', `The target ${host} is not allowed: it resolves to a private or reserved address.`, { host });
  }
  const requestBytes = e.request.url.length + 600;
  if (redirect && !req.manualRedirects) {
    if (hops.length > MAX_REDIRECTS) {
      await cdp.send('Fetch.failRequest', { requestId, errorReason: 'Aborted' }).catch(() => undefined);
      throw new GleanerError('UPSTREAM_FAILED', `More than ${MAX_REDIRECTS} redirects.`, { final: true });
    }
    const next = locationOf(e.request.url, e.responseHeaders);
    if (next) tab.run?.navHosts.add(hostOf(next));
    await cdp.send('Fetch.continueRequest', { requestId });
    return 'continue';
  }
  let body: Buffer;
  try {
    body = redirect ? Buffer.alloc(0) : await readBody(tab, requestId, headers, req.maxBytes);
  } finally {
    // Taken or refused, the navigation ends here: nothing is committed.
    await cdp.send('Fetch.failRequest', { requestId, errorReason: 'Aborted' }).catch(() => undefined);
  }
  if (cacheable) noteCached(tab.page.context(), e.request.url, body.length);
  return { url: e.request.url, status, headers, body, hops, requestBytes: requestBytes * hops.length };
}

async function readBody(tab: Tab, requestId: string, headers: RawHeaders, max: number): Promise<Buffer> {
  const declared = Number(first(headers['content-length']) ?? NaN);
  if (declared > max) throw tooLarge(max);
  // A known, uncompressed length within the cap is read in one call; anything else as a stream.
  if (Number.isFinite(declared) && headers['content-encoding'] === undefined) {
    const got = await tab.cdp.send('Fetch.getResponseBody', { requestId });
    const body = got.base64Encoded ? Buffer.from(got.body, 'base64') : Buffer.from(got.body);
    if (body.length > max) throw tooLarge(max);
    return body;
  }
  const { stream } = await tab.cdp.send('Fetch.takeResponseBodyAsStream', { requestId });
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for (;;) {
      const part = await tab.cdp.send('IO.read', { handle: stream, size: READ_SIZE });
      const chunk = part.base64Encoded ? Buffer.from(part.data, 'base64') : Buffer.from(part.data);
      size += chunk.length;
      if (size > max) throw tooLarge(max);
      if (chunk.length) chunks.push(chunk);
      if (part.eof) break;
    }
  } finally {
    await tab.cdp.send('IO.close', { handle: stream }).catch(() => undefined);
  }
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
}

/**
 * `net::ERR_…` of a failed navigation as the farm's error, worded as the native client's
 * (net/follow.ts: the host and a short cause, no address); a refusal by the guard is named by the caller.
 */
export function navError(errorText: string, hops: readonly string[]): GleanerError {
  const name = /net::(ERR_[A-Z_0-9]+)/.exec(errorText)?.[1] ?? 'ERR_FAILED';
  const host = hostOf(hops[hops.length - 1] ?? '');
  const cause = /CERT|SSL/.test(name)
    ? 'certificate not trusted'
    : /TIMED_OUT/.test(name)
      ? 'timeout'
      : /NAME_NOT_RESOLVED|NAME_RESOLUTION/.test(name)
        ? 'name not resolved'
        : /CONNECTION|ADDRESS|TUNNEL|PROXY/.test(name)
          ? 'connection failed'
          : 'network error';
  return new GleanerError('UPSTREAM_FAILED', `Fetching ${host} failed (${cause}, ${name}).`);
}

function rawHeaders(list: readonly HeaderEntry[]): RawHeaders {
  const out: RawHeaders = {};
  const cookies: string[] = [];
  for (const { name, value } of list) {
    const key = name.toLowerCase();
    if (key === 'set-cookie') {
      cookies.push(...value.split('\n'));
      continue;
    }
    const had = out[key];
    out[key] = had === undefined ? value : `${had as string}, ${value}`;
  }
  if (cookies.length) out['set-cookie'] = cookies;
  return out;
}

function hasLocation(list: readonly HeaderEntry[] | undefined): boolean {
  return list?.some((h) => h.name.toLowerCase() === 'location') === true;
}

/** A redirect's target, resolved against the URL that answered it (undefined if unusable). */
function locationOf(from: string, list: readonly HeaderEntry[] | undefined): string | undefined {
  const value = list?.find((h) => h.name.toLowerCase() === 'location')?.value;
  try {
    return value === undefined ? undefined : new URL(value, from).href;
  } catch {
    return undefined;
  }
}
