/**
 * `device` (spec 2.1) → the kind of profile a request gets (identity/profile.ts chooses the
 * profile itself, per session). `requestHeaders` is the plain path's header set until
 * identity/headers.ts (branch ident-net) replaces it; it reads the same profile.
 */
import type { BrowserProfile, DeviceName } from './identity/profile.js';

export type { DeviceName } from './identity/profile.js';
export { useBrowserVersion as useChromeVersion } from './identity/profile.js';

export function deviceFor(value: unknown): DeviceName {
  return value === 'mobile' ? 'mobile' : 'desktop';
}

/**
 * Headers of a plain-HTTP page fetch as this profile's browser would send them. Compressed
 * bodies are inflated by the agents' decompress interceptor (net/agents.ts), which knows
 * gzip, deflate and br.
 */
export function requestHeaders(profile: BrowserProfile): Record<string, string> {
  const brands = profile.userAgentData.brands.map((b) => `"${b.brand}";v="${b.version}"`).join(', ');
  return {
    'user-agent': profile.userAgent,
    accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    'accept-encoding': 'gzip, deflate, br',
    'accept-language': profile.acceptLanguage,
    'sec-ch-ua': brands,
    'sec-ch-ua-mobile': profile.userAgentData.mobile ? '?1' : '?0',
    'sec-ch-ua-platform': `"${profile.userAgentData.platform}"`,
  };
}
