/**
 * The plain path's clients of one worker thread: wreq-js transports (a connection pool each,
 * with Chrome's TLS and HTTP/2: net/emulation.ts), created on first use and kept (connection
 * reuse is most of the plain path's speed).
 *
 * Which transport serves a hop:
 * - through an upstream proxy: one per proxy URL (credentials in the URL become Basic
 *   Proxy-Authorization; https targets tunnel with CONNECT). The proxy resolves the name, so
 *   the hop's host is resolved and checked first (net/follow.ts); a proxy that resolves
 *   differently is the residual risk it was with undici.
 * - direct with private addresses refused: one per (host, checked address), its `resolve` map
 *   pinning the host to the address the guard checked, so the client never resolves a name
 *   itself and never reaches an address that was not checked (redirects included: each hop is
 *   checked and pinned again). A name whose address changes gets a new transport.
 * - direct with private addresses allowed (tests, demos): one, with the trusted hosts map.
 *
 * At most MAX_TRANSPORTS are kept; the least recently used is closed past that.
 * Concurrency: creation is async; the promise is stored so two hops never create the same one.
 */
import { createTransport, type Transport } from 'wreq-js';
import { CHROME_EMULATION } from './emulation.js';
import type { ProxyEntry } from './proxies.js';
import type { NetPolicy } from './ssrf.js';

const MAX_TRANSPORTS = 64;
/** Idle pooled connections are closed after this (undici's keep-alive was 10 s too). */
const IDLE_MS = 10_000;
const CONNECT_TIMEOUT_MS = 15_000;

export class Transports {
  private readonly byKey = new Map<string, Promise<Transport>>();

  constructor(private readonly policy: NetPolicy) {}

  /** The transport for a hop to `host` (`address`: the guard's checked address, direct hops only). */
  for(proxy: ProxyEntry | null, host: string, address: string | undefined): Promise<Transport> {
    if (proxy) return this.get(`proxy ${proxy.url}`, { proxy: proxy.url });
    if (address === undefined || this.policy.allowPrivate) return this.get('open', { resolve: { ...this.policy.hosts } });
    return this.get(`pin ${host} ${address}`, { resolve: { [host]: address } });
  }

  private get(key: string, extra: { proxy?: string; resolve?: Record<string, string> }): Promise<Transport> {
    let found = this.byKey.get(key);
    if (found) {
      // Most recently used last: Map keeps insertion order.
      this.byKey.delete(key);
      this.byKey.set(key, found);
      return found;
    }
    found = createTransport({ ...CHROME_EMULATION, ...extra, poolIdleTimeout: IDLE_MS, connectTimeout: CONNECT_TIMEOUT_MS, trustStore: 'combined' });
    found.catch(() => this.byKey.delete(key));
    this.byKey.set(key, found);
    if (this.byKey.size > MAX_TRANSPORTS) {
      const [oldest, transport] = this.byKey.entries().next().value as [string, Promise<Transport>];
      this.byKey.delete(oldest);
      void transport.then((t) => t.close()).catch(() => undefined);
    }
    return found;
  }

  async close(): Promise<void> {
    const all = [...this.byKey.values()];
    this.byKey.clear();
    await Promise.allSettled(all.map(async (t) => (await t).close()));
  }
}
