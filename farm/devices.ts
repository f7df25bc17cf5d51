/**
 * Device profiles for `device` (spec 2.1): what the browser emulates and what the plain-HTTP
 * path sends. The user agents name a current stable Chrome, never "HeadlessChrome".
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

const CHROME = '140.0.0.0';

export const DEVICES: Readonly<Record<DeviceName, DeviceProfile>> = Object.freeze({
  desktop: {
    name: 'desktop',
    userAgent: `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${CHROME} Safari/537.36`,
    viewport: { width: 1366, height: 768 },
    deviceScaleFactor: 1,
    isMobile: false,
    hasTouch: false,
    hints: { 'sec-ch-ua-mobile': '?0', 'sec-ch-ua-platform': '"Windows"' },
  },
  mobile: {
    name: 'mobile',
    userAgent: `Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${CHROME} Mobile Safari/537.36`,
    viewport: { width: 412, height: 915 },
    deviceScaleFactor: 2.625,
    isMobile: true,
    hasTouch: true,
    hints: { 'sec-ch-ua-mobile': '?1', 'sec-ch-ua-platform': '"Android"' },
  },
});

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
