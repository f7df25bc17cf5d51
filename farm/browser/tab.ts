/**
 * Worker side: one browser page kept across tasks of its context. Opening a page costs Chromium
 * a renderer start (and Playwright its page setup); navigating an open page again measured about
 * half the Chromium CPU per page of a fresh one on the farm bench. So a page that rendered
 * successfully goes back to its context (contexts.ts), idle, and the next task of that context
 * navigates it; a page that failed in any way is closed, never reused.
 *
 * What a reused page carries over, and why it is acceptable: cookies and storage are the
 * context's anyway (contexts are already shared by tasks); sessionStorage and `window.name` of
 * the same site persist in the tab, which is the same class of sharing. The previous document's
 * scripts run on while the page is idle, so idle pages are closed after `pageIdleMs`.
 * A URL that differs from the current one only by its fragment would be a same-document
 * navigation (no reload): such a task gets a fresh page (`reusableFor`).
 *
 * The CDP session (byte accounting, media blocking) and the page listeners are set up once;
 * they report into the current task's `TabRun`.
 *
 * A tab is of one kind for its life: `render` tabs show pages; `fetch` tabs (browser/nav-fetch.ts)
 * intercept every main-frame document response, so they never commit a document and stay on
 * about:blank — a fetch tab is never given to a render, nor the other way round.
 */
import type { BrowserContext, CDPSession, Page } from 'patchright-core';
import type { BrowserProfile } from '../identity/profile.js';
import { directSession, quietLibraryNetwork, stopLibraryInterception } from './direct-session.js';
import { newFetchPage } from './fetch-openers.js';
import { openPage } from './identity.js';

/** URL patterns of fonts and media (setBlockedURLs matches the whole URL; `*` is a wildcard). */
export const BLOCKED_PATTERNS: readonly string[] = [
  'woff', 'woff2', 'ttf', 'otf', 'eot',
  'mp4', 'webm', 'ogv', 'ogg', 'mp3', 'wav', 'm4a', 'm4v', 'aac', 'flac', 'mov', 'avi', 'mkv', 'm3u8', 'mpd',
].flatMap((ext) => [`*.${ext}`, `*.${ext}?*`]);

/** One task's view of the tab: counters and flags the page's listeners fill in. */
export class TabRun {
  requestBytes = 0;
  responseBytes = 0;
  documentBytes = 0;
  tooLarge = false;
  crashed = false;
  readonly documents = new Set<string>();
  /** Hosts of main-frame navigations (to name a refusal by the guard proxy). */
  readonly navHosts = new Set<string>();
  constructor(
    readonly maxBytes: number,
    /** Called once when the page crashes or its document exceeds `maxBytes`. */
    readonly onFatal: () => void,
  ) {}
}

export type TabKind = 'render' | 'fetch';

export class Tab {
  run: TabRun | undefined;
  /** Set once the page crashed, was closed, or a task on it failed: never reused then. */
  spoiled = false;
  private blocking = false;
  private headersKey = '';
  private closing: Promise<void> | undefined;
  /**
   * A fetch tab whose library session has `Network` off (`quietLibraryNetwork`): its extra
   * headers go through this tab's own session, whose `Network` is on only while it has some,
   * and the library makes no request objects of its navigations.
   */
  private libraryNetworkOff = false;

  /** A fetch tab's main frame (its protocol id): the document responses it intercepts. */
  mainFrameId = '';

  private constructor(
    readonly page: Page,
    /** The page's own protocol session (nav-fetch.ts sends and listens on it). */
    readonly cdp: CDPSession,
    readonly kind: TabKind,
  ) {}

  /**
   * Opens a page presenting `profile` (identity.ts) with its CDP session; `watchNavigations`
   * records main-frame hosts (guarded contexts).
   */
  static async open(context: BrowserContext, profile: BrowserProfile, watchNavigations: boolean, kind: TabKind = 'render'): Promise<Tab> {
    const opened = await openPage(context, profile, kind === 'fetch' ? () => newFetchPage(context) : undefined);
    const { page } = opened;
    // A fetch tab's ~7 protocol calls per page skip the library's client layer (direct-session.ts).
    const cdp = kind === 'fetch' ? directSession(opened.cdp) : opened.cdp;
    try {
      const tab = new Tab(page, cdp, kind);
      // A fetch tab names the hosts it navigated to itself (nav-fetch.ts): the library's request
      // events are off on it.
      tab.listen(watchNavigations && kind === 'render');
      // A fetch tab counts its own bytes (nav-fetch.ts): no per-request protocol events for it.
      if (kind === 'render') await cdp.send('Network.enable');
      if (kind === 'fetch') {
        await stopLibraryInterception(page);
        tab.libraryNetworkOff = await quietLibraryNetwork(page);
        // Responses only (the request goes out untouched, exactly as Chrome makes it), documents only.
        await cdp.send('Fetch.enable', { patterns: [{ urlPattern: '*', resourceType: 'Document', requestStage: 'Response' }] });
        tab.mainFrameId = (await cdp.send('Page.getFrameTree')).frameTree.frame.id;
      }
      return tab;
    } catch (err) {
      void page.close().catch(() => undefined);
      throw err;
    }
  }

  private listen(watchNavigations: boolean): void {
    const { page, cdp } = this;
    page.on('crash', () => {
      this.spoiled = true;
      if (this.run && !this.run.crashed) {
        this.run.crashed = true;
        this.run.onFatal();
      }
    });
    // Request events cost a protocol message per request: only where a refusal must be named.
    if (watchNavigations) {
      page.on('request', (r) => {
        if (this.run && r.isNavigationRequest() && r.frame() === page.mainFrame()) this.run.navHosts.add(hostOf(r.url()));
      });
    }
    cdp.on('Network.requestWillBeSent', (e) => {
      const run = this.run;
      if (!run) return;
      if (e.type === 'Document') run.documents.add(e.requestId);
      run.requestBytes += e.request.url.length + 300;
    });
    cdp.on('Network.dataReceived', (e) => {
      const run = this.run;
      if (!run || !run.documents.has(e.requestId)) return;
      run.documentBytes += e.dataLength;
      if (run.documentBytes > run.maxBytes && !run.tooLarge) {
        run.tooLarge = true;
        run.onFatal();
      }
    });
    cdp.on('Network.loadingFinished', (e) => {
      if (this.run) this.run.responseBytes += e.encodedDataLength;
    });
  }

  /**
   * Whether the library keeps a request object of each navigation of this tab until its
   * context closes (render tabs; fetch tabs whose library session kept `Network`): contexts.ts
   * retires a context by how many such fetches it served.
   */
  get libraryKeepsRequests(): boolean {
    return !this.libraryNetworkOff;
  }

  /** Whether a task for `url` may navigate this page (not spoiled; not a same-document hop). */
  reusableFor(url: string, kind: TabKind = 'render'): boolean {
    if (this.spoiled || this.page.isClosed() || this.kind !== kind) return false;
    return withoutFragment(this.page.url()) !== withoutFragment(url);
  }

  /** Sets what differs for this task: media blocking (off for screenshots) and extra headers. */
  async prepare(block: boolean, headers: Record<string, string> | undefined): Promise<void> {
    if (block !== this.blocking) {
      await this.cdp.send('Network.setBlockedURLs', { urls: block ? [...BLOCKED_PATTERNS] : [] });
      this.blocking = block;
    }
    const key = headers && Object.keys(headers).length > 0 ? JSON.stringify(headers) : '';
    if (key !== this.headersKey) {
      if (!this.libraryNetworkOff) await this.page.setExtraHTTPHeaders(headers && key ? headers : {});
      else if (key) {
        // Chromium applies a session's extra headers only while that session's Network is on.
        if (!this.headersKey) await this.cdp.send('Network.enable');
        await this.cdp.send('Network.setExtraHTTPHeaders', { headers: headers! });
      } else {
        await this.cdp.send('Network.setExtraHTTPHeaders', { headers: {} });
        await this.cdp.send('Network.disable');
      }
      this.headersKey = key;
    }
  }

  /**
   * The page is parked for the next task: collect its renderer's garbage now. A renderer
   * navigated from document to document keeps the old documents' heap until V8 gets round to
   * it, and a parked renderer is idle: at 8 pages in flight on the farm bench the renderers
   * held ~95 MB (PSS) more than fresh ones without this, ~20 MB more with it, at the same pages/s.
   */
  collectGarbage(): void {
    void this.cdp.send('HeapProfiler.collectGarbage').catch(() => undefined);
  }

  /** Closes the page (idempotent); the promise never rejects. */
  close(): Promise<void> {
    this.spoiled = true;
    this.closing ??= this.page.close({ runBeforeUnload: false }).catch(() => undefined);
    return this.closing;
  }
}

export function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return '';
  }
}

function withoutFragment(url: string): string {
  const i = url.indexOf('#');
  return i < 0 ? url : url.slice(0, i);
}
