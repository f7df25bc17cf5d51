/**
 * A crawl in cluster mode (issues #21, #22): one nats-server with JetStream, two Gleaner nodes
 * started as processes with the README's settings, the simulated crawl site and a webhook
 * receiver. A crawl submitted on one node runs on the cluster (its frontier, seen-set and pages
 * in the NATS CrawlStore) and is read on the other: every page of the site once in the results,
 * each asked of the site once, and its webhooks (page batches, then one crawl.done) cover every
 * page once. Then a node killed with SIGKILL mid-crawl: the other node takes the crawl over from
 * its durable frontier and finishes it, every page once, none committed before the kill fetched
 * again (only pages in flight at the kill are asked twice).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startCrawlSite, type CrawlSite, type SiteRequest } from '../sites/crawl-site.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { startNats, type NatsServers } from '../helpers/nats.js';
import { api, killNode, openFeed, restartNode, startNode, until, type FeedEvent, type Node } from './nodes.js';

let nats: NatsServers;
let site: CrawlSite;
let slow: CrawlSite;
let hooks: Receiver;
let nodes: Node[] = [];
/** The node test 2 killed (restarted by test 3). */
let killed: Node | undefined;

beforeAll(async () => {
  [nats, site, hooks] = await Promise.all([startNats(1), startCrawlSite({ products: 60, sections: 4, orphans: 0, slowPages: 0, plain: true }), startReceiver()]);
  slow = await startCrawlSite({ products: 240, sections: 6, orphans: 0, slowPages: 0, plain: true, delayMs: 25 });
  nodes = [await startNode('crawl-a', nats.cluster)];
  nodes.push(await startNode('crawl-b', nats.cluster));
}, 120_000);

afterAll(async () => {
  for (const n of nodes) n.proc.child.kill('SIGKILL');
  await Promise.all(nodes.map((n) => n.proc.exited));
  await Promise.all([nats?.stop(), site?.close(), slow?.close(), hooks?.close()]);
});

async function finalOn(node: Node, id: string, crawled?: CrawlSite): Promise<any> {
  let body: any;
  await until(async () => ['done', 'faulted', 'cancelled'].includes((body = (await api(node, `/v1/async/crawl/${id}?limit=1`)).body).status), 90_000, 'crawl final').catch(async (err: Error) => {
    // What the crawl looked like last, what the nodes said and held (farm and job gauges), and
    // what the site saw last (requests still open: a fetch that hangs; none: nothing dispatched).
    const tail = (n: Node) => n.proc.output().split('\n').filter((l) => l.includes(id) || /"level":(40|50)/.test(l)).slice(-8).join('\n');
    const gauges = async (n: Node) => {
      const m = await api(n, '/metrics').catch((e: Error) => ({ body: e.message }));
      return String(m.body).split('\n').filter((l) => /^gleaner_(farm|jobs)_/.test(l)).join(', ');
    };
    const open = crawled?.log.filter((r) => r.end === 0).map((r) => `${r.path} since ${r.start}`) ?? [];
    const last = crawled?.log.at(-1);
    const site = crawled ? `\nsite: ${crawled.log.length} requests, last ${last?.path} at ${last?.start}, now ${Date.now()}; open: ${open.join(', ') || 'none'}` : '';
    const held = await Promise.all(nodes.map(async (n) => `${n.id}: ${await gauges(n)}\n${tail(n)}`));
    throw new Error(`${err.message}: ${body?.status} ${JSON.stringify(body?.counts)}${site}\n${held.join('\n')}`);
  });
  return body;
}

async function pagesOn(node: Node, id: string): Promise<any[]> {
  const pages: any[] = [];
  for (let cursor = '0'; ; ) {
    const page = (await api(node, `/v1/async/crawl/${id}?cursor=${cursor}&limit=100`)).body;
    pages.push(...page.results);
    if (page.next === null || page.results.length === 0) return pages;
    cursor = page.next;
  }
}

/** Paths asked more than once in `log`, each with its requests (times, status, client port), for a failure's message. */
function askedTwice(log: SiteRequest[]): string[] {
  const by = new Map<string, SiteRequest[]>();
  for (const r of log) by.set(r.path, [...(by.get(r.path) ?? []), r]);
  return [...by].filter(([, rs]) => rs.length > 1).map(([path, rs]) => `${path}: ${rs.map((r) => `${r.start}..${r.end} ${r.status} :${r.port}`).join(', ')}`);
}

/** Every start of job `id` in `feeds` (node and time), for a failure's message. */
function startsIn(feeds: Array<{ events: FeedEvent[] }>, id: string): string {
  return [...new Set(feeds.flatMap((f) => f.events).filter((e) => e.type === 'started' && e.job_id === id).map((e) => `${e.node} at ${e.at}`))].join(', ');
}

const pathOf = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

test('a crawl submitted on one node runs through the cluster: every page once, read on the other node, webhooks once', async () => {
  const logFrom = site.log.length;
  // Which nodes started the crawl: a second start (a takeover after a missed claim renewal) is
  // what a page asked twice would come from, and the failure says so.
  const feeds = await Promise.all(nodes.map((n) => openFeed(n)));
  const submitted = await api(nodes[0]!, '/v1/async/crawl', { body: { url: `${site.origin}/`, limit: 5000, delay_ms: 0, max_concurrency_per_host: 8, sitemap: 'skip', callback_url: hooks.url, callback_pages: true } });
  expect(submitted.status, JSON.stringify(submitted.body)).toBe(202);
  const id = submitted.body.id as string;
  const body = await finalOn(nodes[1]!, id, site);
  const starts = startsIn(feeds, id);
  for (const f of feeds) f.close();
  expect([body.status, body.counts.queued, body.counts.failed]).toEqual(['done', 0, 0]);

  // Every page of the site once, paged through on the other node.
  const pages = await pagesOn(nodes[1]!, id);
  const got = pages.map((p) => pathOf(p.url)).sort();
  expect(got).toEqual([...site.pages()].sort());
  expect(pages.map((p) => p.n)).toEqual(pages.map((_, i) => i + 1));
  expect(body.counts.done).toBe(got.length);

  // The site was asked for each page once (robots.txt besides).
  const twice = askedTwice(site.log.slice(logFrom));
  expect(twice, `asked twice: ${twice.join('; ')}; starts of the crawl: ${starts}`).toEqual([]);

  // Webhooks: page batches that name every page once, then one crawl.done.
  const events = () => hooks.requests.map((r) => JSON.parse(r.body.toString())).filter((e) => e.crawl_id === id);
  await until(() => events().some((e) => e.event === 'crawl.done'), 30_000, 'crawl.done delivered');
  const referenced = events()
    .filter((e) => e.event === 'crawl.page')
    .flatMap((e) => e.pages.map((p: any) => p.n));
  expect(referenced).toEqual(pages.map((p) => p.n));
  expect(events().filter((e) => e.event === 'crawl.done').map((e) => [e.status, e.counts.done])).toEqual([['done', got.length]]);
}, 150_000);

test('kill -9 of the node running a crawl: the other node takes it over from the durable frontier and finishes it, every page once', async () => {
  const feeds = await Promise.all(nodes.map((n) => openFeed(n)));
  const PER_HOST = 4;
  const submitted = await api(nodes[0]!, '/v1/async/crawl', { body: { url: `${slow.origin}/`, limit: 5000, delay_ms: 0, max_concurrency_per_host: PER_HOST, sitemap: 'skip' } });
  expect(submitted.status, JSON.stringify(submitted.body)).toBe(202);
  const id = submitted.body.id as string;
  const started = () => feeds.flatMap((f) => f.events).find((e) => e.type === 'started' && e.job_id === id);
  await until(() => started() !== undefined, 30_000, 'crawl started');
  const runner = nodes.findIndex((n) => n.id === started()!.node);
  const other = nodes[1 - runner]!;
  // Killed once a fair part of the site is committed.
  await until(async () => ((await api(other, `/v1/async/crawl/${id}?limit=1`)).body.counts?.done ?? 0) >= 60, 60_000, '60 pages committed');
  const before = (await pagesOn(other, id)).map((p) => pathOf(p.url));
  killed = nodes[runner]!;
  await killNode(killed);
  const logAtKill = slow.log.length;
  for (const f of feeds) f.close();

  const body = await finalOn(other, id, slow);
  expect([body.status, body.counts.queued, body.counts.failed]).toEqual(['done', 0, 0]);
  const got = (await pagesOn(other, id)).map((p) => pathOf(p.url));
  expect([...got].sort()).toEqual([...slow.pages()].sort());
  expect(new Set(got).size).toBe(got.length);
  // No page committed before the kill was asked again; at most the pages in flight were.
  const again = slow.log.slice(logAtKill).map((r) => r.path).filter((p) => before.includes(p));
  expect(again).toEqual([]);
  const counts = new Map<string, number>();
  for (const r of slow.log) counts.set(r.path, (counts.get(r.path) ?? 0) + 1);
  expect([...counts].filter(([p, n]) => n > 1 && p !== '/robots.txt').length).toBeLessThanOrEqual(PER_HOST * 2);
}, 180_000);

test('a crawl waiting behind the crawl cap stays with the node that holds it: a node joining past the ack wait does not run it too', async () => {
  // Test 2 left one node up. It takes all three crawls; two run (the crawl cap of a one-worker
  // node), the third waits in its runner. The other node comes back meanwhile and keeps pulling
  // past several ack waits (4 s here): the waiting crawl must stay claimed by its holder.
  expect(killed, 'test 2 killed a node').toBeDefined();
  const live = nodes.find((n) => n !== killed)!;
  const feeds = [await openFeed(live)];
  const slowCrawl = { url: `${slow.origin}/`, limit: 200, delay_ms: 100, max_concurrency_per_host: 1, sitemap: 'skip' };
  const long = await Promise.all([0, 1].map(() => api(live, '/v1/async/crawl', { body: slowCrawl })));
  expect(long.map((r) => r.status)).toEqual([202, 202]);
  const logFrom = site.log.length;
  const waiting = await api(live, '/v1/async/crawl', { body: { url: `${site.origin}/`, limit: 5000, delay_ms: 0, max_concurrency_per_host: 8, sitemap: 'skip' } });
  expect(waiting.status).toBe(202);
  const id = waiting.body.id as string;
  const startsOf = (job: string) => [...new Set(feeds.flatMap((f) => f.events).filter((e) => e.type === 'started' && e.job_id === job).map((e) => e.node))];
  await until(() => long.every((r) => startsOf(r.body.id).length > 0), 30_000, 'both long crawls started');
  await restartNode(killed!);
  feeds.push(await openFeed(killed!));
  // Three ack waits with the long crawls still running: the waiting one has not started anywhere.
  await new Promise((r) => setTimeout(r, 12_000));
  const mid = await Promise.all(long.map((r) => api(live, `/v1/async/crawl/${r.body.id}?limit=1`)));
  expect(mid.map((r) => r.body.status), 'the long crawls outlast the check').toEqual(['running', 'running']);
  expect(startsOf(id)).toEqual([]);

  const body = await finalOn(live, id, site);
  expect([body.status, body.counts.failed]).toEqual(['done', 0]);
  expect(startsOf(id)).toEqual([live.id]);
  const twice = askedTwice(site.log.slice(logFrom));
  expect(twice, `asked twice: ${twice.join('; ')}; starts of the crawl: ${startsIn(feeds, id)}`).toEqual([]);
  for (const f of feeds) f.close();
  for (const r of long) await api(live, `/v1/async/crawl/${r.body.id}`, { method: 'DELETE' });
}, 150_000);

test('a node paused past the ack wait while running a crawl: the other node takes it over, and the paused node, resumed, stops its run', async () => {
  const paused = await startCrawlSite({ products: 240, sections: 6, orphans: 0, slowPages: 0, plain: true, delayMs: 25 });
  const feeds = await Promise.all(nodes.map((n) => openFeed(n)));
  try {
    const PER_HOST = 4;
    const submitted = await api(nodes[0]!, '/v1/async/crawl', { body: { url: `${paused.origin}/`, limit: 5000, delay_ms: 0, max_concurrency_per_host: PER_HOST, sitemap: 'skip' } });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(202);
    const id = submitted.body.id as string;
    const startsOf = () => [...new Set(feeds.flatMap((f) => f.events).filter((e) => e.type === 'started' && e.job_id === id).map((e) => e.node))];
    await until(() => startsOf().length > 0, 30_000, 'crawl started');
    const runner = nodes.find((n) => n.id === startsOf()[0])!;
    const other = nodes.find((n) => n !== runner)!;
    await until(async () => ((await api(other, `/v1/async/crawl/${id}?limit=1`)).body.counts?.done ?? 0) >= 30, 60_000, '30 pages committed');

    // SIGSTOP: the whole process (its threads, its timers) stands still, as in a long stall.
    process.kill(runner.proc.child.pid!, 'SIGSTOP');
    try {
      await until(() => startsOf().includes(other.id), 30_000, 'the other node took the crawl over');
    } finally {
      process.kill(runner.proc.child.pid!, 'SIGCONT');
    }
    await until(() => /held by another node now/.test(runner.proc.output()), 15_000, 'the resumed node gave the crawl up');

    const body = await finalOn(other, id, paused);
    expect([body.status, body.counts.queued, body.counts.failed]).toEqual(['done', 0, 0]);
    const got = (await pagesOn(other, id)).map((p) => pathOf(p.url));
    expect([...got].sort()).toEqual([...paused.pages()].sort());
    // Asked twice: at most the pages in flight on the paused node (fetched again by the other).
    // Both nodes crawling on after the resume would ask for most of the site twice.
    const counts = new Map<string, number>();
    for (const r of paused.log) counts.set(r.path, (counts.get(r.path) ?? 0) + 1);
    expect([...counts].filter(([p, n]) => n > 1 && p !== '/robots.txt').length).toBeLessThanOrEqual(PER_HOST * 2);
  } finally {
    for (const f of feeds) f.close();
    await paused.close();
  }
}, 150_000);
