/**
 * undici dispatchers of one worker thread: one `Agent` for direct fetches and one
 * `ProxyAgent` per configured proxy, created on first use and kept (connection reuse is most
 * of the speed of the plain-HTTP path).
 *
 * Each is composed with undici's decompress interceptor: the plain path sends
 * `Accept-Encoding: gzip, deflate, br` (devices.ts) and bodies arrive compressed — a third to a
 * tenth of the bytes through a paid proxy — and are inflated here, error pages included (a
 * 404's page is returned to the caller too). The size cap (`maxResponseBytes`) applies to the
 * inflated bytes, in the exchange, so a compression bomb ends as RESPONSE_TOO_LARGE.
 */
import { isIP } from 'node:net';
import { Agent, ProxyAgent, buildConnector, interceptors, type Dispatcher } from 'undici';
import { bare, forbidden, forbiddenAddress, guardedLookup, type NetPolicy } from './ssrf.js';
import type { ProxyEntry } from './proxies.js';

/** A connector that checks IP-literal hosts and resolves names through the guarded lookup. */
export function guardedConnector(policy: NetPolicy): buildConnector.connector {
  const base = buildConnector({ lookup: guardedLookup(policy) } as buildConnector.BuildOptions);
  return (opts, callback) => {
    const host = bare(opts.hostname);
    if (!policy.allowPrivate && isIP(host) && !Object.prototype.hasOwnProperty.call(policy.hosts, host)) {
      const why = forbiddenAddress(host);
      if (why) {
        callback(forbidden(opts.hostname, why), null);
        return;
      }
    }
    base(opts, callback);
  };
}

const decompress = quietly(() => interceptors.decompress({ skipErrorResponses: false }));

/**
 * undici 7 marks the decompress interceptor experimental with a warning on stderr, once per
 * thread (four lines per farm start). The version is pinned (^7.30) and covered by the farm's
 * compression tests, so the line tells an operator nothing: it is not emitted.
 */
function quietly<T>(make: () => T): T {
  const emit = process.emitWarning;
  process.emitWarning = () => undefined;
  try {
    return make();
  } finally {
    process.emitWarning = emit;
  }
}

export class Agents {
  private direct: Dispatcher | undefined;
  private readonly proxied = new Map<string, Dispatcher>();

  constructor(private readonly policy: NetPolicy) {}

  for(proxy: ProxyEntry | null): Dispatcher {
    if (!proxy) {
      this.direct ??= new Agent({ connect: guardedConnector(this.policy), keepAliveTimeout: 10_000 }).compose(decompress);
      return this.direct;
    }
    let agent = this.proxied.get(proxy.url);
    if (!agent) {
      // Credentials in the URL become Basic Proxy-Authorization (undici reads them itself).
      // The proxy resolves the target; the fetcher pre-checks the target's address (see fetcher.ts).
      // http targets go as absolute-form requests (plain HTTP proxying); https ones tunnel (CONNECT).
      agent = new ProxyAgent({ uri: proxy.url, keepAliveTimeout: 10_000, proxyTunnel: false }).compose(decompress);
      this.proxied.set(proxy.url, agent);
    }
    return agent;
  }

  async close(): Promise<void> {
    const all = [this.direct, ...this.proxied.values()].filter((d): d is Dispatcher => d !== undefined);
    this.direct = undefined;
    this.proxied.clear();
    await Promise.allSettled(all.map((d) => d.close()));
  }
}
