/**
 * A crawl's page as callers see it (GET results, bucket objects): exactly a `/v1/scrape`
 * `results[]` entry (spec 2.3: html, markdown, screenshot, json, metadata) plus where the crawl
 * found it — `url` (as fetched), `depth`, `parent` (the page it was linked from; null for the
 * start URL and sitemap entries) — and `n`, its place in the crawl's results.
 */
import type { PageRecord } from '../store/crawls.js';
import type { PageResult } from '../wire.js';

export interface CrawlPage extends PageResult {
  n: number;
  url: string;
  depth: number;
  parent: string | null;
}

export function crawlPage(page: PageRecord, result: PageResult | undefined): CrawlPage {
  const fallback: PageResult = {
    html: null,
    markdown: null,
    screenshot: null,
    json: null,
    metadata: { page: 1, run_js: false, url: page.finalUrl ?? page.url, status_code: page.statusCode },
  };
  return { n: page.n, url: page.url, depth: page.depth, parent: page.parent, ...(result ?? fallback) };
}

/** A page in a `crawl.page` webhook event: where it is, not what it holds (bodies stay behind the API). */
export function pageRef(page: PageRecord): Record<string, unknown> {
  return { n: page.n, url: page.url, ...(page.finalUrl ? { final_url: page.finalUrl } : {}), depth: page.depth, parent: page.parent, status_code: page.statusCode };
}
