/** A crawl job's validated parameters (core/crawl/spec.ts, echoed by core/schema/validate.ts), typed. */
export interface CrawlParams {
  url: string;
  limit: number;
  max_depth: number;
  include_paths: string[];
  exclude_paths: string[];
  allow_subdomains: boolean;
  allow_external: boolean;
  ignore_query_parameters: boolean;
  sitemap: 'include' | 'only' | 'skip';
  respect_robots: boolean;
  delay_ms: number;
  max_concurrency_per_host: number;
  /** The generic route's per-page options (output, json, location, device, run_js). */
  scrape: Record<string, unknown>;
  callback_url: string | null;
  callback_pages: boolean;
  storage: { type: string; url: string } | null;
}

/** The stored params as CrawlParams (they were validated and echoed at submit; defaults filled). */
export function crawlParams(params: Record<string, unknown>): CrawlParams {
  return params as unknown as CrawlParams;
}
