/**
 * Worker side: plain requests through Chromium's network stack (browser/nav-fetch.ts), made in a
 * fetch tab of the session's context. Which requests go this way: net/browser-net.ts.
 *
 * A fetch thread has no browser: the pool sends a task whose flows would navigate in the
 * browser to a render thread from the start (pool.ts); should one reach a fetch thread anyway,
 * it is handed back before anything is fetched (`NeedsBrowserNet`, run-task.ts).
 */
import type { CookieJar } from 'tough-cookie';
import { GleanerError } from '../../core/errors.js';
import { navFetch } from '../browser/nav-fetch.js';
import { Tab, TabRun } from '../browser/tab.js';
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
