/**
 * Refuses deliveries to loopback, private, link-local, metadata and other non-public addresses
 * (DESIGN.md part 2, `GLEANER_ALLOW_PRIVATE`). A callback URL or an `s3_compatible` endpoint is
 * chosen by the caller, so without this a job could make the service POST to its own admin
 * ports or to a cloud metadata service.
 *
 * The check runs inside the socket's DNS lookup (`guardedLookup`, installed on an undici Agent):
 * the address checked is the address connected to, so DNS rebinding between a check and the
 * connect is not possible. IP-literal hosts skip lookup, so `literalHostRefusal` checks them
 * before the request is made.
 *
 * Kept small and local to delivery; when `farm/net/ssrf.ts` lands the two should merge.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';

/** Marks a connect refused by the guard, so callers can report it as final (no retry). */
export class AddressForbiddenError extends Error {
  readonly code = 'GLEANER_ADDRESS_FORBIDDEN';
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    const what = host.replace(/^\[|\]$/g, '') === address ? address : `${host} (${address})`;
    super(`${what} is a private, loopback, link-local or reserved address`);
    this.name = 'AddressForbiddenError';
  }
}

type Range = readonly [base: number, bits: number];

// IPv4 ranges that are not public unicast (RFC 6890 and friends). 169.254.0.0/16 covers the
// usual metadata address; 100.64.0.0/10 covers carrier-grade NAT and some vendors' metadata.
const V4_FORBIDDEN: readonly Range[] = [
  [v4('0.0.0.0'), 8],
  [v4('10.0.0.0'), 8],
  [v4('100.64.0.0'), 10],
  [v4('127.0.0.0'), 8],
  [v4('169.254.0.0'), 16],
  [v4('172.16.0.0'), 12],
  [v4('192.0.0.0'), 24],
  [v4('192.0.2.0'), 24],
  [v4('192.168.0.0'), 16],
  [v4('198.18.0.0'), 15],
  [v4('198.51.100.0'), 24],
  [v4('203.0.113.0'), 24],
  [v4('224.0.0.0'), 4],
  [v4('240.0.0.0'), 4],
];

function v4(text: string): number {
  return text.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
}

function inV4(addr: number, [base, bits]: Range): boolean {
  const size = 2 ** (32 - bits);
  return Math.floor(addr / size) === Math.floor(base / size);
}

export function isForbiddenIPv4(text: string): boolean {
  const addr = v4(text);
  return V4_FORBIDDEN.some((range) => inV4(addr, range));
}

/** Eight 16-bit groups, or null when not an IPv6 address. Zone ids (`%eth0`) are dropped. */
function ipv6Groups(text: string): number[] | null {
  let s = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIP(s) !== 6) return null;
  const dotted = s.match(/^(.*:)(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) {
    const n = v4(dotted[2]!);
    s = `${dotted[1]}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((h) => parseInt(h, 16)));
  const halves = s.split('::');
  if (halves.length === 1) return groups(s);
  const left = groups(halves[0]!);
  const right = groups(halves[1]!);
  return [...left, ...new Array<number>(Math.max(0, 8 - left.length - right.length)).fill(0), ...right];
}

function embeddedV4(hi: number, lo: number): string {
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

export function isForbiddenIPv6(text: string): boolean {
  const g = ipv6Groups(text);
  if (!g || g.length !== 8) return true; // unparseable: refuse rather than guess
  const zeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroUpTo(8)) return true; // ::
  if (zeroUpTo(7) && g[7] === 1) return true; // ::1
  if (zeroUpTo(5) && g[5] === 0xffff) return isForbiddenIPv4(embeddedV4(g[6]!, g[7]!)); // ::ffff:a.b.c.d
  if (zeroUpTo(6)) return true; // deprecated IPv4-compatible ::a.b.c.d
  if (g[0] === 0x64 && g[1] === 0xff9b) return g[2] !== 0 || isForbiddenIPv4(embeddedV4(g[6]!, g[7]!)); // NAT64
  if (g[0] === 0x2002) return isForbiddenIPv4(embeddedV4(g[1]!, g[2]!)); // 6to4
  if (g[0] === 0x2001 && (g[1] === 0 || g[1] === 0x0db8)) return true; // Teredo, documentation
  if (g[0] === 0x100 && g[1] === 0 && g[2] === 0 && g[3] === 0) return true; // 100::/64 discard
  const first = g[0]!;
  if ((first & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local (incl. fd00:ec2::254)
  if ((first & 0xffc0) === 0xfe80 || (first & 0xffc0) === 0xfec0) return true; // link-local, site-local
  if ((first & 0xff00) === 0xff00) return true; // multicast
  return false;
}

/** True for any address a delivery must not reach when private networks are not allowed. */
export function isForbiddenAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare.replace(/%.*$/, ''));
  if (family === 4) return isForbiddenIPv4(bare);
  if (family === 6) return isForbiddenIPv6(bare);
  return true;
}

/** For an IP-literal host (which skips DNS): the refusal, or null when the host is a name or public. */
export function literalHostRefusal(hostname: string): AddressForbiddenError | null {
  const bare = hostname.replace(/^\[|\]$/g, '');
  if (isIP(bare.replace(/%.*$/, '')) === 0) return null;
  return isForbiddenAddress(bare) ? new AddressForbiddenError(hostname, bare) : null;
}

/**
 * A `net.connect` lookup that resolves every address of the name and refuses the connect if
 * any of them is forbidden (a name with one public and one private address is refused: the
 * socket could pick either).
 */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
    if (err) return callback(err, '', 0);
    const bad = addresses.find((a) => isForbiddenAddress(a.address));
    if (bad) return callback(new AddressForbiddenError(hostname, bad.address) as unknown as NodeJS.ErrnoException, '', 0);
    if (addresses.length === 0) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};

/** Finds a guard refusal in an error or its cause chain (undici may wrap connect errors). */
export function findAddressRefusal(err: unknown): AddressForbiddenError | null {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof AddressForbiddenError) return e;
  }
  return null;
}
