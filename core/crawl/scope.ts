/**
 * Which discovered URLs a crawl (or a map) keeps: the site scope, the path patterns and the trap
 * guards, as one decision per URL. The rules are plain data (they travel to the farm's workers
 * with each page task, which filter a page's links where they were parsed); `linkJudge`
 * compiles them once per worker and crawl.
 *
 * Scope: the start URL's host, with a leading `www.` ignored on both sides, is "the site".
 * `allow_subdomains` adds every host below it (`blog.example.com` for `example.com`);
 * `allow_external` allows any host. Scheme does not matter to scope (http and https of one host
 * are one site).
 */
import { pathFilter, type PathFilter } from './patterns.js';
import { normaliseUrl, pathOf, repeatsSegments } from './url.js';

export interface CrawlRules {
  /** The normalised start URL. */
  start: string;
  allowSubdomains: boolean;
  allowExternal: boolean;
  ignoreQuery: boolean;
  include: readonly string[];
  exclude: readonly string[];
}

/**
 * Why a URL is not kept: not a crawlable http(s) URL of at most 2,048 characters (`invalid`:
 * mailto, javascript, ...; not counted anywhere), outside the site, refused by a path pattern,
 * or a trap (a path that repeats its segments).
 */
export type Refusal = 'invalid' | 'scope' | 'pattern' | 'trap';

export type Judgement = { ok: true; url: string } | { ok: false; why: Refusal; url?: string };

function siteOf(host: string): string {
  return host.startsWith('www.') ? host.slice(4) : host;
}

/** Whether `host` (lower-case hostname, no port) is inside the scope of `startHost`. */
export function inScope(host: string, startHost: string, subdomains: boolean, external: boolean): boolean {
  if (external) return true;
  const site = siteOf(startHost);
  const h = siteOf(host);
  return h === site || (subdomains && h.endsWith(`.${site}`));
}

export interface LinkJudge {
  /** A raw link (relative to `base`) → the normalised URL to keep, or why not. */
  judge(href: string, base: string): Judgement;
  /** The same decision for an absolute URL found elsewhere (a sitemap). */
  judgeAbsolute(url: string): Judgement;
}

export function linkJudge(rules: CrawlRules): LinkJudge {
  const startHost = new URL(rules.start).hostname;
  const filter: PathFilter = pathFilter(rules.include, rules.exclude);
  const opts = { ignoreQuery: rules.ignoreQuery };
  const decide = (url: string | undefined): Judgement => {
    if (url === undefined) return { ok: false, why: 'invalid' };
    if (!inScope(new URL(url).hostname, startHost, rules.allowSubdomains, rules.allowExternal)) return { ok: false, why: 'scope', url };
    if (repeatsSegments(url)) return { ok: false, why: 'trap', url };
    if (!filter.allows(pathOf(url))) return { ok: false, why: 'pattern', url };
    return { ok: true, url };
  };
  return {
    judge: (href, base) => decide(normaliseUrl(href, base, opts)),
    judgeAbsolute: (url) => decide(normaliseUrl(url, undefined, opts)),
  };
}
