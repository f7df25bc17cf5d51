/**
 * One coherent browser identity per session (issue #20): what the rendered page sees (window,
 * iframes, workers) and what the plain-HTTP path sends (headers.ts builds its headers from the
 * same profile), so both paths of a session present the same Chromium.
 *
 * Which OS the profiles claim — agreed with the plain path (branch ident-net): desktop profiles
 * are Linux x86_64 running Chromium, i.e. exactly the browser binary on this machine. A site
 * sees the TCP/IP stack (p0f-style TTL and options), the fonts, the GPU (SwiftShader without
 * one) and Chromium's own per-OS rendering; claiming Windows while all of those say Linux is a
 * tell no header can hide, and the reference a detector compares us with is the real Chromium
 * on this Linux machine. So desktop claims what is true: Linux, the binary's version and brand
 * list (Chromium builds carry no "Google Chrome" brand), the host's CPU count, memory and GPU.
 * What differs between real people running that build varies per session: screen and window
 * size, languages, time zone. Mobile profiles are emulated Android phones running Chrome
 * (Android is Linux too, so the network layer does not contradict them).
 *
 * A session is a cookie jar with its proxy (`sessionKeyOf`); its profile is chosen by a hash of
 * that key, so it is stable for the session (and across restarts: one proxy address keeps
 * one device) and differs across sessions. Sessionless requests share their proxy's profile:
 * one address presenting a new device on every request would be its own tell.
 *
 * Values are read-only data; `useBrowserVersion` is called once per thread at start (pool and
 * each worker), before any task asks for a profile.
 */
import { availableParallelism, totalmem } from 'node:os';
import { acceptLanguageOf, approximateMemory, brandLists, SOFTWARE_WEBGL, type Brand } from './chromium-formulas.js';
import { COUNTRY_LOCALES, DEFAULT_LOCALE, DESKTOP_CHROME_HEIGHT, DESKTOP_ROWS, MOBILE_ROWS, type CountryLocale, type DesktopRow, type MobileRow } from './profile-data.js';

export type DeviceName = 'desktop' | 'mobile';

/** `navigator.userAgentData` and the `Sec-CH-UA-*` hints, as Chromium fills them. */
export interface UserAgentData {
  brands: Brand[];
  fullVersionList: Brand[];
  platform: string;
  platformVersion: string;
  architecture: string;
  bitness: string;
  model: string;
  mobile: boolean;
  wow64: boolean;
  formFactors: string[];
}

export interface BrowserProfile {
  /** Stable name of the row and locale (`linux-1920x1080/de`): the key of browser contexts. */
  id: string;
  device: DeviceName;
  /** The browser's full version (`156.0.8078.108`), read from the binary at farm start. */
  chromeVersion: string;
  major: number;
  /** The reduced user agent, exactly as that Chrome sends it (never "HeadlessChrome"). */
  userAgent: string;
  /** `navigator.platform`. */
  platform: string;
  userAgentData: UserAgentData;
  languages: readonly string[];
  /** `Accept-Language` as Chrome derives it from `languages`. */
  acceptLanguage: string;
  /** IANA time zone. */
  timezone: string;
  screen: { width: number; height: number; availWidth: number; availHeight: number; availTop: number; colorDepth: number; pixelRatio: number };
  /** The browser window's outer size. */
  window: { width: number; height: number };
  /** The page's inner size (CSS pixels). */
  viewport: { width: number; height: number };
  isMobile: boolean;
  hasTouch: boolean;
  maxTouchPoints: number;
  hardwareConcurrency: number;
  deviceMemory: number;
  webgl: { vendor: string; renderer: string };
}

export interface ProfileRequest {
  /** The session's key (`sessionKeyOf`): one profile per key. */
  sessionKey: string;
  device: DeviceName;
  /** The proxy pool's country (`location`), lower case; languages and zone follow it. */
  country?: string | undefined;
  /**
   * A fresh identity for the same key: how many times this session met a bot wall. Each one
   * moves to the next row of the table, so the next attempt never presents the walled device.
   */
  fresh?: number;
}

/** The major version named when the browser's own is unknown (no binary found). */
export const FALLBACK_CHROME_VERSION = '140.0.7339.80';

let version = FALLBACK_CHROME_VERSION;
const cache = new Map<string, BrowserProfile>();

/** Names the browser's version (`156.0.8078.108`) in this thread's profiles; undefined keeps the fallback. */
export function useBrowserVersion(full: string | undefined): void {
  const next = full && /^\d+\.\d+\.\d+\.\d+$/.test(full) ? full : FALLBACK_CHROME_VERSION;
  if (next !== version) cache.clear();
  version = next;
}

export function browserVersion(): string {
  return version;
}

/** The key of a session: its named key (a flow's session) and its proxy, or the proxy alone. */
export function sessionKeyOf(session: string | undefined, proxyUrl: string | undefined): string {
  return `${proxyUrl ?? 'direct'}\u0000${session ?? ''}`;
}

export function profileFor(req: ProfileRequest): BrowserProfile {
  const country = req.country?.toLowerCase();
  const locale = (country && COUNTRY_LOCALES[country]) || DEFAULT_LOCALE;
  const rows = req.device === 'mobile' ? MOBILE_ROWS : DESKTOP_ROWS;
  const row = rows[(hash(req.sessionKey) + (req.fresh ?? 0)) % rows.length];
  const localeId = country && COUNTRY_LOCALES[country] ? country : 'default';
  const id = `${row.id}/${localeId}`;
  let found = cache.get(id);
  if (!found) {
    found = req.device === 'mobile' ? mobile(row as MobileRow, locale, id) : desktop(row as DesktopRow, locale, id);
    cache.set(id, found);
  }
  return found;
}

/** Every profile a request of this device may get (tests, docs). */
export function allProfiles(device: DeviceName, country?: string): BrowserProfile[] {
  const rows = device === 'mobile' ? MOBILE_ROWS : DESKTOP_ROWS;
  return rows.map((_, i) => profileFor({ sessionKey: keyFor(rows.length, i), device, country }));
}

/** The desktop profiles' user agent: this browser's, reduced, without "HeadlessChrome". */
export function desktopUserAgent(): string {
  return `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${majorOf(version)}.0.0.0 Safari/537.36`;
}

function desktop(row: DesktopRow, locale: CountryLocale, id: string): BrowserProfile {
  const major = majorOf(version);
  const ua = desktopUserAgent();
  return {
    id,
    device: 'desktop',
    chromeVersion: version,
    major,
    userAgent: ua,
    platform: 'Linux x86_64',
    userAgentData: {
      ...brandLists(major, version, undefined),
      platform: 'Linux',
      platformVersion: '',
      architecture: 'x86',
      bitness: '64',
      model: '',
      mobile: false,
      wow64: false,
      formFactors: ['Desktop'],
    },
    ...languagesOf(locale),
    screen: {
      width: row.screen.width,
      height: row.screen.height,
      availWidth: row.screen.width,
      availHeight: row.screen.height - row.availTop,
      availTop: row.availTop,
      colorDepth: 24,
      pixelRatio: row.pixelRatio,
    },
    window: { ...row.window },
    viewport: { width: row.window.width, height: row.window.height - DESKTOP_CHROME_HEIGHT },
    isMobile: false,
    hasTouch: false,
    maxTouchPoints: 0,
    ...hostHardware(),
  };
}

function mobile(row: MobileRow, locale: CountryLocale, id: string): BrowserProfile {
  const major = majorOf(version);
  // Chrome's reduced Android UA names neither the model nor the real Android version.
  const ua = `Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Mobile Safari/537.36`;
  return {
    id,
    device: 'mobile',
    chromeVersion: version,
    major,
    userAgent: ua,
    // Chrome's reduced Android platform. Workers report the host's (no per-page override reaches
    // a worker's `navigator.platform`): a known limit of mobile emulation (README).
    platform: 'Linux armv81',
    userAgentData: {
      ...brandLists(major, version, 'Google Chrome'),
      platform: 'Android',
      platformVersion: `${row.android}.0.0`,
      architecture: '',
      bitness: '',
      model: row.model,
      mobile: true,
      wow64: false,
      formFactors: ['Mobile'],
    },
    ...languagesOf(locale),
    screen: { width: row.screen.width, height: row.screen.height, availWidth: row.screen.width, availHeight: row.screen.height, availTop: 0, colorDepth: 24, pixelRatio: row.pixelRatio },
    window: { ...row.screen },
    viewport: { ...row.viewport },
    isMobile: true,
    hasTouch: true,
    maxTouchPoints: 5,
    ...hostHardware(),
  };
}

function languagesOf(locale: CountryLocale): Pick<BrowserProfile, 'languages' | 'acceptLanguage' | 'timezone'> {
  return { languages: [...locale.languages], acceptLanguage: acceptLanguageOf(locale.languages), timezone: locale.timezone ?? hostTimezone() };
}

/**
 * What the browser reports of this machine whatever we ask: CPU threads, memory (Chrome's
 * `navigator.deviceMemory` rounds to a power of two, ties down), the GPU. Not emulated: an
 * override reaches the page but not its workers, and a contradiction between them is worse.
 */
function hostHardware(): Pick<BrowserProfile, 'hardwareConcurrency' | 'deviceMemory' | 'webgl'> {
  return { hardwareConcurrency: availableParallelism(), deviceMemory: approximateMemory(totalmem()), webgl: { ...SOFTWARE_WEBGL } };
}

function hostTimezone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

function majorOf(full: string): number {
  return Number(/^(\d+)\./.exec(full)?.[1] ?? 0);
}

/** FNV-1a, 32 bits: stable across processes and releases. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** A session key that lands on row `index` of `rows` rows. */
function keyFor(rows: number, index: number): string {
  for (let i = 0; ; i++) if (hash(`row:${i}`) % rows === index) return `row:${i}`;
}
