/**
 * The one address classifier of the farm: every path that connects to an address a caller
 * chose — page fetches (wreq-js), the browser's guard proxy, webhooks and bucket uploads —
 * asks it whether the address may be reached when private networks are not allowed.
 *
 * The rule: only global unicast is reached. IPv4 must be outside every special range
 * (ipaddr.js's table: private, loopback, link-local and metadata, carrier-grade NAT,
 * documentation, benchmarking, multicast, reserved, ...). IPv6 must be global unicast
 * (2000::/3) outside the special ranges, except the forms that carry an IPv4 address, which
 * are judged by the IPv4 inside, since that is where the packets end up:
 *   - IPv4-mapped `::ffff:a.b.c.d` and IPv4-translated `::ffff:0:a.b.c.d`;
 *   - NAT64 `64:ff9b::/96` (last 32 bits), and the local-use `64:ff9b:1::/48` (RFC 8215),
 *     whose operator may embed the IPv4 at any RFC 6052 position of a /48, /56, /64 or /96
 *     prefix: every one of those readings must be public;
 *   - 6to4 `2002::/16` (bits 16-47);
 *   - Teredo `2001::/32`: both the server (bits 32-63) and the client (the last 32 bits,
 *     inverted) must be public.
 * Anything that does not parse as an address is refused.
 */
import ipaddr from 'ipaddr.js';

type V6 = ipaddr.IPv6;

/** Bits [from, from + 32) of an IPv6 address as an IPv4 address, skipping bits 64-71 (RFC 6052's u octet) when asked. */
function v4At(addr: V6, from: number, skipU = false): ipaddr.IPv4 {
  const bytes = addr.toByteArray();
  const octets: number[] = [];
  for (let bit = from; octets.length < 4; bit += 8) {
    if (skipU && bit === 64) continue;
    octets.push(bytes[bit / 8]);
  }
  return new ipaddr.IPv4(octets);
}

/** The IPv4 addresses an IPv6 address carries (every reading that applies), or undefined. */
function carriedV4(addr: V6, range: string): ipaddr.IPv4[] | undefined {
  switch (range) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return [v4At(addr, 96)];
    case 'rfc6052':
      // 64:ff9b::/96 is the well-known prefix; anything else here is 64:ff9b:1::/48.
      if (addr.match(ipaddr.IPv6.parse('64:ff9b::'), 96)) return [v4At(addr, 96)];
      // The /96 reading first: refusals name it, it is the common layout.
      return [v4At(addr, 96), v4At(addr, 72), v4At(addr, 56, true), v4At(addr, 48, true)];
    case '6to4':
      return [v4At(addr, 16)];
    case 'teredo': {
      const client = v4At(addr, 96).octets.map((o) => o ^ 0xff);
      return [v4At(addr, 32), new ipaddr.IPv4(client)];
    }
    default:
      return undefined;
  }
}

const GLOBAL_UNICAST = ipaddr.IPv6.parse('2000::');

/** Why an address may not be reached, or undefined when it is global unicast. */
export function forbiddenAddress(address: string): string | undefined {
  const bracketless = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  // A zone id (`fe80::1%eth0`) names an interface, not part of the address.
  const ip = bracketless.replace(/%.*$/, '');
  let parsed: ipaddr.IPv4 | V6;
  try {
    parsed = ipaddr.parse(ip);
  } catch {
    return `${address} is not an IP address`;
  }
  if (parsed.kind() === 'ipv4') {
    return parsed.range() === 'unicast' ? undefined : `${ip} is a private or reserved IPv4 address`;
  }
  const v6 = parsed as V6;
  const range = v6.range();
  const inner = carriedV4(v6, range);
  if (inner) {
    const bad = inner.find((v4) => v4.range() !== 'unicast');
    return bad ? `${ip} carries the private IPv4 address ${bad.toString()}` : undefined;
  }
  if (range === 'unicast' && v6.match(GLOBAL_UNICAST, 3)) return undefined;
  return `${ip} is a private or reserved IPv6 address`;
}

/** True when the address may be reached with private networks refused. */
export function isGlobalUnicast(address: string): boolean {
  return forbiddenAddress(address) === undefined;
}

/** True when the address may not be reached with private networks refused. */
export function isForbiddenAddress(address: string): boolean {
  return forbiddenAddress(address) !== undefined;
}
