/**
 * Worker side: the fetch tabs of one browser context share one renderer process.
 *
 * Every page Playwright opens (`context.newPage()`) is a new tab of its own browsing instance,
 * so Chromium gives it a renderer process of its own: ~24 MB PSS each, eight of them at eight
 * plain fetches in flight. A fetch tab (nav-fetch.ts) never commits a document — its renderer
 * only ever holds the initial about:blank — so one process serves them all: the first fetch tab
 * of a context is opened as a page and becomes the context's opener; the next ones are its
 * popups (`window.open('about:blank')`, run in the opener's blank document, which no site ever
 * sees), which Chromium keeps in the opener's process. A navigation of a popup is still a
 * browser-initiated top-level navigation (`Page.navigate`): its request is the same as a new
 * tab's (fingerprint.test.ts holds it to Chromium's own, fact for fact).
 *
 * When the opener is gone (closed after a failed fetch, or its popup cannot be had within
 * POPUP_MS), the next fetch tab is opened as a page and becomes the opener. Render tabs are
 * never opened this way: a page that runs scripts wants its own process.
 *
 * Concurrency hazard: the `popup` event names no caller, so the popups of one opener are opened
 * one at a time (a queue per opener); the opener may be serving a fetch meanwhile, which the
 * script does not disturb (its document stays the blank one whatever the fetch does).
 */
import type { BrowserContext, Page } from 'patchright-core';

/** Deadline for one popup (opening a blank tab takes milliseconds; past this the opener is dropped). */
const POPUP_MS = 10_000;

interface Opener {
  /** The opener, being opened or open. */
  page: Promise<Page>;
  /** The opener's opening, then the last popup opened or being opened (settled or not): the next waits for it. */
  queue: Promise<unknown>;
}

const openers = new WeakMap<BrowserContext, Opener>();

/** A blank page of `context` for a fetch tab, in the process of the context's other fetch tabs where possible. */
export async function newFetchPage(context: BrowserContext): Promise<Page> {
  const opener = openers.get(context);
  if (opener) {
    const popup = await popupOf(opener).catch(() => undefined);
    if (popup) return popup;
    if (openers.get(context) === opener) openers.delete(context);
  }
  // This page becomes the opener: registered before it is open, so that the fetch tabs opened
  // meanwhile (eight at once when a burst starts) wait for it instead of each opening a page.
  const page = context.newPage();
  if (!openers.has(context)) openers.set(context, { page, queue: page.catch(() => undefined) });
  return page;
}

function popupOf(o: Opener): Promise<Page> {
  const next = o.queue.then(async () => {
    const opener = await o.page;
    if (opener.isClosed()) throw new Error('the opener is closed');
    const [popup] = await Promise.all([
      opener.waitForEvent('popup', { timeout: POPUP_MS }),
      opener.evaluate(() => void window.open('about:blank', '_blank')),
    ]);
    return popup;
  });
  o.queue = next.catch(() => undefined);
  return next;
}
