/**
 * Server-side request forgery guard. A scrape URL is chosen by the caller, so without this the
 * service could be made to read its own admin ports, the LAN or a cloud metadata service.
 *
 * Where the check runs (for every hop):
 * - plain path: `resolveChecked` resolves and checks each hop's host, and the impersonating
 *   client is pinned to the checked address (net/transports.ts: its `resolve` map), so the
 *   address checked is the address connected to (no DNS-rebinding gap). Redirects are followed
 *   by one loop (net/follow.ts) and every hop is checked again.
 * - browser path: see net/guard-proxy.ts (a local forward proxy that the page's contexts use
 *   when private addresses are refused).
 * - deliveries (webhooks, buckets): `guardedLookup` is their sockets' DNS lookup.
 * `allowPrivate` (GLEANER_ALLOW_PRIVATE, tests and demos) turns the address checks off; the
 * scheme check (http/https only) always applies. Which addresses are refused is decided in
 * net/addresses.ts.
 *
 * A refusal tells the caller that the address is not allowed and why in general terms, never
 * the address a name resolved to (a key holder could map internal DNS with it); the address
 * travels in `data.refused`, which the pool logs and strips (client-facing.ts `clientFacing`).
 */
import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { GleanerError } from '../../core/errors.js';
import { forbiddenAddress } from './addresses.js';
import { resolveAll } from './resolver.js';

export interface NetPolicy {
  allowPrivate: boolean;
  /** Trusted host name → address (see WorkerSetup.hosts): resolved here, never refused. */
  hosts: Readonly<Record<string, string>>;
}

export { forbiddenAddress };


/** A refusal: `why` is said to the caller; `refused` (the address and the rule) is only logged. */
export function forbidden(host: string, why: string, refused?: string): GleanerError {
  return new GleanerError('TARGET_FORBIDDEN', `The target ${host} is not allowed: ${why}.`, refused === undefined ? { host } : { host, refused });
}

/** The refusal of `host` for the forbidden address behind it (said in general terms). */
export function forbiddenAt(host: string, detail: string): GleanerError {
  const why = isIP(bare(host).replace(/%.*$/, '')) ? 'it is a private or reserved address' : 'it resolves to a private or reserved address';
  return forbidden(host, why, detail);
}

/** Scheme and IP-literal check of a URL (the part that needs no DNS); returns the parsed URL. */
export function checkUrl(raw: string, policy: NetPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new GleanerError('TARGET_FORBIDDEN', `The target ${JSON.stringify(raw.slice(0, 200))} is not an absolute URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw forbidden(url.protocol, 'only http and https are fetched');
  }
  if (!policy.allowPrivate && !trusted(url.hostname, policy)) {
    const host = bare(url.hostname);
    if (isIP(host)) {
      const why = forbiddenAddress(host);
      if (why) throw forbiddenAt(url.hostname, why);
    }
  }
  return url;
}

export function bare(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

function trusted(hostname: string, policy: NetPolicy): boolean {
  return Object.prototype.hasOwnProperty.call(policy.hosts, hostname.toLowerCase());
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** Private networks refused, no trusted names: the policy of deliveries (webhooks, buckets). */
export const CLOSED: NetPolicy = Object.freeze({ allowPrivate: false, hosts: Object.freeze({}) });

/**
 * A `dns.lookup` replacement that answers trusted names from the hosts map and refuses a
 * name if ANY of its addresses is forbidden (picking a public one among them would still let
 * the other side steer later connections).
 */
export function guardedLookup(policy: NetPolicy) {
  return function lookup(hostname: string, options: { all?: boolean; family?: number | string } | number, callback: LookupCallback): void {
    const all = typeof options === 'object' && options.all === true;
    const mapped = policy.hosts[hostname.toLowerCase()];
    if (mapped !== undefined) {
      const family = isIP(mapped);
      if (all) callback(null, [{ address: mapped, family }]);
      else callback(null, mapped, family);
      return;
    }
    // Off libuv's thread pool (net/resolver.ts): a flood of scrypt or zlib work cannot stall it.
    resolveAll(hostname, (err, addresses) => {
      if (err) return callback(err, all ? [] : '', 0);
      if (!policy.allowPrivate) {
        for (const a of addresses) {
          const why = forbiddenAddress(a.address);
          if (why) return callback(forbiddenAt(hostname, why) as unknown as NodeJS.ErrnoException, all ? [] : '', 0);
        }
      }
      if (addresses.length === 0) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), all ? [] : '', 0);
      if (all) callback(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/** Resolves and checks a host for a connection made by hand (guard proxy, proxied fetches). */
export function resolveChecked(hostname: string, policy: NetPolicy): Promise<{ address: string; family: number }> {
  const host = bare(hostname);
  if (isIP(host)) {
    const why = policy.allowPrivate || trusted(host, policy) ? undefined : forbiddenAddress(host);
    return why ? Promise.reject(forbiddenAt(hostname, why)) : Promise.resolve({ address: host, family: isIP(host) });
  }
  return new Promise((resolve, reject) => {
    guardedLookup(policy)(host, {}, (err, address, family) => {
      if (err) reject(err);
      else resolve({ address: address as string, family: family ?? 4 });
    });
  });
}

/** The GleanerError behind an error raised deep in a socket (undici wraps them in `cause`). */
export function refusalIn(err: unknown): GleanerError | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; depth++) {
    if (e instanceof GleanerError && e.code === 'TARGET_FORBIDDEN') return e;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}
