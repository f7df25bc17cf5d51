/**
 * Worker side: a browser profile (identity/profile.ts) applied to a browser context.
 */
import type { BrowserContextOptions } from 'playwright-core';
import type { BrowserProfile } from '../identity/profile.js';

export function contextOptions(p: BrowserProfile): BrowserContextOptions {
  return {
    userAgent: p.userAgent,
    viewport: p.viewport,
    screen: { width: p.screen.width, height: p.screen.height },
    deviceScaleFactor: p.screen.pixelRatio,
    isMobile: p.isMobile,
    hasTouch: p.hasTouch,
    locale: p.languages[0],
    timezoneId: p.timezone,
  };
}
