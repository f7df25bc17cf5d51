/**
 * Link and image addresses made absolute against the page address and `<base href>`. One
 * resolver per conversion; repeated addresses (pages repeat them a lot) hit a small cache.
 */

/** Schemes whose links carry no navigable target; their text is kept without the link. */
const INERT_LINK = new Set(['javascript:', 'vbscript:', 'data:']);
const INERT_IMAGE = new Set(['javascript:', 'vbscript:', 'data:', 'blob:']);

/**
 * Fast paths (the URL parser is a visible share of the time on link-heavy pages): an address
 * that is already in the form the URL parser would print, absolute or root-relative, is used
 * as it is. The character classes leave out everything the parser would percent-encode or
 * normalise (uppercase host, ports, dot segments, `%2e`, backslashes, numeric hosts); anything
 * else takes the parser.
 */
const PATH = "/[A-Za-z0-9\\-._~!$&()*+,;=:@%/]*";
const TAIL = "(?:\\?[A-Za-z0-9\\-._~!$&()*+,;=:@%/?]*)?(?:#[A-Za-z0-9\\-._~!$&()*+,;=:@%/?#]*)?$";
const CANON_ABSOLUTE = new RegExp(`^https?://(?:[a-z0-9-]+\\.)*[a-z][a-z0-9-]*${PATH}${TAIL}`);
const CANON_ROOTED = new RegExp(`^(?!//)${PATH}${TAIL}`);
const NEEDS_PARSER = /\/\.|%2e/i;

export class UrlResolver {
  private readonly base: URL | null;
  /** `scheme://host` of the base, for root-relative fast paths; null when unusable. */
  private readonly origin: string | null;
  private readonly links = new Map<string, string | null>();
  private readonly images = new Map<string, string | null>();

  constructor(baseUrl: string, baseHref: string | null) {
    let base: URL | null = null;
    try {
      base = new URL(baseUrl);
    } catch {
      base = null;
    }
    if (baseHref !== null) {
      try {
        base = new URL(baseHref.trim(), base ?? undefined);
      } catch {
        // An unusable <base href> is ignored, as browsers do.
      }
    }
    this.base = base;
    const plain = (b: URL): boolean => /^https?:$/.test(b.protocol) && b.username === '' && b.password === '';
    this.origin = base !== null && plain(base) ? base.protocol + '//' + base.host : null;
  }

  /** The Markdown destination for an `href`, or null when the link should be dropped. */
  link(href: string): string | null {
    let v = this.links.get(href);
    if (v === undefined) {
      v = this.resolve(href, INERT_LINK);
      this.links.set(href, v);
    }
    return v;
  }

  /** The Markdown destination for an image `src`, or null (inline data, unusable). */
  image(src: string): string | null {
    let v = this.images.get(src);
    if (v === undefined) {
      v = this.resolve(src, INERT_IMAGE);
      this.images.set(src, v);
    }
    return v;
  }

  private resolve(ref: string, inert: ReadonlySet<string>): string | null {
    const r = ref.trim();
    if (r === '') return null;
    if (!NEEDS_PARSER.test(r)) {
      if (this.origin !== null && r.charCodeAt(0) === 47 && CANON_ROOTED.test(r)) {
        return destination(this.origin + r);
      }
      if (CANON_ABSOLUTE.test(r)) return destination(r);
    }
    let href: string;
    try {
      const u = this.base === null ? new URL(r) : new URL(r, this.base);
      if (inert.has(u.protocol)) return null;
      href = u.href;
    } catch {
      // Relative with no usable base, or malformed: keep it as written, minus what breaks
      // the Markdown destination.
      if (/^\s*(?:javascript|vbscript|data):/i.test(r)) return null;
      href = r.replace(/[\s<>]/g, encodeURIComponent);
    }
    return destination(href);
  }
}

/** Unbalanced parentheses would end the destination early; encode them only then. */
function destination(href: string): string {
  if (!href.includes('(') && !href.includes(')')) return href;
  let depth = 0;
  for (let i = 0; i < href.length; i++) {
    const c = href.charCodeAt(i);
    if (c === 40) depth++;
    else if (c === 41 && --depth < 0) break;
  }
  return depth === 0 ? href : href.replace(/\(/g, '%28').replace(/\)/g, '%29');
}
