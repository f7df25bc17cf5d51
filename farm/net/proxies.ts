/**
 * Proxy pools (`config.proxies`: `{default: [...], de: [...]}`, lower-case country keys) and
 * the choice of proxy per attempt. A request's `location` picks the country pool; on routes
 * whose `location` is a postal code (mkt1) the `default` pool serves. No location: `default`
 * if configured, else direct.
 */
import { GleanerError } from '../../core/errors.js';
import type { LocationKind } from '../../core/registry/types.js';

export interface ProxyEntry {
  /** The configured URL, credentials included: the key of agents and contexts. */
  url: string;
  /** `scheme://host:port`, no credentials (what Chromium takes as `server`). */
  server: string;
  host: string;
  port: number;
  username: string | undefined;
  password: string | undefined;
}

export function parseProxy(raw: string): ProxyEntry {
  let u: URL;
  try {
    u = new URL(raw.includes('://') ? raw : `http://${raw}`);
  } catch {
    throw new GleanerError('INTERNAL_ERROR', 'A configured proxy URL is malformed.');
  }
  const port = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
  return {
    url: raw,
    server: `${u.protocol}//${u.host}`,
    host: u.hostname,
    port,
    username: u.username ? decodeURIComponent(u.username) : undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
  };
}

/** The pool serving a request, or null for direct connections. */
export function proxyPoolFor(
  proxies: Readonly<Record<string, readonly string[]>>,
  location: unknown,
  kind: LocationKind,
  geo: 'proxy' | 'url' = 'proxy',
): ProxyEntry[] | null {
  const pool = (key: string) => {
    const list = proxies[key];
    return Array.isArray(list) && list.length > 0 ? list.map(parseProxy) : null;
  };
  if (typeof location === 'string' && location !== '' && kind === 'country') {
    const found = pool(location.toLowerCase());
    // On `url` routes the upstream URL already carries the location; a country pool is a bonus.
    if (!found && geo === 'url') return pool('default');
    if (!found) {
      throw new GleanerError('LOCATION_UNAVAILABLE', `No proxy pool serves the location ${JSON.stringify(location)}.`, {
        location,
      });
    }
    return found;
  }
  return pool('default');
}

/**
 * Attempt n of a task uses the proxy after attempt n-1's, starting from a member chosen by
 * `seed` (random without one), so retries land on other proxies and load spreads over the pool.
 * A seed from the task makes the order the same in every thread that runs the task: a browser
 * attempt in a render thread after a fetch thread's walls goes on to the next proxy.
 */
export class ProxyRotation {
  private readonly start: number;
  constructor(
    private readonly pool: readonly ProxyEntry[] | null,
    seed?: number,
  ) {
    this.start = !pool ? 0 : seed === undefined ? Math.floor(Math.random() * pool.length) : Math.abs(Math.trunc(seed)) % pool.length;
  }
  pick(attempt: number): ProxyEntry | null {
    if (!this.pool) return null;
    return this.pool[(this.start + attempt) % this.pool.length];
  }
}

/** `Proxy-Authorization` value for a proxy with credentials. */
export function proxyAuthorization(proxy: ProxyEntry): string | undefined {
  if (proxy.username === undefined) return undefined;
  return `Basic ${Buffer.from(`${proxy.username}:${proxy.password ?? ''}`).toString('base64')}`;
}
