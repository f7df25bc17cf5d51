/**
 * robots.txt (RFC 9309) for crawls and maps, on `robots-parser` (wildcards, `$`, longest match,
 * Allow over Disallow on ties). Gleaner reads the group of its product token `gleaner`, else `*`.
 *
 * What a robots.txt answer means (RFC 9309 2.3.1): 2xx → its rules; 4xx (404 included) → no
 * rules, everything allowed; 5xx or no answer after the farm's retries → everything disallowed
 * for that host (the site may be overloaded; the crawl does not add to it). `Crawl-delay` is
 * honoured as a floor on the host's delay, capped at MAX_CRAWL_DELAY_MS.
 *
 * A decision is recorded for every URL robots keep out: which robots.txt, which line, why.
 */
import robotsModule from 'robots-parser';

export const ROBOTS_AGENT = 'gleaner';
/** A `Crawl-delay` above this is taken as this (a minute between pages is already very slow). */
export const MAX_CRAWL_DELAY_MS = 60_000;

/** A robots.txt as fetched: its URL and the HTTP status (0: no answer), with the text on 2xx. */
export interface RobotsFetch {
  url: string;
  status: number;
  text?: string;
}

/** Why a URL was kept out, as recorded on the crawl. */
export interface RobotsDecision {
  robots_url: string;
  /** The deciding line (1-based) and its text; absent when the whole file could not be read. */
  line?: number;
  rule?: string;
  reason: string;
}

export interface RobotsRules {
  /** undefined: allowed; else the decision that keeps the URL out. */
  check(url: string): RobotsDecision | undefined;
  /** `Crawl-delay` in ms (capped), when the file sets one for our group. */
  crawlDelayMs: number | undefined;
  /** `Sitemap:` lines. */
  sitemaps: string[];
}

interface Parsed {
  isAllowed(url: string, ua?: string): boolean | undefined;
  getMatchingLineNumber(url: string, ua?: string): number;
  getCrawlDelay(ua?: string): number | undefined;
  getSitemaps(): string[];
}

// The package is CommonJS (`module.exports = function`): the default import is that function at
// run time (Node and esbuild alike), though its typings describe an ES default export.
const robotsParser = robotsModule as unknown as (url: string, text: string) => Parsed;

export function robotsRules(fetched: RobotsFetch): RobotsRules {
  const { status, url } = fetched;
  if (status >= 200 && status < 300) return fromText(url, fetched.text ?? '');
  if (status >= 400 && status < 500) return { check: () => undefined, crawlDelayMs: undefined, sitemaps: [] };
  const reason = status === 0 ? 'robots.txt could not be fetched: every URL of the host is disallowed (RFC 9309 2.3.1.4)' : `robots.txt answered HTTP ${status}: every URL of the host is disallowed (RFC 9309 2.3.1.4)`;
  return { check: () => ({ robots_url: url, reason }), crawlDelayMs: undefined, sitemaps: [] };
}

function fromText(url: string, text: string): RobotsRules {
  const parsed: Parsed = robotsParser(url, text);
  const lines = text.split(/\r\n|\r|\n/);
  const delay = parsed.getCrawlDelay(ROBOTS_AGENT);
  return {
    check(target: string): RobotsDecision | undefined {
      // robots-parser answers undefined for another origin's URL: those are checked against their own file.
      if (parsed.isAllowed(target, ROBOTS_AGENT) !== false) return undefined;
      const line = parsed.getMatchingLineNumber(target, ROBOTS_AGENT);
      const decision: RobotsDecision = { robots_url: url, reason: 'disallowed by robots.txt' };
      if (line > 0) {
        decision.line = line;
        decision.rule = (lines[line - 1] ?? '').trim();
      }
      return decision;
    },
    crawlDelayMs: typeof delay === 'number' && delay > 0 ? Math.min(MAX_CRAWL_DELAY_MS, Math.round(delay * 1000)) : undefined,
    sitemaps: parsed.getSitemaps(),
  };
}

/** The robots.txt URL of a page URL's origin. */
export function robotsUrlOf(pageUrl: string): string {
  return new URL('/robots.txt', pageUrl).href;
}
