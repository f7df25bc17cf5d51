/**
 * One request of a flow on the farm's two network paths: the plain-HTTP path (wreq-js, with the
 * flow's cookie jar) and the browser path (a page in a context of this worker's browser, with
 * the jar's cookies). Both check every hop against the SSRF policy and honour the abort.
 */
import type { CookieJar } from 'tough-cookie';
import { GleanerError } from '../../core/errors.js';
import type { Browser } from 'patchright-core';
import type { BrowserCookie, ContextWish, Lease } from '../browser/context-lease.js';
import { render } from '../browser/render.js';
import type { Tab } from '../browser/tab.js';
import type { BrowserProfile } from '../identity/profile.js';
import type { TaskMessage } from '../messages.js';
import { decodeBody } from '../net/decode.js';
import type { RawHeaders } from '../net/fetcher.js';
import { requestHeaders } from '../identity/headers.js';
import { httpFetch } from '../net/fetcher.js';
import type { GuardProxy } from '../net/guard-proxy.js';
import type { ProxyEntry } from '../net/proxies.js';
import { checkUrl } from '../net/ssrf.js';
import type { TaskAbort } from './abort.js';
import { cookieKeyOf } from './browser-cookies.js';
import type { WorkerEnv } from './env.js';
import type { FetchedPage } from './outputs.js';

export interface PageRequest {
  url: string;
  method: 'GET' | 'POST';
  headers: Readonly<Record<string, string>> | undefined;
  body: string | undefined;
  /** Answer a 3xx as it is (a crawl's page on the plain path: the crawl takes its target in itself). */
  manualRedirects?: boolean;
}

/** A fetched response with its headers, for a flow's readers and check. */
export interface Fetched extends FetchedPage {
  headers: RawHeaders;
}

export async function httpPage(
  env: WorkerEnv,
  req: PageRequest,
  proxy: ProxyEntry | null,
  profile: BrowserProfile,
  abort: TaskAbort,
  jar: CookieJar | undefined,
  /** The response cap: the per-response cap or what is left of the task's budget (budget.ts). */
  maxBytes: number,
): Promise<Fetched> {
  const res = await httpFetch(
    {
      url: req.url,
      method: req.method,
      // Per hop: the jar's cookies for that URL go where Chrome puts them.
      headers: (hop, cookie) => requestHeaders(profile, { method: hop.method, url: hop.url, headers: req.headers, cookie }),
      body: req.body,
      proxy,
      maxBytes,
      abort,
      jar,
      ...(req.manualRedirects ? { manualRedirects: true } : {}),
    },
    env.transports,
    env.policy,
  );
  const decoded = decodeBody(res.body, res.contentType);
  return {
    url: res.url,
    status: res.status,
    headers: res.headers,
    body: decoded.text,
    isHtml: decoded.isHtml,
    binary: decoded.binary,
    screenshot: null,
    runJs: false,
    requestBytes: res.requestBytes,
    responseBytes: res.body.length,
  };
}

export interface RenderOptions {
  screenshot: boolean;
  /** The flow's cookies for the page's URL; the context is chosen by them (see ContextPool). */
  cookies: readonly BrowserCookie[];
  /** The response cap: the per-response cap or what is left of the task's budget (budget.ts). */
  maxBytes: number;
}

export interface OpenedLease {
  lease: Lease;
  browser: Browser;
  guard: GuardProxy | undefined;
  /** The error that reports the browser as lost (the pool then replaces it). */
  lost: (message: string) => GleanerError;
  ref: TaskMessage['browser'];
}

/**
 * A context of this worker's browser for one page, through the guard proxy of `proxy` (private
 * addresses refused) and the context pool (pages capped per worker, memory gate). Shared by
 * rendered pages and browser scripts.
 */
export async function openLease(
  msg: TaskMessage,
  env: WorkerEnv,
  proxy: ProxyEntry | null,
  profile: BrowserProfile,
  extra: Pick<ContextWish, 'cookies' | 'cookieKey' | 'storageState' | 'kind'>,
  signal: AbortSignal,
): Promise<OpenedLease> {
  // Shared mode: the pool names the node's browser server; per-worker mode: this thread's own.
  const ref = msg.browser;
  const lost = (message: string) => new GleanerError('BROWSER_CRASHED', message, ref ? { wsEndpoint: ref.wsEndpoint } : undefined);
  const browser = await (ref ? env.link.get(ref) : env.local.get()).catch((err: unknown) => {
    throw ref || !(err instanceof GleanerError) ? lost('The browser could not be reached.') : err;
  });
  const browserPid = ref ? ref.pid : env.local.currentPid;
  const guard = env.policy.allowPrivate ? undefined : await env.guards.get(proxy);
  try {
    const lease = await env.contexts.acquire({ browser, browserPid, profile, proxy, guardUrl: guard?.url, ...extra }, signal);
    return { lease, browser, guard, lost, ref };
  } catch (err) {
    if (signal.aborted) throw signal.reason;
    if (!browser.isConnected()) throw lost('The browser went away before the page opened.');
    throw err instanceof GleanerError ? err : new GleanerError('INTERNAL_ERROR', 'A browser context could not be opened.');
  }
}

export async function renderPage(
  msg: TaskMessage,
  env: WorkerEnv,
  req: PageRequest,
  proxy: ProxyEntry | null,
  profile: BrowserProfile,
  opts: RenderOptions,
  signal: AbortSignal,
): Promise<Fetched> {
  // Refused before a page opens (the in-browser guard proxy checks what the page loads after).
  checkUrl(req.url, env.policy);
  const cookieKey = cookieKeyOf(opts.cookies);
  const { lease, browser, guard, lost, ref } = await openLease(msg, env, proxy, profile, { cookies: opts.cookies, cookieKey }, signal);
  let ok = false;
  let tab: Tab | undefined;
  try {
    const rendered = await render(lease.context, lease.page, {
      url: req.url,
      headers: req.headers ? { ...req.headers } : undefined,
      screenshot: opts.screenshot,
      maxBytes: opts.maxBytes,
      deadline: msg.task.deadline,
      quietMaxMs: env.setup.limits.quietMaxMs,
      signal,
      guard,
      profile,
    });
    ok = true;
    tab = rendered.tab;
    const r = rendered.result;
    return {
      url: r.url,
      status: r.status,
      headers: {},
      body: r.html,
      isHtml: true,
      binary: false,
      screenshot: r.screenshot,
      runJs: true,
      requestBytes: r.requestBytes,
      responseBytes: r.responseBytes,
    };
  } catch (err) {
    // Only a browser that is gone is reported as lost (the pool then replaces it); a crashed
    // tab in a live browser is retried without touching the browser and its other pages.
    if (err instanceof GleanerError && err.code === 'BROWSER_CRASHED') {
      // Per-worker: a crash may be the browser dying; let it be seen going (briefly) so the
      // pool's retry does not land on it (shared mode: the pool waits for the server instead).
      if (!ref) await env.local.settle(browser, 1000);
      if (!browser.isConnected()) throw lost(err.message);
    }
    throw err;
  } finally {
    // A page that failed (timeout, crash, refusal, upstream error) takes its context with it.
    lease.release(!ok, tab);
  }
}
