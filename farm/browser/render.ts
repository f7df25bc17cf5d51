/**
 * Worker side: one page rendered in a browser context. Waits for `load`, then for network quiet
 * (Playwright's `networkidle`: no request for 500 ms) up to `quietMaxMs`, all within the task
 * deadline. Media and fonts are blocked at the protocol level (CDP `Network.setBlockedURLs` on
 * the tab's CDP session) unless a screenshot is wanted: measured cheaper than `page.route`,
 * which sends every request through Node. The page is a `Tab` reused across tasks of its
 * context when it rendered successfully (see tab.ts).
 */
import type { BrowserContext, Response } from 'patchright-core';
import { GleanerError } from '../../core/errors.js';
import { tooLarge } from '../net/fetcher.js';
import { REFUSED_HEADER, type GuardProxy } from '../net/guard-proxy.js';
import type { BrowserProfile } from '../identity/profile.js';
import { forgetIfCached, noteCached } from './http-cache.js';
import { Tab, TabRun, hostOf } from './tab.js';

export { BLOCKED_PATTERNS } from './tab.js';

export interface RenderRequest {
  url: string;
  headers: Record<string, string> | undefined;
  screenshot: boolean;
  maxBytes: number;
  deadline: number;
  quietMaxMs: number;
  signal: AbortSignal;
  guard: GuardProxy | undefined;
  /** The session's identity (the context's): what a new page presents. */
  profile: BrowserProfile;
}

export interface RenderResult {
  url: string;
  status: number;
  html: string;
  screenshot: string | null;
  requestBytes: number;
  responseBytes: number;
}

/**
 * Renders and captures, on `idle` (a page of this context that may be navigated again) or on a
 * new page. Resolves with the result and the tab, which the caller gives back for reuse; on any
 * failure the tab is closed. Throws GleanerError: the signal's reason (deadline, cancel),
 * RESPONSE_TOO_LARGE, TARGET_FORBIDDEN, BROWSER_CRASHED (retry on a new browser) or
 * UPSTREAM_FAILED (retry on another proxy).
 */
export async function render(context: BrowserContext, idle: Tab | undefined, req: RenderRequest): Promise<{ result: RenderResult; tab: Tab }> {
  let tab: Tab | undefined = idle?.reusableFor(req.url) ? idle : undefined;
  if (idle && !tab) void idle.close();
  const run = new TabRun(req.maxBytes, () => void tab?.close());
  const onAbort = () => void tab?.close();
  req.signal.addEventListener('abort', onAbort, { once: true });
  let ok = false;
  try {
    tab ??= await Tab.open(context, req.profile, req.guard !== undefined);
    // The signal may have fired while the page was opening, when there was nothing to close.
    if (req.signal.aborted) onAbort();
    tab.run = run;
    await tab.prepare(!req.screenshot, req.headers);
    await forgetIfCached(context, tab.cdp, req.url);
    const { page } = tab;
    const response = await page.goto(req.url, { waitUntil: 'load', timeout: Math.max(1, req.deadline - Date.now()) });
    if (response && response.headers()[REFUSED_HEADER] !== undefined) throw refused(response);
    // The document may now be in the context's cache: a plain fetch of it empties the cache first.
    noteCached(context, req.url);
    if (response) noteCached(context, response.url());
    const quiet = Math.min(req.quietMaxMs, req.deadline - Date.now() - 250);
    if (quiet > 0) await page.waitForLoadState('networkidle', { timeout: quiet }).catch(() => undefined);
    const html = await page.content();
    if (run.tooLarge || Buffer.byteLength(html) > req.maxBytes) throw tooLarge(req.maxBytes);
    const screenshot = req.screenshot
      ? (await page.screenshot({ fullPage: true, type: 'png', timeout: Math.max(1, req.deadline - Date.now()) })).toString('base64')
      : null;
    ok = true;
    const result = { url: page.url(), status: response?.status() ?? 200, html, screenshot, requestBytes: run.requestBytes, responseBytes: run.responseBytes };
    return { result, tab };
  } catch (err) {
    throw classify(err, { context, req, run });
  } finally {
    if (tab) tab.run = undefined;
    req.signal.removeEventListener('abort', onAbort);
    // A page that failed is never reused (its context is retired by the caller too).
    if (!ok && tab) await Promise.race([tab.close(), new Promise((r) => setTimeout(r, 2000).unref())]);
  }
}

function refused(response: Response): GleanerError {
  const host = hostOf(response.url());
  return new GleanerError('TARGET_FORBIDDEN', `The target ${host} is not allowed: it resolves to a private or reserved address.`, { host });
}


interface Facts {
  context: BrowserContext;
  req: RenderRequest;
  run: TabRun;
}

function classify(err: unknown, f: Facts): GleanerError {
  if (err instanceof GleanerError) return err;
  if (f.run.tooLarge) return tooLarge(f.req.maxBytes);
  if (f.req.signal.aborted) {
    const reason: unknown = f.req.signal.reason;
    return reason instanceof GleanerError ? reason : new GleanerError('REQUEST_FAILED_SCRAPE_TIMEOUT');
  }
  const browser = f.context.browser();
  if (f.run.crashed || (browser && !browser.isConnected())) {
    return new GleanerError('BROWSER_CRASHED', 'The browser crashed while rendering the page.');
  }
  const message = err instanceof Error ? err.message : String(err);
  if (f.req.guard) {
    for (const host of f.run.navHosts) {
      if (f.req.guard.wasRefused(host)) {
        return new GleanerError('TARGET_FORBIDDEN', `The target ${host} is not allowed: it resolves to a private or reserved address.`, { host });
      }
    }
  }
  if (Date.now() >= f.req.deadline - 5 || (err instanceof Error && err.name === 'TimeoutError' && Date.now() >= f.req.deadline - 50)) {
    return new GleanerError('REQUEST_FAILED_SCRAPE_TIMEOUT');
  }
  if (/Download is starting/i.test(message)) {
    return new GleanerError('UPSTREAM_FAILED', 'The target starts a download, which the browser does not accept; fetch it without run_js.', { final: true });
  }
  if (/Target (page, context or browser )?(has been )?closed|Browser (has been )?closed/i.test(message)) {
    return new GleanerError('BROWSER_CRASHED', 'The browser page was closed while rendering.');
  }
  const net = /net::(ERR_[A-Z_]+)/.exec(message)?.[1];
  return new GleanerError('UPSTREAM_FAILED', `Rendering failed${net ? ` (${net})` : ''}.`, undefined, { cause: err });
}
