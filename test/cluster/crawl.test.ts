/**
 * A crawl in cluster mode (issues #21, #22): one nats-server with JetStream, two Gleaner nodes
 * started as processes with the README's settings, the simulated crawl site and a webhook
 * receiver. A crawl submitted on one node runs on the cluster (its frontier, seen-set and pages
 * in the NATS CrawlStore) and is read on the other: every page of the site once in the results,
 * each asked of the site once, and its webhooks (page batches, then one crawl.done) cover every
 * page once.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startCrawlSite, type CrawlSite } from '../sites/crawl-site.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { startNats, type NatsServers } from '../helpers/nats.js';
import { api, startNode, until, type Node } from './nodes.js';

let nats: NatsServers;
let site: CrawlSite;
let hooks: Receiver;
let nodes: Node[] = [];

beforeAll(async () => {
  [nats, site, hooks] = await Promise.all([startNats(1), startCrawlSite({ products: 60, sections: 4, orphans: 0, slowPages: 0, plain: true }), startReceiver()]);
  nodes = [await startNode('crawl-a', nats.cluster)];
  nodes.push(await startNode('crawl-b', nats.cluster));
}, 120_000);

afterAll(async () => {
  for (const n of nodes) n.proc.child.kill('SIGKILL');
  await Promise.all(nodes.map((n) => n.proc.exited));
  await Promise.all([nats?.stop(), site?.close(), hooks?.close()]);
});

const pathOf = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

test('a crawl submitted on one node runs through the cluster: every page once, read on the other node, webhooks once', async () => {
  const logFrom = site.log.length;
  const submitted = await api(nodes[0]!, '/v1/async/crawl', { body: { url: `${site.origin}/`, delay_ms: 0, max_concurrency_per_host: 8, sitemap: 'skip', callback_url: hooks.url, callback_pages: true } });
  expect(submitted.status, JSON.stringify(submitted.body)).toBe(202);
  const id = submitted.body.id as string;
  let body: any;
  await until(async () => ['done', 'faulted', 'cancelled'].includes((body = (await api(nodes[1]!, `/v1/async/crawl/${id}?limit=1`)).body).status), 90_000, 'crawl final');
  expect([body.status, body.counts.queued, body.counts.failed]).toEqual(['done', 0, 0]);

  // Every page of the site once, paged through on the other node.
  const pages: any[] = [];
  for (let cursor = '0'; ; ) {
    const page = (await api(nodes[1]!, `/v1/async/crawl/${id}?cursor=${cursor}&limit=25`)).body;
    pages.push(...page.results);
    if (page.next === null || page.results.length === 0) break;
    cursor = page.next;
  }
  const got = pages.map((p) => pathOf(p.url)).sort();
  expect(got).toEqual([...site.pages()].sort());
  expect(pages.map((p) => p.n)).toEqual(pages.map((_, i) => i + 1));
  expect(body.counts.done).toBe(got.length);

  // The site was asked for each page once (robots.txt besides).
  const counts = new Map<string, number>();
  for (const r of site.log.slice(logFrom)) counts.set(r.path, (counts.get(r.path) ?? 0) + 1);
  expect([...counts].filter(([, n]) => n > 1)).toEqual([]);

  // Webhooks: page batches that name every page once, then one crawl.done.
  const events = () => hooks.requests.map((r) => JSON.parse(r.body.toString())).filter((e) => e.crawl_id === id);
  await until(() => events().some((e) => e.event === 'crawl.done'), 30_000, 'crawl.done delivered');
  const referenced = events()
    .filter((e) => e.event === 'crawl.page')
    .flatMap((e) => e.pages.map((p: any) => p.n));
  expect(referenced).toEqual(pages.map((p) => p.n));
  expect(events().filter((e) => e.event === 'crawl.done').map((e) => [e.status, e.counts.done])).toEqual([['done', got.length]]);
}, 150_000);
