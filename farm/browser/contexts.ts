/**
 * Worker side: the browser contexts of this thread, keyed by (device, proxy). A context is
 * reused across tasks with the same key, retired after `contextMaxPages` pages, closed after
 * `contextIdleMs` unused, and dropped when a page in it timed out or crashed. Pages in flight
 * in this thread are capped at `contextsPerWorker` (the semaphore); new contexts also wait on
 * the memory gate. A page that rendered well is parked on its context (at most as many as ran
 * at once) for the next task to navigate again, and closed after `pageIdleMs` unused.
 *
 * Concurrency: all state here lives on this thread's event loop; the only cross-thread writes
 * are the stats counters (atomic).
 */
import type { Browser, BrowserContext } from 'patchright-core';
import type { FarmLimits } from '../messages.js';
import { F_CONTEXTS, F_PAGES, type StatsSlot } from '../stats.js';
import { Semaphore } from '../worker/semaphore.js';
import { contextFor, type ContextWish, type Lease } from './context-lease.js';
import type { MemoryGate } from './memory.js';
import type { Tab, TabKind } from './tab.js';

interface Entry {
  key: string;
  browser: Browser;
  context: BrowserContext;
  inFlight: number;
  served: number;
  /** Plain pages fetched in its fetch tabs (see `giveBack`). */
  fetched: number;
  retiring: boolean;
  closed: boolean;
  idle: NodeJS.Timeout | undefined;
  /** Pages that rendered well, waiting for the next task (newest last). */
  parked: Parked[];
}

interface Parked {
  tab: Tab;
  timer: NodeJS.Timeout;
}

/**
 * Fetch tabs allowed per page of the render budget. A fetch tab costs the browser a navigation
 * request and an idle about:blank renderer; measured at 8 in flight, the browser spent about a
 * third of a rendered page's CPU on one (bench/README "Plain pages through Chromium").
 */
export const FETCH_TABS_PER_PAGE = 4;

export class ContextPool {
  private readonly entries = new Map<string, Entry>();
  private readonly creating = new Map<string, Promise<Entry>>();
  private readonly retired = new Set<Entry>();
  private readonly pages: Semaphore;
  private readonly fetchTabs: Semaphore;
  private users = 0;

  constructor(
    private readonly limits: FarmLimits,
    pagesPerWorker: number,
    private readonly stats: StatsSlot,
    private readonly gate: MemoryGate,
  ) {
    this.pages = new Semaphore(Math.max(1, pagesPerWorker));
    this.fetchTabs = new Semaphore(Math.max(8, pagesPerWorker * FETCH_TABS_PER_PAGE));
  }

  get open(): number {
    return this.entries.size + this.retired.size;
  }

  /** Tasks holding or getting a page on this thread (from `acquire` to `release`): the browser is not idle while any is. */
  get busy(): boolean {
    return this.users > 0;
  }

  async acquire(wish: ContextWish, signal: AbortSignal): Promise<Lease> {
    this.users++;
    try {
      return await this.lease(wish, signal);
    } catch (err) {
      this.users--;
      throw err;
    }
  }

  private async lease(wish: ContextWish, signal: AbortSignal): Promise<Lease> {
    const kind = wish.kind ?? 'render';
    const slots = kind === 'fetch' ? this.fetchTabs : this.pages;
    await slots.acquire(signal);
    try {
      const entry = await this.entryFor(wish, signal);
      entry.inFlight++;
      if (entry.idle) clearTimeout(entry.idle);
      entry.idle = undefined;
      this.stats.add(F_PAGES, 1);
      let released = false;
      const at = entry.parked.findLastIndex((p) => p.tab.kind === kind);
      const parked = at >= 0 ? entry.parked.splice(at, 1)[0] : undefined;
      if (parked) clearTimeout(parked.timer);
      return {
        context: entry.context,
        page: parked?.tab,
        release: (discard, tab) => {
          if (released) return;
          released = true;
          this.users--;
          this.stats.add(F_PAGES, -1);
          slots.release();
          if (tab) this.park(entry, tab, discard);
          // A failed fetch gives no tab back: counted, as its tab may have kept requests.
          this.giveBack(entry, discard, kind, tab?.libraryKeepsRequests ?? true);
        },
      };
    } catch (err) {
      slots.release();
      throw err;
    }
  }

  private async entryFor(wish: ContextWish, signal: AbortSignal): Promise<Entry> {
    const key = `${wish.profile.id}|${wish.proxy?.url ?? 'direct'}|${wish.guardUrl ?? ''}|${wish.cookieKey ?? ''}`;
    for (;;) {
      const found = this.entries.get(key);
      if (found && found.browser === wish.browser && found.browser.isConnected()) return found;
      if (found) this.retire(found);
      const pending = this.creating.get(key);
      if (pending) {
        await pending.catch(() => undefined);
        continue;
      }
      const creation = this.create(key, wish, signal);
      this.creating.set(key, creation);
      try {
        return await creation;
      } finally {
        this.creating.delete(key);
      }
    }
  }

  private async create(key: string, wish: ContextWish, signal: AbortSignal): Promise<Entry> {
    await this.gate.waitForRoom(wish.browserPid, signal, () => this.closeIdle());
    const context = await contextFor(wish);
    const entry: Entry = { key, browser: wish.browser, context, inFlight: 0, served: 0, fetched: 0, retiring: false, closed: false, idle: undefined, parked: [] };
    this.entries.set(key, entry);
    this.stats.add(F_CONTEXTS, 1);
    return entry;
  }

  private giveBack(entry: Entry, discard: boolean, kind: TabKind, keptRequests: boolean): void {
    entry.inFlight--;
    // The page cap bounds what rendered documents leave behind in a context. A fetch tab commits
    // no document, but where the library's session of the tab has `Network` on (proxy
    // credentials: tab.ts), Playwright keeps every navigation's request as a protocol object of
    // the context (server and client side, both on this thread) until the context closes — or
    // until 10,000 pile up on the connection, when it drops the oldest thousand — and a busy
    // context is never idle long enough to close. ~7 KB of heap each: the render thread's live
    // heap went 50 → 130 MB over 15,000 fetches (bench/README "The farm's memory on the plain
    // path through Chromium"). So those fetches retire a context too, far less often than
    // renders (a new context costs a tab and a renderer start, and drops the cookies the sites
    // set in it; retiring every 50 fetches cost 2–4 CPU-ms a page). Fetches of tabs with the
    // library's `Network` off leave nothing behind and are not counted.
    if (kind === 'render') entry.served++;
    else if (keptRequests) entry.fetched++;
    if (discard || entry.served >= this.limits.contextMaxPages || entry.fetched >= this.limits.contextMaxFetches) this.retire(entry);
    if (entry.retiring) {
      if (entry.inFlight === 0) this.close(entry);
      return;
    }
    if (entry.inFlight === 0) {
      entry.idle = setTimeout(() => this.retire(entry), this.limits.contextIdleMs);
      entry.idle.unref();
    }
  }

  /** Parks a page for the next task, or closes it when it cannot be reused. */
  private park(entry: Entry, tab: Tab, discard: boolean): void {
    if (discard || tab.spoiled || entry.retiring || entry.closed || this.limits.pageIdleMs <= 0) {
      void tab.close();
      return;
    }
    // A fetch tab never committed a document: nothing to collect (a full GC per fetch measured
    // as most of the renderer's CPU on the plain-client bench).
    if (tab.kind === 'render') tab.collectGarbage();
    const parked: Parked = { tab, timer: setTimeout(unpark, this.limits.pageIdleMs, entry, tab) };
    parked.timer.unref();
    entry.parked.push(parked);
  }

  /** Takes a context out of service; it closes when its last page is done. */
  private retire(entry: Entry): void {
    if (!entry.retiring) {
      entry.retiring = true;
      if (this.entries.get(entry.key) === entry) this.entries.delete(entry.key);
      this.retired.add(entry);
    }
    if (entry.inFlight === 0) this.close(entry);
  }

  private close(entry: Entry): void {
    if (entry.closed) return;
    entry.closed = true;
    if (!this.retired.delete(entry) && this.entries.get(entry.key) === entry) this.entries.delete(entry.key);
    if (entry.idle) clearTimeout(entry.idle);
    entry.idle = undefined;
    dropParked(entry);
    this.stats.add(F_CONTEXTS, -1);
    if (entry.browser.isConnected()) void entry.context.close().catch(() => undefined);
  }

  /** Under memory pressure: close contexts nobody is using. */
  closeIdle(): void {
    for (const entry of [...this.entries.values()]) if (entry.inFlight === 0) this.retire(entry);
  }

  /** The browser went away: its contexts are gone with it. */
  dropBrowser(browser: Browser): void {
    for (const entry of [...this.entries.values(), ...this.retired]) {
      if (entry.browser !== browser) continue;
      entry.retiring = true;
      if (entry.inFlight === 0) this.close(entry);
      else {
        this.retired.add(entry);
        if (this.entries.get(entry.key) === entry) this.entries.delete(entry.key);
      }
    }
  }

  async closeAll(): Promise<void> {
    const all = [...this.entries.values(), ...this.retired];
    this.entries.clear();
    this.retired.clear();
    const live = all.filter((e) => !e.closed);
    for (const e of all) {
      if (e.idle) clearTimeout(e.idle);
      dropParked(e);
      e.closed = true;
    }
    this.stats.add(F_CONTEXTS, -live.length);
    await Promise.allSettled(all.map((e) => e.context.close()));
  }
}

/** Idle too long: the page's old document would keep running its scripts. */
function unpark(entry: Entry, tab: Tab): void {
  const i = entry.parked.findIndex((p) => p.tab === tab);
  if (i >= 0) entry.parked.splice(i, 1);
  void tab.close();
}

/** The context is closing: its pages go with it (closing the context closes them). */
function dropParked(entry: Entry): void {
  for (const p of entry.parked) clearTimeout(p.timer);
  entry.parked = [];
}
