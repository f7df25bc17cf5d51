/**
 * The farm tasks a crawl or a map makes besides its pages — robots.txt, sitemaps, a map's start
 * page — each a task on the generic route, fetched exactly like a scrape (both paths, proxies,
 * the SSRF guard, retries), whose worker reads what the crawl needs (farm/worker/crawl-part.ts).
 * Sitemaps are walked here: robots.txt `Sitemap:` lines (else `/sitemap.xml`), indexes followed
 * (nested up to MAX_INDEX_DEPTH), gzip and text files read, within a file count and URL budget.
 */
import { toWireError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { robotsRules, robotsUrlOf, type RobotsFetch, type RobotsRules } from '../../core/crawl/robots.js';
import type { SitemapEntry } from '../../core/crawl/sitemap.js';
import type { CrawlFindings, CrawlPart, ScrapeOutcome, ScrapeTask } from '../../core/wire.js';
import type { TaskRunner } from '../jobs/job-runner.js';

export const MAX_SITEMAP_FILES = 500;
export const MAX_INDEX_DEPTH = 3;

/** Per-page options that decide how a helper fetch is made (proxy country, device). */
export interface FetchContext {
  farm: TaskRunner;
  accountId: number;
  /** `location` and `device` of the crawl's scrape options (a helper fetch never renders). */
  location: unknown;
  device: unknown;
  /** Deadline of one fetch (ms from its start). */
  deadlineMs: number;
  /** Absolute end of the whole operation (a sync map's deadline): no fetch starts or runs past it. */
  until?: number;
  signal?: AbortSignal;
}

export async function fetchPart(ctx: FetchContext, url: string, part: CrawlPart): Promise<ScrapeOutcome> {
  const task: ScrapeTask = {
    id: newId(),
    routeId: 'universal',
    params: { url, output: ['html'], json: null, location: ctx.location ?? null, device: ctx.device ?? 'desktop', run_js: false },
    accountId: ctx.accountId,
    deadline: Math.min(Date.now() + ctx.deadlineMs, ctx.until ?? Infinity),
    crawl: part,
  };
  return ctx.farm.run(task, ctx.signal);
}

/** robots.txt of a page's origin, as fetched (status 0: no answer after the farm's retries). */
export async function fetchRobots(ctx: FetchContext, pageUrl: string): Promise<RobotsFetch> {
  const url = robotsUrlOf(pageUrl);
  try {
    const out = await fetchPart(ctx, url, { kind: 'robots' });
    return { url, status: out.status, ...(out.crawl?.robotsText !== undefined ? { text: out.crawl.robotsText } : {}) };
  } catch (err) {
    if (ctx.signal?.aborted) throw err;
    // Every attempt failed (5xx, network): RFC 9309 treats the host as fully disallowed.
    const status = /HTTP (\d{3})/.exec(toWireError(err).message)?.[1];
    return { url, status: status ? Number(status) : 0 };
  }
}

export interface SitemapWalk {
  /** Sitemap files read. */
  files: number;
  /** Files that failed or were not sitemaps. */
  failed: number;
}

/**
 * Walks the sitemaps of a site, handing each file's URLs to `take` (which returns false to stop:
 * enough URLs). `robots` gives the `Sitemap:` lines; without any, `/sitemap.xml` is tried.
 */
export async function walkSitemaps(ctx: FetchContext, startUrl: string, robots: RobotsRules | undefined, take: (urls: SitemapEntry[]) => Promise<boolean> | boolean): Promise<SitemapWalk> {
  const declared = robots?.sitemaps ?? [];
  const queue: Array<{ url: string; depth: number }> = (declared.length > 0 ? declared : [new URL('/sitemap.xml', startUrl).href]).map((url) => ({ url, depth: 0 }));
  const visited = new Set<string>();
  const walk: SitemapWalk = { files: 0, failed: 0 };
  while (queue.length > 0 && visited.size < MAX_SITEMAP_FILES) {
    if (ctx.signal?.aborted || (ctx.until !== undefined && Date.now() > ctx.until - 500)) break;
    const { url, depth } = queue.shift()!;
    if (visited.has(url)) continue;
    visited.add(url);
    let found: CrawlFindings['sitemap'];
    try {
      found = (await fetchPart(ctx, url, { kind: 'sitemap' })).crawl?.sitemap;
    } catch (err) {
      if (ctx.signal?.aborted) break;
      walk.failed++;
      continue;
    }
    if (!found || found.kind === 'unknown') {
      walk.failed++;
      continue;
    }
    walk.files++;
    if (depth < MAX_INDEX_DEPTH) for (const child of found.sitemaps) queue.push({ url: child.url, depth: depth + 1 });
    if (found.urls.length > 0 && !(await take(found.urls))) break;
  }
  return walk;
}

export { robotsRules };
