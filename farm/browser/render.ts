/**
 * Worker side: one page rendered in a browser context. Waits for `load`, then for network quiet
 * (Playwright's `networkidle`: no request for 500 ms) up to `quietMaxMs`, all within the task
 * deadline. Media and fonts are blocked at the protocol level (CDP `Network.setBlockedURLs`,
 * one CDP session per page) unless a screenshot is wanted: measured cheaper than `page.route`,
 * which sends every request through Node.
 */
import type { BrowserContext, Page, Response } from 'playwright-core';
import { GleanerError } from '../../core/errors.js';
import { REFUSED_HEADER, type GuardProxy } from '../net/guard-proxy.js';

/** URL patterns of fonts and media (setBlockedURLs matches the whole URL; `*` is a wildcard). */
export const BLOCKED_PATTERNS: readonly string[] = [
  'woff', 'woff2', 'ttf', 'otf', 'eot',
  'mp4', 'webm', 'ogv', 'ogg', 'mp3', 'wav', 'm4a', 'm4v', 'aac', 'flac', 'mov', 'avi', 'mkv', 'm3u8', 'mpd',
].flatMap((ext) => [`*.${ext}`, `*.${ext}?*`]);

export interface RenderRequest {
  url: string;
  headers: Record<string, string> | undefined;
  screenshot: boolean;
  maxBytes: number;
  deadline: number;
  quietMaxMs: number;
  signal: AbortSignal;
  guard: GuardProxy | undefined;
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
 * Renders and captures. Throws GleanerError: the signal's reason (deadline, cancel),
 * RESPONSE_TOO_LARGE, TARGET_FORBIDDEN, BROWSER_CRASHED (retry on a new browser) or
 * UPSTREAM_FAILED (retry on another proxy).
 */
export async function render(context: BrowserContext, req: RenderRequest): Promise<RenderResult> {
  const page = await context.newPage();
  let closing: Promise<void> | undefined;
  const closePage = () => (closing ??= page.close({ runBeforeUnload: false }).catch(() => undefined));
  let crashed = false;
  let tooLarge = false;
  page.once('crash', () => {
    crashed = true;
    void closePage();
  });
  // The signal may have fired while the page was opening: a listener added now would never run.
  const onAbort = () => void closePage();
  req.signal.addEventListener('abort', onAbort, { once: true });
  if (req.signal.aborted) onAbort();
  const navHosts = new Set<string>();
  // Only needed to name a refusal by the guard; request events cost a message per request.
  if (req.guard) {
    page.on('request', (r) => {
      if (r.isNavigationRequest() && r.frame() === page.mainFrame()) navHosts.add(hostOf(r.url()));
    });
  }
  let requestBytes = 0;
  let responseBytes = 0;
  try {
    const cdp = await context.newCDPSession(page);
    const documents = new Set<string>();
    let documentBytes = 0;
    cdp.on('Network.requestWillBeSent', (e) => {
      if (e.type === 'Document') documents.add(e.requestId);
      requestBytes += e.request.url.length + 300;
    });
    cdp.on('Network.dataReceived', (e) => {
      if (!documents.has(e.requestId)) return;
      documentBytes += e.dataLength;
      if (documentBytes > req.maxBytes && !tooLarge) {
        tooLarge = true;
        void closePage();
      }
    });
    cdp.on('Network.loadingFinished', (e) => {
      responseBytes += e.encodedDataLength;
    });
    await cdp.send('Network.enable');
    if (!req.screenshot) await cdp.send('Network.setBlockedURLs', { urls: [...BLOCKED_PATTERNS] });
    if (req.headers && Object.keys(req.headers).length > 0) await page.setExtraHTTPHeaders(req.headers);

    const response = await page.goto(req.url, { waitUntil: 'load', timeout: Math.max(1, req.deadline - Date.now()) });
    if (response && response.headers()[REFUSED_HEADER] !== undefined) throw refused(response);
    const quiet = Math.min(req.quietMaxMs, req.deadline - Date.now() - 250);
    if (quiet > 0) await page.waitForLoadState('networkidle', { timeout: quiet }).catch(() => undefined);
    const html = await page.content();
    if (tooLarge || Buffer.byteLength(html) > req.maxBytes) throw tooLargeError(req.maxBytes);
    const screenshot = req.screenshot
      ? (await page.screenshot({ fullPage: true, type: 'png', timeout: Math.max(1, req.deadline - Date.now()) })).toString('base64')
      : null;
    void cdp.detach().catch(() => undefined);
    return { url: page.url(), status: response?.status() ?? 200, html, screenshot, requestBytes, responseBytes };
  } catch (err) {
    throw classify(err, { page, context, req, crashed: () => crashed, tooLarge: () => tooLarge, navHosts });
  } finally {
    req.signal.removeEventListener('abort', onAbort);
    await Promise.race([closePage(), new Promise((r) => setTimeout(r, 2000).unref())]);
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return '';
  }
}

function refused(response: Response): GleanerError {
  const host = hostOf(response.url());
  return new GleanerError('TARGET_FORBIDDEN', `The target ${host} is not allowed: it resolves to a private or reserved address.`, { host });
}

function tooLargeError(max: number): GleanerError {
  return new GleanerError('RESPONSE_TOO_LARGE', `The upstream response is larger than ${max} bytes.`, { maxBytes: max });
}

interface Facts {
  page: Page;
  context: BrowserContext;
  req: RenderRequest;
  crashed: () => boolean;
  tooLarge: () => boolean;
  navHosts: Set<string>;
}

function classify(err: unknown, f: Facts): GleanerError {
  if (err instanceof GleanerError) return err;
  if (f.tooLarge()) return tooLargeError(f.req.maxBytes);
  if (f.req.signal.aborted) {
    const reason: unknown = f.req.signal.reason;
    return reason instanceof GleanerError ? reason : new GleanerError('REQUEST_FAILED_SCRAPE_TIMEOUT');
  }
  const browser = f.context.browser();
  if (f.crashed() || (browser && !browser.isConnected())) {
    return new GleanerError('BROWSER_CRASHED', 'The browser crashed while rendering the page.');
  }
  const message = err instanceof Error ? err.message : String(err);
  if (f.req.guard) {
    for (const host of f.navHosts) {
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
  return new GleanerError('UPSTREAM_FAILED', `Rendering failed${net ? ` (${net})` : ''}.`);
}
