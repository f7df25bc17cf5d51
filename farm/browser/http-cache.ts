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
 * Concurrency hazard: two tabs of one context fetching the same URL at the same moment can
 * still meet in the cache (the second starts before the first's response is noted); the same
 * race existed with a clear after every response. The set is per context, held weakly, and
 * bounded: past MAX_NOTED URLs the next fetch clears the cache and starts a new set.
 */
import type { BrowserContext, CDPSession } from 'patchright-core';
import { first, type RawHeaders } from '../net/fetcher.js';

const MAX_NOTED = 4096;

/** Statuses RFC 9111 lets a cache store without explicit freshness (heuristically cacheable). */
const STORABLE = new Set([200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]);

interface Noted {
  urls: Set<string>;
  overflow: boolean;
}

const byContext = new WeakMap<BrowserContext, Noted>();

function notedOf(context: BrowserContext): Noted {
  let n = byContext.get(context);
  if (!n) byContext.set(context, (n = { urls: new Set(), overflow: false }));
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

/** Records that `context`'s cache may now answer `url`. */
export function noteCached(context: BrowserContext, url: string): void {
  const n = notedOf(context);
  if (n.urls.size >= MAX_NOTED) n.overflow = true;
  else n.urls.add(cacheKey(url));
}

/** Empties `context`'s cache (through a page's session) if it may answer `url`; never rejects. */
export async function forgetIfCached(context: BrowserContext, cdp: CDPSession, url: string): Promise<void> {
  const n = byContext.get(context);
  if (!n || (!n.overflow && !n.urls.has(cacheKey(url)))) return;
  n.urls.clear();
  n.overflow = false;
  await cdp.send('Network.clearBrowserCache').catch(() => undefined);
}
