/**
 * Worker side of crawls and maps (ScrapeTask.crawl): reads what the crawl needs from the page the
 * flow fetched — links judged by the crawl's rules (scope, patterns, traps) and normalised, the
 * canonical URL, the final URL after redirects; a sitemap's entries; a robots.txt's text — where
 * the page already is, so no page crosses to the main thread to be parsed there. A crawl page's
 * result goes back to the main thread, which stores it in the commit of the page (one write
 * transaction for the page, its links and its charge: commits of many pages share one fsync,
 * where a write from each worker thread would cost an fsync of its own).
 */
import { extractLinks } from '../../core/crawl/links.js';
import { linkJudge, type CrawlRules, type LinkJudge } from '../../core/crawl/scope.js';
import { parseSitemap, sitemapText } from '../../core/crawl/sitemap.js';
import { normaliseUrl } from '../../core/crawl/url.js';
import type { CrawlFindings, CrawlPart } from '../../core/wire.js';
import type { FetchedPage } from './outputs.js';

/** robots.txt text returned at most (RFC 9309 asks for at least 500 KiB to be read). */
const MAX_ROBOTS_CHARS = 512 * 1024;

/** Judges compiled once per crawl and worker (patterns compile in ~1 ms, pages come by thousands). */
const judges = new Map<string, LinkJudge>();

function judgeOf(rules: CrawlRules): LinkJudge {
  const key = JSON.stringify(rules);
  let judge = judges.get(key);
  if (!judge) {
    if (judges.size >= 64) judges.delete(judges.keys().next().value!);
    judges.set(key, (judge = linkJudge(rules)));
  }
  return judge;
}

/** What the worker reads from the fetched page for the task's crawl part (`location`: a 3xx's Location header). */
export function crawlFindings(part: CrawlPart, requested: string, page: FetchedPage, location?: string): CrawlFindings {
  if (part.kind === 'robots') return page.status >= 200 && page.status < 300 && !page.binary ? { robotsText: page.body.slice(0, MAX_ROBOTS_CHARS) } : {};
  if (part.kind === 'sitemap') {
    if (page.status < 200 || page.status >= 300) return {};
    const bytes = page.binary ? Buffer.from(page.body, 'base64') : Buffer.from(page.body, 'utf8');
    const parsed = parseSitemap(sitemapText(bytes));
    return { sitemap: { kind: parsed.kind, urls: parsed.urls, sitemaps: parsed.sitemaps } };
  }
  const rules = part.rules;
  const opts = { ignoreQuery: rules.ignoreQuery };
  const out: CrawlFindings = {};
  if (part.kind === 'page' && page.status >= 300 && page.status < 400 && location !== undefined) {
    // Not followed (page-fetch: manualRedirects): the crawl takes the target in as a URL of its own.
    const target = judgeOf(rules).judge(location, page.url);
    out.redirected = true;
    if (target.ok) out.redirect = target.url;
    else if (target.url !== undefined && target.why !== 'invalid') out.refused = [{ url: target.url, why: target.why }];
    out.links = [];
    return out;
  }
  const final = normaliseUrl(page.url, undefined, opts);
  if (final !== undefined && final !== requested) out.finalUrl = final;
  if (!page.isHtml || page.binary) return out;
  const judge = judgeOf(rules);
  const found = extractLinks(page.body, page.url, part.respectRobots);
  if (found.canonical !== undefined) {
    const canon = judge.judgeAbsolute(found.canonical);
    if (canon.ok && canon.url !== (final ?? requested)) out.canonical = canon.url;
  }
  if (part.respectRobots && found.nofollow) {
    out.nofollow = found.hrefs.length;
    out.links = [];
    return out;
  }
  const links: string[] = [];
  const refused: NonNullable<CrawlFindings['refused']> = [];
  const seen = new Set<string>();
  for (const href of found.hrefs) {
    const j = judge.judge(href, found.base);
    if (j.url === undefined || seen.has(j.url)) continue;
    seen.add(j.url);
    if (j.ok) links.push(j.url);
    else if (j.why !== 'invalid') refused.push({ url: j.url, why: j.why });
  }
  out.links = links;
  if (refused.length > 0) out.refused = refused;
  if (found.nofollowLinks > 0) out.nofollow = found.nofollowLinks;
  return out;
}
