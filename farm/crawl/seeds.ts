/**
 * What a crawl starts from and what it asks a host first: the start URL (depth 0) and the
 * sitemaps' URLs in scope (depth 1), taken in by the store (deduplicated, so a crawl that
 * restarts before it was seeded seeds again harmlessly); and each host's robots.txt — from this
 * run, from the store (after a restart it is not fetched again), or fetched now and stored.
 */
import { robotsRules, type RobotsRules } from '../../core/crawl/robots.js';
import { linkJudge, type CrawlRules } from '../../core/crawl/scope.js';
import type { CrawlStore, Discovered, DiscoveryLimits } from '../../core/store/crawls.js';
import { fetchRobots, walkSitemaps, type FetchContext } from './fetch-part.js';
import type { HostGate } from './hosts.js';

export interface SeedContext {
  store: CrawlStore;
  id: string;
  rules: CrawlRules;
  limits: DiscoveryLimits;
  fetch: FetchContext;
  /** False once the crawl is ending: the sitemap walk stops. */
  wanted(): boolean;
}

/** The host's robots rules (see above). */
export async function robotsFor(ctx: Pick<SeedContext, 'store' | 'id' | 'fetch'>, gate: HostGate, pageUrl: string): Promise<RobotsRules> {
  if (gate.robots) return gate.robots;
  const stored = (await ctx.store.host(ctx.id, gate.host))?.robots;
  if (stored) {
    gate.setRobots(robotsRules({ url: new URL('/robots.txt', pageUrl).href, ...stored }));
    return gate.robots!;
  }
  const fetched = await fetchRobots(ctx.fetch, pageUrl);
  await ctx.store.setRobots(ctx.id, gate.host, { status: fetched.status, ...(fetched.text !== undefined ? { text: fetched.text } : {}) });
  gate.setRobots(robotsRules(fetched));
  return gate.robots!;
}

/** Seeds the frontier, then marks the crawl seeded. `startGate`: the start host's gate (its robots.txt names the sitemaps). */
export async function seedCrawl(ctx: SeedContext, sitemap: 'include' | 'only' | 'skip', startGate: HostGate): Promise<void> {
  const { store, id, rules, limits } = ctx;
  await store.seed(id, [{ url: rules.start, source: 'start' }], 0, limits);
  if (sitemap !== 'skip') {
    const robots = await robotsFor(ctx, startGate, rules.start);
    const judge = linkJudge(rules);
    await walkSitemaps(ctx.fetch, rules.start, robots, async (entries) => {
      const urls: Discovered[] = [];
      for (const e of entries) {
        const j = judge.judgeAbsolute(e.url);
        if (j.ok) urls.push({ url: j.url, source: 'sitemap' });
      }
      await store.seed(id, urls, 1, limits);
      return ctx.wanted();
    });
  }
  await store.seed(id, [], 0, limits, true);
}
