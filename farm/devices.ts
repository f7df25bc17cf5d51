/**
 * Device profiles for `device` (spec 2.1): what the browser emulates and what the plain-HTTP
 * path sends. The user agents name the Chrome major version of the browser the farm runs
 * (`useChromeVersion`, read from its binary at farm start: chromium-args.ts `chromeVersion`),
 * in Chrome's reduced form (`Chrome/156.0.0.0`), never "HeadlessChrome", so the plain path and
 * the browser path present the same browser, and the one the rendered page sees in
 * `navigator.userAgentData`.
 */
export type DeviceName = 'desktop' | 'mobile';

export interface DeviceProfile {
  name: DeviceName;
  userAgent: string;
  viewport: { width: number; height: number };
  deviceScaleFactor: number;
  isMobile: boolean;
  hasTouch: boolean;
  /** Client hints the plain-HTTP path sends with the user agent. */
  hints: Record<string, string>;
}

/** The major version named when the browser's own is unknown (no binary found). */
export const FALLBACK_CHROME_MAJOR = 140;

function profiles(major: number): Record<DeviceName, DeviceProfile> {
  const chrome = `${major}.0.0.0`;
  return {
    desktop: {
      name: 'desktop',
      userAgent: `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${chrome} Safari/537.36`,
      viewport: { width: 1366, height: 768 },
      deviceScaleFactor: 1,
      isMobile: false,
      hasTouch: false,
      hints: { 'sec-ch-ua-mobile': '?0', 'sec-ch-ua-platform': '"Windows"' },
    },
    mobile: {
      name: 'mobile',
      userAgent: `Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${chrome} Mobile Safari/537.36`,
      viewport: { width: 412, height: 915 },
      deviceScaleFactor: 2.625,
      isMobile: true,
      hasTouch: true,
      hints: { 'sec-ch-ua-mobile': '?1', 'sec-ch-ua-platform': '"Android"' },
    },
  };
}

/**
 * The profiles of this thread. Set once per thread (the pool at farm start, each worker from
 * its setup) before any task reads them; replaced in place so importers see the update.
 */
export const DEVICES: Record<DeviceName, DeviceProfile> = profiles(FALLBACK_CHROME_MAJOR);

/** Names `version` (the browser's, e.g. `156.0.8078.79`) in the profiles of this thread; unknown keeps the fallback. */
export function useChromeVersion(version: string | undefined): void {
  const major = Number(/^(\d+)\./.exec(version ?? '')?.[1] ?? FALLBACK_CHROME_MAJOR);
  Object.assign(DEVICES, profiles(major));
}

export function deviceFor(value: unknown): DeviceProfile {
  return value === 'mobile' ? DEVICES.mobile : DEVICES.desktop;
}

/**
 * Headers of a plain-HTTP page fetch as this device's browser would send them. Compressed
 * bodies are inflated by the agents' decompress interceptor (net/agents.ts), which knows
 * gzip, deflate and br.
 */
export function requestHeaders(device: DeviceProfile): Record<string, string> {
  return {
    'user-agent': device.userAgent,
    accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    'accept-encoding': 'gzip, deflate, br',
    'accept-language': 'en-US,en;q=0.9',
    ...device.hints,
  };
}
