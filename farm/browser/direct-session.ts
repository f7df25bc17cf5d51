/**
 * Worker side: a fetch tab and the library's internals — its own protocol session driven
 * without the library's client layer (`directSession`), and the library's page model kept out
 * of its fetches (`stopLibraryInterception`, `quietLibraryNetwork`).
 *
 * The farm runs patchright-core in process: a `CDPSession` call goes through the client (an API
 * wrapper that captures and formats a stack trace per call), two `setImmediate` hops, the
 * dispatcher's validation of the parameters and of the result (an 87 KB page's text included),
 * and a progress controller that builds a `TimeoutError` per call — ~7 calls and an event per
 * plain page (nav-fetch.ts). The library's in-process connection exposes the server-side object
 * behind a client object (`connection.toImpl`, what its own in-process tooling uses); its
 * `CRSession` sends on the same protocol session with none of that.
 *
 * Only fetch tabs use it, and only in process: over `chromium.connect` (`browserMode: 'shared'`)
 * there is no `toImpl` and the client session is returned as it is. patchright-core is pinned
 * (package.json); `deps-playwright.test.ts` checks that the shape read here is still there.
 */
import type { CDPSession, Page } from 'patchright-core';

/** What this module reads of patchright-core's server-side `CRSession`. */
interface ServerSession {
  send(method: string, params?: object): Promise<unknown>;
  on(event: string, listener: (params: never) => void): unknown;
  off(event: string, listener: (params: never) => void): unknown;
}

interface ProtocolErrorShape {
  type?: string;
}

/** What this module reads of patchright-core's server-side page (`CRPage` behind `Page.delegate`). */
interface ServerPage {
  delegate?: {
    _mainFrameSession?: { _client?: Partial<ServerSession> };
    _networkManager?: { _protocolRequestInterceptionEnabled?: unknown };
  };
}

/** The server-side object behind a client object of the in-process connection, or undefined. */
function implOf(client: unknown): unknown {
  const connection = (client as { _connection?: { toImpl?: (x: unknown) => unknown } })._connection;
  return connection?.toImpl?.(client);
}

/** `raw` if it has the session methods this module calls. */
function asSession(raw: Partial<ServerSession> | undefined): ServerSession | undefined {
  if (!raw || typeof raw.send !== 'function' || typeof raw.on !== 'function' || typeof raw.off !== 'function') return undefined;
  return raw as ServerSession;
}

/** The server side of `session` (in process), or undefined. */
export function serverSessionOf(session: CDPSession): ServerSession | undefined {
  return asSession((implOf(session) as { _session?: Partial<ServerSession> } | undefined)?._session);
}

/**
 * `session` as a `CDPSession` whose send/on/off go to the server side when in process. Errors keep
 * the client's wording where callers read it: a closed or crashed target says so (nav-page.ts).
 */
export function directSession(session: CDPSession): CDPSession {
  const raw = serverSessionOf(session);
  if (!raw) return session;
  const direct = {
    send: async (method: string, params?: object) => {
      try {
        return await raw.send(method, params);
      } catch (err) {
        const e = err as ProtocolErrorShape;
        if (e.type === 'closed' || e.type === 'crashed') throw new Error(`Protocol error (${method}): Target page, context or browser has been closed`, { cause: err });
        throw err;
      }
    },
    on: (event: string, listener: (params: never) => void) => {
      raw.on(event, listener);
      return direct;
    },
    off: (event: string, listener: (params: never) => void) => {
      raw.off(event, listener);
      return direct;
    },
    detach: () => session.detach(),
  };
  return direct as unknown as CDPSession;
}

/**
 * The library's own protocol session of an in-process `page` (the one its page model listens
 * on), when the library does not intercept the page's requests; else undefined (over
 * `chromium.connect`, or with proxy credentials, whose challenge the library answers at the
 * request stage: it pairs each pause with the `Network` event of the same request, so that
 * session's `Network` must stay on).
 */
export function quietableLibrarySession(page: Page): ServerSession | undefined {
  const crPage = (implOf(page) as ServerPage | undefined)?.delegate;
  const session = asSession(crPage?._mainFrameSession?._client);
  if (!session || crPage?._networkManager?._protocolRequestInterceptionEnabled !== false) return undefined;
  return session;
}

/**
 * patchright-core 1.63.0 (pinned) turns on request-stage interception (`Fetch.enable`, every
 * request) on every page it opens and continues each paused request itself when no route is
 * set: for a fetch tab that is one more pause, protocol round trip and error-stack capture per
 * page, for nothing (no route, and the tab commits no document its scripts would go into).
 * Adding a route and removing it makes the library recompute its interception from its routes
 * (none): it disables its own `Fetch` on the page's session and leaves the cache on. Proxy
 * credentials keep it on (the library answers the proxy's challenge), so authenticated proxies
 * are unaffected. On the farm bench (87 KB pages, 8 in flight) this took ~13 % of the CPU per
 * page off the fetch path (bench/README "Plain https pages through Chromium's network stack");
 * `deps-internals.test.ts` asserts the library still behaves so.
 */
export async function stopLibraryInterception(page: Page): Promise<void> {
  const none = (): void => undefined;
  await page.route('**', none);
  await page.unroute('**', none);
}

/**
 * The library turns `Network` on in every page's own session for its page model: per
 * navigation of a fetch tab that is four events the browser builds and sends
 * (`requestWillBeSent`, its `ExtraInfo` with the raw headers the network service reports back
 * for it, `responseReceivedExtraInfo`, `loadingFailed`) and the request objects the library
 * makes of them on the render thread and keeps until the context closes. A fetch tab reads
 * none of it: its page is fetched on its own session (`Fetch`), which works with `Network` off,
 * and it names the hosts it navigated to from its own pauses (nav-fetch.ts). So it is turned
 * off there — only where the library does not intercept the page's requests (proxy credentials:
 * `quietableLibrarySession`). What the site receives does not change: the identity's overrides
 * are `Emulation`'s, and a step's extra headers move to the tab's own session (tab.ts `prepare`);
 * fingerprint.test.ts compares the request with Chromium's own. On the farm bench (87 KB pages,
 * 8 in flight) this took about 2 CPU-ms off a page (bench/README "The library's session on
 * fetch tabs"). Returns whether it was turned off; `fetch-tab-session.test.ts` checks the
 * library's shape read here.
 */
export async function quietLibraryNetwork(page: Page): Promise<boolean> {
  const session = quietableLibrarySession(page);
  if (!session) return false;
  await session.send('Network.disable');
  return true;
}
