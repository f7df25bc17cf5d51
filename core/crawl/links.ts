/**
 * The links of one HTML page, read in one streaming pass (htmlparser2's tokenizer, no DOM):
 * `<a href>` and `<area href>` (except `rel="nofollow"` ones when robots are respected), the
 * `<base href>` they resolve against, `<link rel="canonical">`, and the page's
 * `<meta name="robots">` (`nofollow`: its links are not followed when robots are respected).
 * Runs in the farm's workers, next to the page's other outputs.
 */
import { Parser } from 'htmlparser2';

export interface PageLinks {
  /** Raw hrefs in document order (duplicates removed), to be resolved against `base`. */
  hrefs: string[];
  /** The URL relative links resolve against: `<base href>` resolved against the page URL, else the page URL. */
  base: string;
  /** `<link rel="canonical" href>`, resolved; absent when the page names none. */
  canonical?: string;
  /** `<meta name="robots" content="...nofollow...">` (or `none`). */
  nofollow: boolean;
  /** `<a rel="nofollow">` links left out (counted, when `skipNofollowLinks`). */
  nofollowLinks: number;
}

/** At most this many hrefs are read from one page (a link farm stays bounded). */
export const MAX_LINKS_PER_PAGE = 5000;

function relTokens(rel: string | undefined): string[] {
  return (rel ?? '').toLowerCase().split(/\s+/);
}

function resolve(href: string, base: string): string | undefined {
  try {
    return new URL(href.trim(), base).href;
  } catch {
    return undefined;
  }
}

export function extractLinks(html: string, pageUrl: string, skipNofollowLinks: boolean): PageLinks {
  const seen = new Set<string>();
  const hrefs: string[] = [];
  let base = pageUrl;
  let baseSet = false;
  let canonical: string | undefined;
  let nofollow = false;
  let nofollowLinks = 0;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if ((name === 'a' || name === 'area') && attrs.href !== undefined) {
          if (skipNofollowLinks && relTokens(attrs.rel).includes('nofollow')) {
            nofollowLinks++;
            return;
          }
          const href = attrs.href.trim();
          if (href === '' || href.startsWith('#') || seen.has(href) || hrefs.length >= MAX_LINKS_PER_PAGE) return;
          seen.add(href);
          hrefs.push(href);
        } else if (name === 'base' && attrs.href !== undefined && !baseSet) {
          // Only the first <base> counts (HTML's rule).
          baseSet = true;
          base = resolve(attrs.href, pageUrl) ?? pageUrl;
        } else if (name === 'link' && attrs.href !== undefined && canonical === undefined && relTokens(attrs.rel).includes('canonical')) {
          canonical = attrs.href;
        } else if (name === 'meta' && (attrs.name ?? '').toLowerCase() === 'robots') {
          const content = (attrs.content ?? '').toLowerCase();
          if (/\b(nofollow|none)\b/.test(content)) nofollow = true;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  const out: PageLinks = { hrefs, base, nofollow, nofollowLinks };
  const canon = canonical !== undefined ? resolve(canonical, base) : undefined;
  if (canon !== undefined) out.canonical = canon;
  return out;
}
