/**
 * `POST /v1/map`: a site's URLs without fetching its pages — the sitemaps (robots.txt `Sitemap:`
 * lines, else `/sitemap.xml`; indexes, gzip and text files) and the links of the start page,
 * normalised and de-duplicated as a crawl would (core/crawl/url.ts), kept to the site (and its
 * subdomains with `include_subdomains`), filtered by `search`, at most `limit`. The robots fetch
 * and sitemap walk run beside the start page's fetch. Order: the start URL, sitemap URLs in file
 * order, then links; a URL found both ways is a `sitemap` URL (with its `lastmod`).
 */
import { GleanerError, toWireError, type WireError } from '../../core/errors.js';
import { linkJudge } from '../../core/crawl/scope.js';
import { normaliseUrl, pageKey } from '../../core/crawl/url.js';
import { fetchPart, fetchRobots, robotsRules, walkSitemaps, type FetchContext, type SitemapWalk } from './fetch-part.js';

export interface MapRequest {
  url: string;
  search?: string;
  include_subdomains: boolean;
  ignore_query_parameters: boolean;
  sitemap: 'include' | 'only' | 'skip';
  limit: number;
}

export interface MappedUrl {
  url: string;
  lastmod?: string;
  source: 'sitemap' | 'links';
}

export interface MapAnswer {
  urls: MappedUrl[];
  /** Sitemap files read and failed; the start page's HTTP status (absent when it was not fetched or failed). */
  sitemaps: SitemapWalk;
  startStatus?: number;
}

export async function runMap(ctx: FetchContext, req: MapRequest): Promise<MapAnswer> {
  const opts = { ignoreQuery: req.ignore_query_parameters };
  const start = normaliseUrl(req.url, undefined, opts);
  if (start === undefined) throw new GleanerError('VALIDATION_ERROR', undefined, { errors: [{ pointer: '#/url', detail: 'must be an absolute http or https URL' }] });
  const judge = linkJudge({ start, allowSubdomains: req.include_subdomains, allowExternal: false, ignoreQuery: req.ignore_query_parameters, include: [], exclude: [] });
  const needle = req.search?.toLowerCase();
  const found = new Map<string, MappedUrl>();
  const full = (): boolean => found.size >= req.limit;
  const add = (url: string, source: MappedUrl['source'], lastmod?: string): void => {
    if (full() || (needle !== undefined && !url.toLowerCase().includes(needle))) return;
    const key = pageKey(url);
    const had = found.get(key);
    if (had && (had.source === 'sitemap' || source === 'links')) return;
    found.set(key, { url: had?.url ?? url, source, ...(lastmod ? { lastmod } : {}) });
  };

  const sitemapUrls: MappedUrl[] = [];
  const sitemaps = async (): Promise<SitemapWalk> => {
    if (req.sitemap === 'skip') return { files: 0, failed: 0 };
    const robots = robotsRules(await fetchRobots(ctx, start));
    let matching = 0;
    return walkSitemaps(ctx, start, robots, (entries) => {
      for (const e of entries) {
        const j = judge.judgeAbsolute(e.url);
        if (!j.ok) continue;
        sitemapUrls.push({ url: j.url, source: 'sitemap', ...(e.lastmod ? { lastmod: e.lastmod } : {}) });
        if (needle === undefined || j.url.toLowerCase().includes(needle)) matching++;
      }
      // Enough when the sitemaps alone hold `limit` matching URLs (twice over: some may repeat).
      return matching < req.limit * 2;
    });
  };
  let startError: WireError | undefined;
  const links = async (): Promise<{ status?: number; urls: string[] }> => {
    if (req.sitemap === 'only') return { urls: [] };
    try {
      const out = await fetchPart(ctx, start, { kind: 'links', rules: { start, allowSubdomains: req.include_subdomains, allowExternal: false, ignoreQuery: req.ignore_query_parameters, include: [], exclude: [] }, respectRobots: false });
      return { status: out.status, urls: out.crawl?.links ?? [] };
    } catch (err) {
      if (ctx.signal?.aborted) throw err;
      startError = toWireError(err);
      return { urls: [] };
    }
  };
  const [walk, page] = await Promise.all([sitemaps(), links()]);
  add(start, sitemapUrls.some((u) => pageKey(u.url) === pageKey(start)) ? 'sitemap' : 'links');
  for (const u of sitemapUrls) add(u.url, 'sitemap', u.lastmod);
  for (const url of page.urls) add(url, 'links');
  // Nothing found and the start page failed: the site did not answer; say so rather than an empty list.
  if (startError && walk.files === 0) throw GleanerError.fromWire(startError);
  return { urls: [...found.values()], sitemaps: walk, ...(page.status !== undefined ? { startStatus: page.status } : {}) };
}
