/**
 * Worker side: which plain requests Chromium's network stack makes, and making them
 * (browser/nav-fetch.ts) in a fetch tab of the session's context.
 *
 * `GLEANER_PLAIN_CLIENT` (core/config.ts, README "What a site sees"):
 * - `auto` (default): a navigation (a GET with Chrome's navigation headers) to an `https://`
 *   URL goes through the browser when the browser is full Chromium. That is where the native
 *   client differs from Chrome at all: its TLS ClientHello lacks what Chrome 156 adds (README
 *   "The TLS gap"); over cleartext HTTP its request is Chrome's, header for header, so it keeps
 *   the native client's speed. The headless shell's own ClientHello is no closer to Chrome's
 *   than the native client's, so with the shell `auto` is `native`.
 * - `chromium`: every http(s) navigation through the browser.
 * - `native`: never (the wreq-js client: fastest, JA4 of Chrome ≤ 155).
 * A script's fetch() (JSON calls, POST bodies) and media ranges always use the native client:
 * a real page would make those from its own scripts, not as navigations.
 *
 * A fetch thread has no browser: a task whose flows would navigate in the browser is sent to a
 * render thread before anything is fetched (`NeedsBrowserNet`, run-task.ts, pool.ts).
 */
import type { CookieJar } from 'tough-cookie';
import { GleanerError } from '../../core/errors.js';
import type { Flow } from '../../core/targets/flow.js';
import { isHeadlessShell } from '../chromium-args.js';
import { navFetch } from '../browser/nav-fetch.js';
import { Tab, TabRun } from '../browser/tab.js';
import { kindOf } from '../identity/headers.js';
import type { BrowserProfile } from '../identity/profile.js';
import type { TaskMessage, WorkerSetup } from '../messages.js';
import { decodeBody } from '../net/decode.js';
import type { ProxyEntry } from '../net/proxies.js';
import { checkUrl } from '../net/ssrf.js';
import { browserCookies, cookieKeyOf, storeBrowserCookies, tabCookies, withoutCookieHeader } from './browser-cookies.js';
import type { WorkerEnv } from './env.js';
import { openLease, type Fetched, type PageRequest } from './page-fetch.js';

/** The task's flows would navigate in the browser, and this thread has none: run it in a render thread. */
export class NeedsBrowserNet extends Error {
  constructor() {
    super('plain navigations of this task go through the browser');
  }
}

/** Whether Chromium's network stack makes this request (see the file comment). */
export function navigatesInBrowser(setup: WorkerSetup, req: Pick<PageRequest, 'url' | 'method' | 'headers'>): boolean {
  const mode = setup.config.plainClient;
  if (mode === 'native' || req.method !== 'GET' || kindOf(req) !== 'navigate') return false;
  if (mode === 'chromium') return /^https?:/i.test(req.url);
  return /^https:/i.test(req.url) && !isHeadlessShell(setup.browserLaunch.executablePath);
}

/** Whether any fetch step of `flow` would (decided on its URL template: a built URL stays native). */
export function flowNavigatesInBrowser(setup: WorkerSetup, flow: Flow): boolean {
  return flow.steps.some((s) => s.kind === 'fetch' && typeof s.url === 'string' && navigatesInBrowser(setup, { url: s.url, method: s.method ?? 'GET', headers: s.headers }));
}

export interface NavPageOptions {
  jar: CookieJar;
  maxBytes: number;
  manualRedirects: boolean;
  /**
   * Whether the flow reads its jar after this page (flow-attempt.ts): only then are the cookies
   * the browser stored read back into it (a protocol call per page; the context keeps them anyway).
   */
  jarReadAfter: boolean;
}

/** A plain page through the browser's network stack, as the flow's `Fetched` (not rendered: `runJs` false). */
export async function navPage(
  msg: TaskMessage,
  env: WorkerEnv,
  req: PageRequest,
  proxy: ProxyEntry | null,
  profile: BrowserProfile,
  opts: NavPageOptions,
  signal: AbortSignal,
): Promise<Fetched> {
  checkUrl(req.url, env.policy);
  const cookies = browserCookies(opts.jar, req);
  const { lease, browser, guard, lost } = await openLease(msg, env, proxy, profile, { cookies, cookieKey: cookieKeyOf(cookies), kind: 'fetch' }, signal);
  let tab = lease.page?.reusableFor(req.url, 'fetch') ? lease.page : undefined;
  if (lease.page && !tab) void lease.page.close();
  const run = new TabRun(opts.maxBytes, () => void tab?.close());
  let ok = false;
  try {
    tab ??= await Tab.open(lease.context, profile, guard !== undefined, 'fetch');
    tab.run = run;
    const clean = withoutCookieHeader(req);
    const got = await navFetch(tab, { url: req.url, headers: clean.headers ? { ...clean.headers } : undefined, maxBytes: opts.maxBytes, manualRedirects: opts.manualRedirects, signal });
    // What the browser stored from every hop's Set-Cookie goes to the flow's jar (the
    // protocol's response headers leave Set-Cookie out; the browser's store has them parsed).
    if (opts.jarReadAfter) await storeBrowserCookies(opts.jar, await tabCookies(tab, got.hops));
    ok = true;
    const decoded = decodeBody(got.body, String(got.headers['content-type'] ?? ''));
    return {
      url: got.url,
      status: got.status,
      headers: got.headers,
      body: decoded.text,
      isHtml: decoded.isHtml,
      binary: decoded.binary,
      screenshot: null,
      runJs: false,
      requestBytes: got.requestBytes,
      responseBytes: got.body.length,
    };
  } catch (err) {
    if (signal.aborted) throw signal.reason;
    if (!browser.isConnected() || run.crashed) throw lost('The browser went away while fetching the page.');
    if (guard && err instanceof GleanerError && err.code === 'UPSTREAM_FAILED') {
      for (const host of run.navHosts) {
        if (guard.wasRefused(host)) throw new GleanerError('TARGET_FORBIDDEN', `The target ${host} is not allowed: it resolves to a private or reserved address.`, { host });
      }
    }
    if (err instanceof GleanerError) throw err;
    const message = err instanceof Error ? err.message : String(err);
    if (/Target (page, context or browser )?(has been )?closed|Browser (has been )?closed|Session closed/i.test(message)) throw lost('The browser page was closed while fetching.');
    throw new GleanerError('UPSTREAM_FAILED', 'Fetching the page in the browser failed.', undefined, { cause: err });
  } finally {
    if (tab) tab.run = undefined;
    // A tab whose fetch failed is not reused; its context stays (a fetch failure says nothing about it).
    if (!ok && tab) void tab.close();
    lease.release(false, ok ? tab : undefined);
  }
}
