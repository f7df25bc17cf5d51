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
 * Which addresses are refused is decided by farm/net/addresses.ts, the one classifier the
 * fetch and browser paths use too.
 */
import type { LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { forbiddenAddress } from '../net/addresses.js';
import { resolveAll } from '../net/resolver.js';

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

/** True for any address a delivery must not reach when private networks are not allowed. */
export function isForbiddenAddress(address: string): boolean {
  return forbiddenAddress(address) !== undefined;
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
  // Off libuv's thread pool (net/resolver.ts), like the fetch path's lookup.
  resolveAll(hostname, (err, addresses: LookupAddress[]) => {
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
