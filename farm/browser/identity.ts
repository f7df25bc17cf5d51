/**
 * Worker side: a session's profile (identity/profile.ts) applied to its browser context and to
 * each page, with nothing a page script can see: launch switches and DevTools-protocol
 * overrides only, no JavaScript patched into the page.
 *
 * - The browser runs under patchright-core (a pinned build of playwright-core that never enables
 *   the protocol's Runtime domain in page worlds and runs its own scripts in isolated worlds):
 *   with Runtime enabled, the page's console arguments are serialised for DevTools, which a page
 *   notices (an `Error.prepareStackTrace` hook or a `stack` getter fires on `console.debug`).
 *   It also drops `--enable-automation` (`navigator.webdriver` stays false).
 * - Full Chromium in new headless mode has Chrome's PDF plugins, `window.chrome`, consistent
 *   notification permissions; only its user agent says "HeadlessChrome". The browser-wide
 *   `--user-agent` (chromium-args.ts) fixes that where no per-page override reaches (service and
 *   shared workers); each page then gets `Emulation.setUserAgentOverride` with the profile's
 *   complete metadata (brands, full version list, platform, architecture, bitness, model) and
 *   its languages — which also reach its same-process iframes and dedicated workers.
 * - Desktop pages are not emulated: the real window is sized to the profile's window (so
 *   outer > inner, as in a real browser) and only the screen is overridden; mobile pages use
 *   Playwright's device emulation (viewport, touch, scale) with 5 touch points.
 *
 * Known limits (README "The browser"): cross-origin iframes in their own process get
 * Playwright's override, without the full version list; service and shared workers report the
 * browser-wide desktop identity and the host's language in a mobile session.
 */
import type { BrowserContext, BrowserContextOptions, CDPSession, Page } from 'patchright-core';
import { DEFAULT_LOCALE } from '../identity/profile-data.js';
import type { BrowserProfile } from '../identity/profile.js';

/**
 * The browser's own language list (`--lang`, chromium-args.ts). A session that speaks it gets
 * no `acceptLanguage` override: the override makes DevTools insert `Accept-Language` right
 * after `User-Agent`, where Chrome never puts it (Chrome sends it after `Accept-Encoding`), a
 * header-order tell the recorder test saw. Other languages (a proxy country's) need the
 * override and keep that tell (README "What a site sees").
 */
const BROWSER_LANGUAGES = DEFAULT_LOCALE.languages.join(',');

export function contextOptions(p: BrowserProfile): BrowserContextOptions {
  const common: BrowserContextOptions = { timezoneId: p.timezone, serviceWorkers: 'allow' };
  if (!p.isMobile) return { ...common, viewport: null };
  return {
    ...common,
    userAgent: p.userAgent,
    viewport: p.viewport,
    screen: { width: p.screen.width, height: p.screen.height },
    deviceScaleFactor: p.screen.pixelRatio,
    isMobile: true,
    hasTouch: true,
  };
}

/**
 * A new page of `context` presenting `profile`, with its protocol session (kept by the caller);
 * `create` makes the blank page (fetch tabs: fetch-openers.ts).
 */
export async function openPage(context: BrowserContext, profile: BrowserProfile, create: () => Promise<Page> = () => context.newPage()): Promise<{ page: Page; cdp: CDPSession }> {
  const page = await create();
  try {
    const cdp = await context.newCDPSession(page);
    await dress(cdp, profile);
    return { page, cdp };
  } catch (err) {
    void page.close().catch(() => undefined);
    throw err;
  }
}

/** The profile's overrides on one page (before its first navigation). */
export async function dress(cdp: CDPSession, p: BrowserProfile): Promise<void> {
  const ua = p.userAgentData;
  const pending: Promise<unknown>[] = [
    cdp.send('Emulation.setUserAgentOverride', {
      userAgent: p.userAgent,
      ...(p.languages.join(',') === BROWSER_LANGUAGES ? {} : { acceptLanguage: p.languages.join(',') }),
      platform: p.platform,
      userAgentMetadata: {
        brands: ua.brands,
        fullVersionList: ua.fullVersionList,
        fullVersion: p.chromeVersion,
        platform: ua.platform,
        platformVersion: ua.platformVersion,
        architecture: ua.architecture,
        model: ua.model,
        mobile: ua.mobile,
        bitness: ua.bitness,
        wow64: ua.wow64,
        formFactors: ua.formFactors,
      },
    }),
    cdp.send('Emulation.setLocaleOverride', { locale: p.languages[0] }).catch(() => undefined),
  ];
  // The real window: its outer size is what `outerWidth`/`outerHeight` report.
  pending.push(
    (async () => {
      const { windowId } = await cdp.send('Browser.getWindowForTarget');
      await cdp.send('Browser.setWindowBounds', { windowId, bounds: { width: p.window.width, height: p.window.height } });
    })(),
  );
  if (p.isMobile) {
    pending.push(cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: p.maxTouchPoints }));
  } else {
    pending.push(
      cdp.send('Emulation.setDeviceMetricsOverride', {
        width: 0,
        height: 0,
        deviceScaleFactor: p.screen.pixelRatio,
        mobile: false,
        screenWidth: p.screen.width,
        screenHeight: p.screen.height,
      }),
    );
  }
  await Promise.all(pending);
}
