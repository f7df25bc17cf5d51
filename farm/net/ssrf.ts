/**
 * Server-side request forgery guard. A scrape URL is chosen by the caller, so without this the
 * service could be made to read its own admin ports, the LAN or a cloud metadata service.
 *
 * Where the check runs (at connect time, for every hop):
 * - undici path: `guardedLookup` is the socket's DNS lookup, so the address checked is the
 *   address connected to (no DNS-rebinding gap); IP-literal hosts never reach a lookup, so
 *   `guardedConnector` (net/agents.ts) checks them itself. Redirects are followed by hand and
 *   every hop goes through the same connector.
 * - browser path: see net/guard-proxy.ts (a local forward proxy that the page's contexts use
 *   when private addresses are refused).
 * `allowPrivate` (GLEANER_ALLOW_PRIVATE, tests and demos) turns the address checks off; the
 * scheme check (http/https only) always applies.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { GleanerError } from '../../core/errors.js';

export interface NetPolicy {
  allowPrivate: boolean;
  /** Trusted host name → address (see WorkerSetup.hosts): resolved here, never refused. */
  hosts: Readonly<Record<string, string>>;
}

const BLOCKED = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, incl. 169.254.169.254 metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  BLOCKED.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128], // unspecified
  ['::1', 128],
  ['fc00::', 7], // unique local, incl. fd00:ec2::254 metadata
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
  ['2001:db8::', 32], // documentation
  ['100::', 64], // discard
] as const) {
  BLOCKED.addSubnet(net, bits, 'ipv6');
}

/** IPv4 carried inside an IPv6 address (mapped, compatible, NAT64, 6to4), or undefined. */
function embeddedV4(addr: string): string | undefined {
  const lower = addr.toLowerCase();
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const words = expandV6(lower);
  if (!words) return undefined;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zero = (from: number, to: number) => words.slice(from, to).every((w) => w === 0);
  if (zero(0, 5) && words[5] === 0xffff) return v4(words[6], words[7]); // ::ffff:a.b.c.d
  if (zero(0, 6) && (words[6] !== 0 || words[7] > 1)) return v4(words[6], words[7]); // ::a.b.c.d
  if (words[0] === 0x64 && words[1] === 0xff9b && zero(2, 6)) return v4(words[6], words[7]); // NAT64
  if (words[0] === 0x2002) return v4(words[1], words[2]); // 6to4
  return undefined;
}

function expandV6(addr: string): number[] | undefined {
  if (isIP(addr) !== 6 || addr.includes('.')) return undefined;
  const [head, tail = ''] = addr.split('::');
  const h = head ? head.split(':') : [];
  const t = addr.includes('::') ? (tail ? tail.split(':') : []) : [];
  const fill = addr.includes('::') ? 8 - h.length - t.length : 0;
  const words = [...h, ...Array<string>(fill).fill('0'), ...t].map((w) => parseInt(w, 16));
  return words.length === 8 ? words : undefined;
}

/** Why an address may not be fetched, or undefined when it is public. */
export function forbiddenAddress(address: string): string | undefined {
  const ip = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const family = isIP(ip);
  if (family === 4) return BLOCKED.check(ip, 'ipv4') ? `${ip} is a private or reserved IPv4 address` : undefined;
  if (family === 6) {
    const v4 = embeddedV4(ip);
    if (v4 !== undefined) return forbiddenAddress(v4) && `${ip} carries the private IPv4 address ${v4}`;
    return BLOCKED.check(ip, 'ipv6') ? `${ip} is a private or reserved IPv6 address` : undefined;
  }
  return `${address} is not an IP address`;
}

export function forbidden(host: string, why: string): GleanerError {
  return new GleanerError('TARGET_FORBIDDEN', `The target ${host} is not allowed: ${why}.`, { host });
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
      if (why) throw forbidden(url.hostname, why);
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
    dnsLookup(hostname, { all: true }, (err, addresses) => {
      if (err) return callback(err, all ? [] : '', 0);
      if (!policy.allowPrivate) {
        for (const a of addresses) {
          const why = forbiddenAddress(a.address);
          if (why) return callback(forbidden(hostname, why) as unknown as NodeJS.ErrnoException, all ? [] : '', 0);
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
    return why ? Promise.reject(forbidden(hostname, why)) : Promise.resolve({ address: host, family: isIP(host) });
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
