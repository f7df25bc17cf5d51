/**
 * URL normalisation and the de-duplication key of a crawl (README "Crawl").
 *
 * `normaliseUrl` gives the URL a crawl fetches: http/https only, scheme and host lower-cased
 * (the URL parser does it, and turns IDNs into punycode), default ports and the fragment
 * dropped, credentials dropped, dot segments resolved, percent-escapes of unreserved
 * characters decoded and the others upper-cased, `;jsessionid=` path parameters and the
 * session and tracking query parameters of SESSION_PARAMS removed (a session id per visit is
 * the classic crawler trap), the query sorted by name (stable, so repeated names keep their
 * order) or dropped whole with `ignore_query_parameters`.
 *
 * `pageKey` is what two URLs must share to be one page: the normalised URL with a trailing
 * slash of a non-root path removed (`/a` and `/a/` are one page; the first form met is the one
 * fetched). Keys are stored hashed (`urlHash`: 128 bits of SHA-256, base64url), so the seen-set
 * costs 22 bytes a URL whatever its length, and no key exceeds LMDB's key size.
 */
import { createHash } from 'node:crypto';

/** Query parameters that identify a visit or a campaign, not a page (compared lower-case). */
export const SESSION_PARAMS: ReadonlySet<string> = new Set([
  'jsessionid',
  'phpsessid',
  'aspsessionid',
  'sessionid',
  'session_id',
  'sessid',
  'sid',
  'cfid',
  'cftoken',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
  'utm_id',
  'gclid',
  'fbclid',
  'msclkid',
  'mc_cid',
  'mc_eid',
  '_ga',
]);

/** URLs longer than this are not crawled (a path that grows on every visit is a trap). */
export const MAX_URL_LENGTH = 2048;

export interface NormaliseOptions {
  /** Drop the whole query (`ignore_query_parameters`). */
  ignoreQuery?: boolean;
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;
const SESSION_PATH_PARAM = /;(?:jsessionid|phpsessid|sid|sessionid)=[^/?#]*/gi;

/** Percent-escapes of unreserved characters decoded, the rest upper-cased (RFC 3986 6.2.2). */
function normaliseEscapes(part: string): string {
  if (!part.includes('%')) return part;
  return part.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => {
    const ch = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(ch) ? ch : `%${hex.toUpperCase()}`;
  });
}

function paramName(pair: string): string {
  const eq = pair.indexOf('=');
  const raw = eq < 0 ? pair : pair.slice(0, eq);
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
}

/** The query without session/tracking parameters, sorted by name; '' when nothing is left. */
function normaliseQuery(search: string): string {
  if (search.length <= 1) return '';
  const pairs = search
    .slice(1)
    .split('&')
    .filter((p) => p !== '')
    .map((p) => ({ raw: normaliseEscapes(p), name: paramName(p) }))
    .filter((p) => !SESSION_PARAMS.has(p.name) && !p.name.startsWith('utm_'));
  if (pairs.length === 0) return '';
  // Array.prototype.sort is stable: repeated names keep their order (a=2&a=1 stays so).
  pairs.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return `?${pairs.map((p) => p.raw).join('&')}`;
}

/**
 * The normalised absolute URL of `input` (resolved against `base`), or undefined when it is
 * not a crawlable http(s) URL.
 */
export function normaliseUrl(input: string, base?: string, opts: NormaliseOptions = {}): string | undefined {
  let url: URL;
  try {
    url = base === undefined ? new URL(input.trim()) : new URL(input.trim(), base);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.hostname === '') return undefined;
  url.username = '';
  url.password = '';
  url.hash = '';
  if (url.hostname.endsWith('.')) url.hostname = url.hostname.slice(0, -1);
  const path = normaliseEscapes(url.pathname.replace(SESSION_PATH_PARAM, ''));
  const query = opts.ignoreQuery ? '' : normaliseQuery(url.search);
  const out = `${url.protocol}//${url.host}${path}${query}`;
  return out.length > MAX_URL_LENGTH ? undefined : out;
}

/** Two normalised URLs with the same key are one page (trailing slash of a non-root path ignored). */
export function pageKey(normalised: string): string {
  const q = normalised.indexOf('?');
  const head = q < 0 ? normalised : normalised.slice(0, q);
  const tail = q < 0 ? '' : normalised.slice(q);
  const slash = head.indexOf('/', head.indexOf('//') + 2);
  if (slash >= 0 && head.length > slash + 1 && head.endsWith('/')) return head.slice(0, -1) + tail;
  return normalised;
}

/** The stored form of a page key: 128 bits of SHA-256 in base64url (22 characters). */
export function urlHash(normalised: string): string {
  return createHash('sha256').update(pageKey(normalised)).digest().subarray(0, 16).toString('base64url');
}

/** The host of a normalised URL (lower-case, with a non-default port). */
export function hostOf(normalised: string): string {
  return new URL(normalised).host;
}

/** The path (and nothing else) the include/exclude patterns are matched against. */
export function pathOf(normalised: string): string {
  return new URL(normalised).pathname;
}

/**
 * A path that repeats one segment more than `max` times (`/a/b/a/b/a/b/...`, made by relative
 * links that resolve against themselves) is a trap, whatever the depth limit says.
 */
export function repeatsSegments(normalised: string, max = 3): boolean {
  const counts = new Map<string, number>();
  for (const seg of pathOf(normalised).split('/')) {
    if (seg === '') continue;
    const n = (counts.get(seg) ?? 0) + 1;
    if (n > max) return true;
    counts.set(seg, n);
  }
  return false;
}
