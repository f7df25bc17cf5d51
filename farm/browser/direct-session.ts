/**
 * Worker side: a fetch tab's protocol session driven without the library's client layer.
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

/** The server side of `session` (in process), or undefined. */
export function serverSessionOf(session: CDPSession): ServerSession | undefined {
  const connection = (session as unknown as { _connection?: { toImpl?: (x: unknown) => unknown } })._connection;
  const server = connection?.toImpl?.(session) as { _session?: Partial<ServerSession> } | undefined;
  const raw = server?._session;
  if (!raw || typeof raw.send !== 'function' || typeof raw.on !== 'function' || typeof raw.off !== 'function') return undefined;
  return raw as ServerSession;
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
  const connection = (page as unknown as { _connection?: { toImpl?: (x: unknown) => unknown } })._connection;
  const crPage = (connection?.toImpl?.(page) as ServerPage | undefined)?.delegate;
  const raw = crPage?._mainFrameSession?._client;
  if (!raw || typeof raw.send !== 'function' || typeof raw.on !== 'function' || typeof raw.off !== 'function') return undefined;
  if (crPage._networkManager?._protocolRequestInterceptionEnabled !== false) return undefined;
  return raw as ServerSession;
}
