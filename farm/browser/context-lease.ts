/**
 * The context pool's contract with its callers: what a task asks for (`ContextWish`), what it
 * gets back (`Lease`), and how a wish becomes a Playwright context (the identity's options; the
 * local guard proxy when private addresses are refused, else the attempt's upstream, else
 * direct; a signed-in storage state; the cookies a flow gathered). Separate from the pool
 * (contexts.ts), which only decides when a context is made, shared, retired and closed; the
 * callers that build wishes (worker/page-fetch.ts, browser-script.ts, browser-cookies.ts) need
 * these types without the pool.
 */
import type { Browser, BrowserContext } from 'patchright-core';
import type { BrowserProfile } from '../identity/profile.js';
import type { ProxyEntry } from '../net/proxies.js';
import { contextOptions } from './identity.js';
import type { Tab, TabKind } from './tab.js';

export interface Lease {
  context: BrowserContext;
  /** A parked page of this context to navigate again, if there is one (the lease owns it now). */
  page: Tab | undefined;
  /**
   * Give the context back; `discard` closes it (timed-out, crashed or refused page). `tab`, on
   * success, is parked for reuse.
   */
  release(discard: boolean, tab?: Tab): void;
}

export interface ContextWish {
  browser: Browser;
  browserPid: number | undefined;
  /** The session's identity: contexts are keyed by it (one context never mixes two). */
  profile: BrowserProfile;
  /** The upstream proxy of this attempt (null: direct). */
  proxy: ProxyEntry | null;
  /** The local guard proxy to route through instead (private addresses refused). */
  guardUrl: string | undefined;
  /**
   * Cookies a flow gathered before this page (a session), added when the context is made. The
   * context is keyed by `cookieKey` too: a context is shared only by pages with the same cookies,
   * never handed to another session while this one's pages run in it.
   */
  cookies?: readonly BrowserCookie[];
  cookieKey?: string;
  /** A signed-in storage state (cookies, local storage) the context starts from; give it a unique `cookieKey`. */
  storageState?: BrowserStorageState;
  /**
   * What the page is for (default `render`). Fetch tabs (browser/nav-fetch.ts) take no page
   * budget: they hold a network request, not a document, so they have their own, larger cap
   * (`FETCH_TABS_PER_PAGE` per page of the budget, contexts.ts).
   */
  kind?: TabKind;
}

export type BrowserCookie = Parameters<BrowserContext['addCookies']>[0][number];
export type BrowserStorageState = Exclude<NonNullable<Parameters<Browser['newContext']>[0]>['storageState'], string | undefined>;

/**
 * A new context for the wish, its cookies added. A context whose cookies are refused is closed
 * before the error goes up, so a failed creation leaves nothing open in the browser.
 */
export async function contextFor(wish: ContextWish): Promise<BrowserContext> {
  const proxy = wish.guardUrl
    ? { server: wish.guardUrl }
    : wish.proxy
      ? { server: wish.proxy.server, username: wish.proxy.username, password: wish.proxy.password }
      : undefined;
  const context = await wish.browser.newContext({
    ...contextOptions(wish.profile),
    acceptDownloads: false,
    proxy,
    ...(wish.storageState ? { storageState: wish.storageState } : {}),
  });
  if (wish.cookies?.length) {
    try {
      await context.addCookies([...wish.cookies]);
    } catch (err) {
      await context.close().catch(() => undefined);
      throw err;
    }
  }
  return context;
}
