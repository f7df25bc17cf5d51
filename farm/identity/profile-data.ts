/**
 * The data behind the browser profiles (profile.ts): real device configurations per `device`,
 * and the languages and time zone of each proxy country. Only what legitimately differs between
 * two people running the same Chromium build is here; what the browser binary and this machine
 * decide (version, OS, CPU count, memory, GPU) is read at farm start, never invented.
 *
 * Refreshing: nothing here names a Chrome version — a new Chromium needs no edit. Add a screen
 * or a phone when it becomes common; keep every row internally consistent (window ≤ available
 * screen, viewport < window, as a real browser window is).
 */

/** One real desktop configuration: a Linux desktop running Chromium. */
export interface DesktopRow {
  id: string;
  screen: { width: number; height: number };
  /**
   * The desktop panel's height at the top (the work area is the rest). 0: the browser's screen
   * override cannot express a work area, and a profile must say what the page will see.
   */
  availTop: number;
  /** The browser window (outer size); a maximised window is the work area. */
  window: { width: number; height: number };
  pixelRatio: number;
}

/** One real phone: Android running Chrome. */
export interface MobileRow {
  id: string;
  model: string;
  /** Android major version (`platformVersion` is `<major>.0.0`). */
  android: number;
  /** CSS pixels. */
  screen: { width: number; height: number };
  /** The layout viewport below the status and address bars. */
  viewport: { width: number; height: number };
  pixelRatio: number;
}

/**
 * Chromium's toolbar and tab strip on Linux: the window's outer height less the page's inner
 * height (no bookmarks bar). Measured on Chromium 15x with the default GTK theme.
 */
export const DESKTOP_CHROME_HEIGHT = 87;

export const DESKTOP_ROWS: readonly DesktopRow[] = [
  { id: 'linux-1920x1080', screen: { width: 1920, height: 1080 }, availTop: 0, window: { width: 1920, height: 1048 }, pixelRatio: 1 },
  { id: 'linux-2560x1440', screen: { width: 2560, height: 1440 }, availTop: 0, window: { width: 2560, height: 1408 }, pixelRatio: 1 },
  { id: 'linux-1366x768', screen: { width: 1366, height: 768 }, availTop: 0, window: { width: 1366, height: 736 }, pixelRatio: 1 },
  { id: 'linux-1920x1200', screen: { width: 1920, height: 1200 }, availTop: 0, window: { width: 1600, height: 1040 }, pixelRatio: 1 },
  // 1920×1080 at 125 % fractional scaling.
  { id: 'linux-1536x864', screen: { width: 1536, height: 864 }, availTop: 0, window: { width: 1536, height: 838 }, pixelRatio: 1.25 },
  { id: 'linux-1680x1050', screen: { width: 1680, height: 1050 }, availTop: 0, window: { width: 1680, height: 1018 }, pixelRatio: 1 },
];

export const MOBILE_ROWS: readonly MobileRow[] = [
  { id: 'pixel-8', model: 'Pixel 8', android: 14, screen: { width: 412, height: 915 }, viewport: { width: 412, height: 839 }, pixelRatio: 2.625 },
  { id: 'pixel-7', model: 'Pixel 7', android: 14, screen: { width: 412, height: 915 }, viewport: { width: 412, height: 839 }, pixelRatio: 2.625 },
  { id: 'galaxy-s23', model: 'SM-S911B', android: 14, screen: { width: 360, height: 780 }, viewport: { width: 360, height: 701 }, pixelRatio: 3 },
  { id: 'galaxy-a54', model: 'SM-A546B', android: 14, screen: { width: 384, height: 854 }, viewport: { width: 384, height: 775 }, pixelRatio: 2.8125 },
];

export interface CountryLocale {
  /** `navigator.languages`, in order; `Accept-Language` is derived from it as Chrome does. */
  languages: readonly string[];
  /** IANA zone of the country's most populous region; absent: this machine's own zone. */
  timezone?: string;
}

/**
 * Without a `location`: US English in this machine's own zone — the requests leave from here, so
 * its zone is the honest one (and the one a real Chromium on this machine reports).
 */
export const DEFAULT_LOCALE: CountryLocale = { languages: ['en-US', 'en'] };

/**
 * Proxy-pool country keys (lower case, as in `GLEANER_PROXIES`) → what a browser there says.
 * Chrome's default list for a non-English UI is the local language then English.
 */
export const COUNTRY_LOCALES: Readonly<Record<string, CountryLocale>> = {
  us: { languages: ['en-US', 'en'], timezone: 'America/New_York' },
  gb: { languages: ['en-GB', 'en-US', 'en'], timezone: 'Europe/London' },
  uk: { languages: ['en-GB', 'en-US', 'en'], timezone: 'Europe/London' },
  ie: { languages: ['en-IE', 'en-GB', 'en-US', 'en'], timezone: 'Europe/Dublin' },
  ca: { languages: ['en-CA', 'en-US', 'en'], timezone: 'America/Toronto' },
  au: { languages: ['en-AU', 'en-GB', 'en-US', 'en'], timezone: 'Australia/Sydney' },
  nz: { languages: ['en-NZ', 'en-GB', 'en-US', 'en'], timezone: 'Pacific/Auckland' },
  in: { languages: ['en-IN', 'en-GB', 'en-US', 'en', 'hi'], timezone: 'Asia/Kolkata' },
  de: { languages: ['de-DE', 'de', 'en-US', 'en'], timezone: 'Europe/Berlin' },
  at: { languages: ['de-AT', 'de', 'en-US', 'en'], timezone: 'Europe/Vienna' },
  ch: { languages: ['de-CH', 'de', 'fr', 'en-US', 'en'], timezone: 'Europe/Zurich' },
  fr: { languages: ['fr-FR', 'fr', 'en-US', 'en'], timezone: 'Europe/Paris' },
  be: { languages: ['nl-BE', 'nl', 'fr', 'en-US', 'en'], timezone: 'Europe/Brussels' },
  nl: { languages: ['nl-NL', 'nl', 'en-US', 'en'], timezone: 'Europe/Amsterdam' },
  es: { languages: ['es-ES', 'es', 'en-US', 'en'], timezone: 'Europe/Madrid' },
  it: { languages: ['it-IT', 'it', 'en-US', 'en'], timezone: 'Europe/Rome' },
  pt: { languages: ['pt-PT', 'pt', 'en-US', 'en'], timezone: 'Europe/Lisbon' },
  br: { languages: ['pt-BR', 'pt', 'en-US', 'en'], timezone: 'America/Sao_Paulo' },
  mx: { languages: ['es-MX', 'es', 'en-US', 'en'], timezone: 'America/Mexico_City' },
  ar: { languages: ['es-AR', 'es', 'en-US', 'en'], timezone: 'America/Argentina/Buenos_Aires' },
  pl: { languages: ['pl-PL', 'pl', 'en-US', 'en'], timezone: 'Europe/Warsaw' },
  cz: { languages: ['cs-CZ', 'cs', 'en-US', 'en'], timezone: 'Europe/Prague' },
  se: { languages: ['sv-SE', 'sv', 'en-US', 'en'], timezone: 'Europe/Stockholm' },
  no: { languages: ['nb-NO', 'nb', 'no', 'en-US', 'en'], timezone: 'Europe/Oslo' },
  dk: { languages: ['da-DK', 'da', 'en-US', 'en'], timezone: 'Europe/Copenhagen' },
  fi: { languages: ['fi-FI', 'fi', 'en-US', 'en'], timezone: 'Europe/Helsinki' },
  tr: { languages: ['tr-TR', 'tr', 'en-US', 'en'], timezone: 'Europe/Istanbul' },
  jp: { languages: ['ja-JP', 'ja', 'en-US', 'en'], timezone: 'Asia/Tokyo' },
  kr: { languages: ['ko-KR', 'ko', 'en-US', 'en'], timezone: 'Asia/Seoul' },
  sg: { languages: ['en-SG', 'en-US', 'en'], timezone: 'Asia/Singapore' },
};
