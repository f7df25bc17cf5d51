/** The client's crawl methods against the real service and the simulated site: map, crawl, crawlPages, cancelCrawl. */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startGateway, type TestGateway } from '../../../test/helpers/gateway.js';
import { startCrawlSite, type CrawlSite } from '../../../test/sites/crawl-site.js';
import { Gleaner, GleanerApiError } from '../src/index.js';

let gw: TestGateway;
let site: CrawlSite;
let client: Gleaner;

beforeAll(async () => {
  [site, gw] = await Promise.all([startCrawlSite({ products: 40, sections: 2, orphans: 2, slowPages: 0 }), startGateway()]);
  client = new Gleaner({ baseUrl: gw.url, apiKey: gw.key });
});
afterAll(async () => {
  await gw?.close();
  await site?.close();
});

test('map, then a crawl read page by page while it runs, then cancel on a final crawl', async () => {
  const mapped = await client.map({ url: `${site.origin}/`, search: '/orphan/' });
  expect(mapped.urls.map((u) => u.url)).toEqual([`${site.origin}/orphan/0`, `${site.origin}/orphan/1`]);
  const started = await client.crawl({ url: `${site.origin}/section/1`, max_depth: 1, sitemap: 'skip', delay_ms: 0, scrape: { output: ['markdown'] } });
  const pages = [];
  for await (const page of client.crawlPages(started.id, { intervalMs: 50, limit: 7 })) pages.push(page);
  const status = await client.crawlStatus(started.id);
  expect(status.status).toBe('done');
  expect(pages.map((p) => p.n)).toEqual(Array.from({ length: status.counts!.done! }, (_, i) => i + 1));
  expect(pages[0]).toMatchObject({ url: `${site.origin}/section/1`, depth: 0, parent: null });
  expect((await client.cancelCrawl(started.id)).status).toBe('done');
  await expect(client.crawlStatus('1000000000000000000')).rejects.toBeInstanceOf(GleanerApiError);
});
