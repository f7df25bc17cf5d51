/**
 * Worker side: when a browser context's HTTP cache must be emptied before a plain fetch.
 *
 * A fetch tab (nav-fetch.ts) must ask the site every time, as the native client does; Chrome's
 * HTTP cache would answer a URL it has seen from memory, or send a conditional request
 * (`If-None-Match`), which no first navigation carries. The one switch that turns the cache
 * off, DevTools' cache bypass, adds `Pragma`/`Cache-Control: no-cache` to every request, so the
 * cache stays on and is emptied instead (`Network.clearBrowserCache`, the context's own cache).
 * Emptying it costs the browser ~7 CPU-ms (a whole browsing-data removal), more than a seventh
 * of a fetched page, so it is done only when it can matter: before a navigation to a URL this
 * context may hold (a cacheable response to a fetch or a render of it since the last clear).
 * Most fetches are of URLs never fetched before in their context and pay nothing.
 *
 * What the cache holds is bounded too: a context's in-memory cache keeps up to 50 MB
 * (Chromium's default for off-the-record profiles), so once the fetched bodies noted since the
 * last clear pass MAX_KEPT_BYTES the next fetch empties it (every ~90 pages of 87 KB: the
 * clear's cost spread thin). Past MAX_NOTED URLs likewise.
 *
 * Concurrency hazard: two tabs of one context fetching the same URL at the same moment can
 * still meet in the cache (the second starts before the first's response is noted); the same
 * race existed with a clear after every response. The notes are per context, held weakly.
 */
import type { BrowserContext, CDPSession } from 'patchright-core';
import { first, type RawHeaders } from '../net/fetcher.js';

const MAX_NOTED = 4096;
const MAX_KEPT_BYTES = 8 << 20;

/** Statuses RFC 9111 lets a cache store without explicit freshness (heuristically cacheable). */
const STORABLE = new Set([200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]);

interface Noted {
  urls: Set<string>;
  /** Bytes of the noted fetched bodies (renders count none: their pages were cached before this too). */
  bytes: number;
  overflow: boolean;
}

const byContext = new WeakMap<BrowserContext, Noted>();

function notedOf(context: BrowserContext): Noted {
  let n = byContext.get(context);
  if (!n) byContext.set(context, (n = { urls: new Set(), bytes: 0, overflow: false }));
  return n;
}

/** The cache's key for a URL, as far as a top-level navigation goes: the URL without its fragment. */
export function cacheKey(url: string): string {
  try {
    const u = new URL(url);
    u.hash = '';
    return u.href;
  } catch {
    return url;
  }
}

/** Whether Chrome's HTTP cache may have kept this response (RFC 9111's heuristics are generous). */
export function mayBeCached(status: number, headers: RawHeaders): boolean {
  if (!STORABLE.has(status)) return false;
  return !/\bno-store\b/i.test(String(first(headers['cache-control']) ?? ''));
}

/** Records that `context`'s cache may now answer `url` (with a body of `bytes`, when known). */
export function noteCached(context: BrowserContext, url: string, bytes = 0): void {
  const n = notedOf(context);
  n.bytes += bytes;
  if (n.urls.size >= MAX_NOTED || n.bytes > MAX_KEPT_BYTES) n.overflow = true;
  else n.urls.add(cacheKey(url));
}

/** Empties `context`'s cache (through a page's session) if it may answer `url`; never rejects. */
export async function forgetIfCached(context: BrowserContext, cdp: CDPSession, url: string): Promise<void> {
  const n = byContext.get(context);
  if (!n || (!n.overflow && !n.urls.has(cacheKey(url)))) return;
  n.urls.clear();
  n.bytes = 0;
  n.overflow = false;
  await cdp.send('Network.clearBrowserCache').catch(() => undefined);
}
