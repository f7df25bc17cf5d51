/**
 * The farm's name resolution, off libuv's thread pool.
 *
 * `dns.lookup` is getaddrinfo run on libuv's thread pool (4 threads by default), which the
 * process shares with scrypt (Job API logins), zlib, fs and lmdb's async work: a flood of slow
 * work there queues every fetch's DNS behind it (issue 24: 64 bad logins took async submits
 * from 5 ms to 968 ms). This resolver answers like `dns.lookup(name, {all: true})` without the
 * pool:
 *
 * - names in `/etc/hosts` (read once, re-read when the file changes) and `localhost` (RFC 6761)
 *   are answered from memory;
 * - other names go to c-ares (`dns.Resolver`: its own sockets on the event loop, the system's
 *   servers from /etc/resolv.conf), A and AAAA asked together, IPv4 first;
 * - a single-label name (no dot) falls back to `dns.lookup`: only getaddrinfo applies the
 *   resolv.conf search list to it (c-ares's `resolve*` query the name as given).
 *
 * One resolver per thread (each farm worker has its own). Callers: the guarded lookups of the
 * fetch path (net/ssrf.ts) and of deliveries (delivery/address-guard.ts).
 */
import { lookup as systemLookup, Resolver, type LookupAddress } from 'node:dns';
import { readFileSync, statSync } from 'node:fs';
import { isIP } from 'node:net';

export type ResolveCallback = (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void;

const HOSTS_FILE = '/etc/hosts';
/** How often the hosts file's mtime is looked at (a stat, not a read). */
const HOSTS_CHECK_MS = 5_000;

interface HostsTable {
  byName: Map<string, LookupAddress[]>;
  mtimeMs: number;
  checkedAt: number;
}

let hosts: HostsTable | undefined;

/** `/etc/hosts` as name → addresses (IPv4 first); empty when the file cannot be read. */
export function parseHosts(text: string): Map<string, LookupAddress[]> {
  const byName = new Map<string, LookupAddress[]>();
  for (const raw of text.split('\n')) {
    const fields = raw.replace(/#.*/, '').trim().split(/\s+/);
    if (fields.length < 2) continue;
    const address = fields[0].replace(/%.*$/, '');
    const family = isIP(address);
    if (family === 0) continue;
    for (const name of fields.slice(1)) {
      const key = name.toLowerCase();
      const list = byName.get(key) ?? [];
      if (!list.some((a) => a.address === address)) list.push({ address, family });
      byName.set(key, list);
    }
  }
  for (const list of byName.values()) list.sort((a, b) => a.family - b.family);
  return byName;
}

function hostsTable(now: number): Map<string, LookupAddress[]> {
  if (hosts && now - hosts.checkedAt < HOSTS_CHECK_MS) return hosts.byName;
  let mtimeMs = -1;
  try {
    mtimeMs = statSync(HOSTS_FILE).mtimeMs;
  } catch {
    // no hosts file: only localhost is known
  }
  if (!hosts || hosts.mtimeMs !== mtimeMs) {
    let text = '';
    try {
      text = readFileSync(HOSTS_FILE, 'utf8');
    } catch {
      // as above
    }
    hosts = { byName: parseHosts(text), mtimeMs, checkedAt: now };
  } else {
    hosts.checkedAt = now;
  }
  return hosts.byName;
}

const LOCALHOST: LookupAddress[] = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
];

/** Answered without DNS: the hosts file, then `localhost` and its subdomains (RFC 6761 6.3). */
function fromHosts(name: string): LookupAddress[] | undefined {
  const hit = hostsTable(Date.now()).get(name);
  if (hit) return hit;
  if (name === 'localhost' || name.endsWith('.localhost')) return LOCALHOST;
  return undefined;
}

let shared: Resolver | undefined;

/** A c-ares resolver: the system's servers unless `servers` are given (tests). */
export function createResolver(servers?: string[]): Resolver {
  // Bounded: 2 tries of 2.5 s per server, well inside any fetch deadline.
  const resolver = new Resolver({ timeout: 2_500, tries: 2 });
  if (servers) resolver.setServers(servers);
  return resolver;
}

function notFound(name: string, cause?: NodeJS.ErrnoException): NodeJS.ErrnoException {
  return Object.assign(new Error(`no address for ${name}${cause ? ` (${cause.code})` : ''}`), { code: 'ENOTFOUND', hostname: name });
}

/** Codes that mean "this name has no record of this type", not a failure of the lookup. */
const EMPTY = new Set(['ENODATA', 'ENOTFOUND', 'NODATA', 'NOTFOUND']);

/**
 * Every address of `hostname`, like `dns.lookup(hostname, {all: true})`, off the thread pool.
 * IP literals are returned as they are. `resolver` defaults to one per thread.
 */
export function resolveAll(hostname: string, callback: ResolveCallback, resolver?: Resolver): void {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  const literal = isIP(name);
  if (literal) return callback(null, [{ address: name, family: literal }]);
  const known = fromHosts(name);
  if (known) return callback(null, known);
  if (!name.includes('.')) {
    systemLookup(name, { all: true }, (err, addresses) => callback(err, err ? [] : addresses));
    return;
  }
  const r = resolver ?? (shared ??= createResolver());
  let pending = 2;
  const found: { 4: string[]; 6: string[] } = { 4: [], 6: [] };
  let failure: NodeJS.ErrnoException | undefined;
  const settle = (family: 4 | 6) => (err: NodeJS.ErrnoException | null, addresses: string[]) => {
    if (err && !EMPTY.has(err.code ?? '')) failure ??= err;
    else if (!err) found[family] = addresses;
    if (--pending > 0) return;
    const all: LookupAddress[] = [...found[4].map((address) => ({ address, family: 4 })), ...found[6].map((address) => ({ address, family: 6 }))];
    if (all.length > 0) callback(null, all);
    else callback(failure ?? notFound(name), []);
  };
  r.resolve4(name, settle(4));
  r.resolve6(name, settle(6));
}
