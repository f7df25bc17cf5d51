/**
 * Crawl and map against the simulated site (test/sites/crawl-site.ts): the real service on port
 * 0, the site under its own names (site.test, blog.site.test, other.test → 127.0.0.1), a webhook
 * receiver and an S3-compatible server. What the crawl did is read from the API and, for what
 * reached the site (robots respected, nothing fetched twice, spacing), from the site's own log.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { call, postJson, startGateway, type TestGateway } from '../helpers/gateway.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { startS3Server, type S3Server } from '../helpers/s3.js';
import { startCrawlSite, type CrawlSite } from '../sites/crawl-site.js';

const HOSTS = { 'site.test': '127.0.0.1', 'blog.site.test': '127.0.0.1', 'other.test': '127.0.0.1' };
const FAST = { delay_ms: 0, max_concurrency_per_host: 8 };

let gw: TestGateway;
let site: CrawlSite;
let slow: CrawlSite;
let hooks: Receiver;
let s3: S3Server;

beforeAll(async () => {
  [site, slow, hooks, s3] = await Promise.all([
    startCrawlSite({ host: 'site.test', products: 120, sections: 6, orphans: 6, slowPages: 2, slowMs: 150 }),
    startCrawlSite({ products: 200, sections: 4, orphans: 0, slowPages: 0, delayMs: 60 }),
    startReceiver(),
    startS3Server({ keys: { AKTEST: 'secret-test-key' }, buckets: ['crawls'] }),
  ]);
  gw = await startGateway(
    { workers: 2, storage: { s3_compatible: { accessKeyId: 'AKTEST', secretAccessKey: 'secret-test-key', region: 'us-east-1', buckets: { '*': ['crawls/run'] } } }, deliveryBaseMs: 50, deliveryMaxMs: 200 },
    { hosts: HOSTS },
  );
}, 60_000);

afterAll(async () => {
  await gw?.close();
  await Promise.all([site?.close(), slow?.close(), hooks?.close(), s3?.close()]);
});

type Body = Record<string, any>;

async function submit(body: Record<string, unknown>): Promise<string> {
  const a = await postJson(gw, '/v1/async/crawl', body);
  expect(a.status, JSON.stringify(a.body)).toBe(202);
  return a.body.id as string;
}

async function get(id: string, query = ''): Promise<Body> {
  return (await call(`${gw.url}/v1/async/crawl/${id}${query}`, { headers: gw.auth })).body as Body;
}

/** Polls until the crawl is final (with a deadline). */
async function finished(id: string, ms = 60_000): Promise<Body> {
  const until = Date.now() + ms;
  for (;;) {
    const body = await get(id, '?limit=1');
    if (['done', 'faulted', 'cancelled'].includes(body.status)) return body;
    if (Date.now() > until) throw new Error(`crawl ${id} not final: ${JSON.stringify(body.counts)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Every page of a crawl, following `next` (the cursor) page by page. */
async function allPages(id: string, limit = 37): Promise<Body[]> {
  const pages: Body[] = [];
  let cursor = '0';
  for (;;) {
    const body = await get(id, `?cursor=${cursor}&limit=${limit}`);
    pages.push(...body.results);
    if (body.next === null || body.results.length === 0) return pages;
    cursor = body.next;
  }
}

const pathOf = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

function requested(s: CrawlSite, from = 0): string[] {
  return s.log.slice(from).map((r) => r.path);
}

describe('a whole site', () => {
  let id: string;
  let pages: Body[];
  let logFrom: number;

  beforeAll(async () => {
    logFrom = site.log.length;
    id = await submit({ url: `${site.origin}/`, limit: 5000, ...FAST, scrape: { output: ['markdown'] } });
    await finished(id);
    pages = await allPages(id);
  }, 90_000);

  test('every reachable page once: links, sitemaps (index, gzip, text), redirects and canonical twins folded', async () => {
    const got = pages.map((p) => pathOf(p.url)).sort();
    // Calendar pages within max_depth 10 of the home page (2024-01 is at depth 1).
    const calendar = Array.from({ length: 19 }, (_, i) => {
      const d = new Date(Date.UTC(2024, i - 9, 1));
      return `/calendar/${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
    });
    expect(got).toEqual([...site.pages(), ...calendar].sort());
    expect(new Set(got).size).toBe(got.length);
    const body = await get(id, '?limit=1');
    expect(body.status).toBe('done');
    expect(body.counts.done).toBe(got.length);
    expect(body.counts.failed).toBe(1); // /broken answers 500 every time
    expect(body.counts.queued).toBe(0);
  });

  test('nothing fetched twice, robots respected, traps bounded (the site\'s own log)', () => {
    const paths = requested(site, logFrom);
    const counts = new Map<string, number>();
    for (const p of paths) counts.set(p, (counts.get(p) ?? 0) + 1);
    // /broken is retried by the farm (3 attempts); everything else is asked for once.
    expect([...counts].filter(([p, n]) => n > 1 && p !== '/broken')).toEqual([]);
    expect(paths.filter((p) => p.startsWith('/private/') || p.includes('print='))).toEqual([]);
    expect(paths.filter((p) => p.startsWith('/cart'))).toHaveLength(1);
    const months = paths.filter((p) => p.startsWith('/calendar/'));
    expect(months).toHaveLength(19);
    // Out of scope by default: the blog subdomain and the external site.
    expect(site.log.slice(logFrom).filter((r) => !r.host.startsWith('site.test'))).toEqual([]);
  });

  test('each page is a /v1/scrape result plus url, depth and parent; the cursor pages through all of them once', async () => {
    const home = pages.find((p) => pathOf(p.url) === '/')!;
    expect(home).toMatchObject({ depth: 0, parent: null, html: null, screenshot: null, json: null, metadata: { page: 1, run_js: false, url: `${site.origin}/`, status_code: 200 } });
    expect(home.markdown).toContain('# Home');
    const section = pages.find((p) => pathOf(p.url) === '/section/1/1')!;
    expect([section.depth, pathOf(section.parent)]).toEqual([2, '/section/1']);
    const orphan = pages.find((p) => pathOf(p.url) === '/orphan/3')!;
    expect([orphan.depth, orphan.parent]).toEqual([1, null]);
    const missing = pages.find((p) => pathOf(p.url) === '/missing')!;
    expect(missing.metadata.status_code).toBe(404);
    expect(pages.map((p) => p.n)).toEqual(pages.map((_, i) => i + 1));
    const last = await get(id, `?cursor=${pages.length}`);
    expect([last.results, last.next]).toEqual([[], null]);
  });

  test('robots.txt decisions are listed per skipped URL; the failed page says why', async () => {
    const body = await get(id, '?view=skipped&limit=1000');
    const robots = body.skipped.filter((s: Body) => s.reason === 'robots');
    expect(robots.length).toBe(body.counts.skipped_robots);
    expect(robots.map((s: Body) => pathOf(s.url)).sort()).toEqual(['/private/admin', '/private/listed', ...Array.from({ length: 120 }, (_, i) => `/p/${i}?print=1`)].sort());
    const admin = robots.find((s: Body) => pathOf(s.url) === '/private/admin');
    expect(admin.robots).toEqual({ robots_url: `${site.origin}/robots.txt`, line: 6, rule: 'Disallow: /private/', reason: 'disallowed by robots.txt' });
    const failed = body.skipped.find((s: Body) => s.reason === 'failed');
    expect([pathOf(failed.url), failed.error.title]).toEqual(['/broken', 'REQUEST_FAILED_AFTER_MANY_RETRIES']);
  });
});

describe('parameters', () => {
  test('limit, max_depth, include_paths and exclude_paths', async () => {
    const limited = await submit({ url: `${site.origin}/`, limit: 7, ...FAST, sitemap: 'skip' });
    expect((await finished(limited)).counts.done).toBe(7);
    expect(await allPages(limited)).toHaveLength(7);

    const shallow = await submit({ url: `${site.origin}/`, max_depth: 1, ...FAST, sitemap: 'skip', respect_robots: false });
    await finished(shallow);
    const depth1 = await allPages(shallow);
    expect(Math.max(...depth1.map((p) => p.depth))).toBe(1);
    expect(depth1.some((p) => pathOf(p.url) === '/section/0')).toBe(true);

    const sections = await submit({ url: `${site.origin}/`, ...FAST, sitemap: 'skip', include_paths: ['^/section/'], exclude_paths: ['/[2-9]$'] });
    await finished(sections);
    const paths = (await allPages(sections)).map((p) => pathOf(p.url));
    expect(paths[0]).toBe('/'); // the start page is fetched whatever the patterns say
    expect(paths.slice(1).every((p) => p.startsWith('/section/') && !/\/[2-9]$/.test(p))).toBe(true);
    expect(paths).toContain('/section/1/1');
  });

  test('allow_subdomains and allow_external widen the scope', async () => {
    const sub = await submit({ url: `${site.origin}/`, ...FAST, sitemap: 'skip', max_depth: 1, allow_subdomains: true });
    await finished(sub);
    const hosts = new Set((await allPages(sub)).map((p) => new URL(p.url).hostname));
    expect([...hosts].sort()).toEqual(['blog.site.test', 'site.test']);
    const ext = await submit({ url: `${site.origin}/`, ...FAST, sitemap: 'skip', max_depth: 1, allow_external: true });
    await finished(ext);
    expect(new Set((await allPages(ext)).map((p) => new URL(p.url).hostname))).toEqual(new Set(['site.test', 'blog.site.test', 'other.test']));
  });

  test('sitemap only / skip; ignore_query_parameters; respect_robots false', async () => {
    const only = await submit({ url: `${site.origin}/`, limit: 1000, ...FAST, sitemap: 'only' });
    await finished(only);
    const fromSitemaps = (await allPages(only)).map((p) => pathOf(p.url));
    expect(fromSitemaps.length).toBe(1 + 120 + 6 + 1); // start, products, orphans, /about
    expect(fromSitemaps.filter((p) => p.startsWith('/section'))).toEqual([]);

    const noQuery = await submit({ url: `${site.origin}/section/2`, ...FAST, sitemap: 'skip', max_depth: 1, ignore_query_parameters: true, respect_robots: false });
    await finished(noQuery);
    const paths = (await allPages(noQuery)).map((p) => pathOf(p.url));
    expect(paths.some((p) => p.includes('?'))).toBe(false);

    const before = site.log.length;
    const rude = await submit({ url: `${site.origin}/`, ...FAST, sitemap: 'skip', max_depth: 1, respect_robots: false });
    await finished(rude);
    expect(requested(site, before)).toContain('/private/admin');
    expect(requested(site, before)).not.toContain('/robots.txt');
  });

  test('validation: RE2 patterns, the scrape object under /v1/scrape\'s rules, callback_pages needs callback_url', async () => {
    const bad = await postJson(gw, '/v1/async/crawl', {
      url: `${site.origin}/`,
      include_paths: ['(a)\\1', '^/ok/'],
      exclude_paths: ['(?=x)'],
      scrape: { output: ['screenshot'], device: 'tablet' },
      callback_pages: true,
      limit: 0,
    });
    expect(bad.status).toBe(400);
    const pointers = bad.body.errors.map((e: Body) => e.pointer).sort();
    expect(pointers).toEqual(['#/callback_pages', '#/exclude_paths/0', '#/include_paths/0', '#/limit', '#/scrape/device', '#/scrape/output'].sort());
    // A pattern that backtracking engines take exponential time on runs in linear time here: accepted.
    const heavy = await submit({ url: `${site.origin}/section/0`, ...FAST, sitemap: 'skip', max_depth: 1, include_paths: ['^(/?[a-z0-9]+)+$'] });
    expect((await finished(heavy)).status).toBe('done');
    const options = await call(`${gw.url}/v1/async/crawl`, { method: 'OPTIONS', headers: gw.auth });
    expect(options.body.scrape).toEqual({ output: ['string'], json: { prompt: 'string', schema: {} }, location: 'string', device: 'string', run_js: 'bool' });
  });

  test('a quota stops the crawl with QUOTA_EXCEEDED recorded, keeping and charging what it fetched', async () => {
    const account = await gw.server.store.accounts.createAccount({ name: 'quota-crawl' });
    const { key } = await gw.server.store.accounts.createKey(account.clientId);
    await gw.server.store.quotas.setQuota(account.clientId, { pages_per_day: 6 });
    const headers = { authorization: `Bearer ${key}` };
    const a = await postJson(gw, '/v1/async/crawl', { url: `${site.origin}/`, ...FAST, max_concurrency_per_host: 1, sitemap: 'skip' }, headers);
    expect(a.status).toBe(202);
    let body: Body;
    const until = Date.now() + 30_000;
    do {
      body = (await call(`${gw.url}/v1/async/crawl/${a.body.id}?limit=100`, { headers })).body;
      await new Promise((r) => setTimeout(r, 30));
    } while (!['done', 'faulted'].includes(body.status) && Date.now() < until);
    expect(body.status).toBe('faulted');
    expect(body.error).toMatchObject({ title: 'QUOTA_EXCEEDED', status: 429 });
    expect([body.counts.done, body.results.length]).toEqual([6, 6]);
    expect(gw.server.store.quotas.usageOf(account.clientId).pages_day).toBe(6);
    // Another account cannot see it.
    expect((await call(`${gw.url}/v1/async/crawl/${a.body.id}`, { headers: gw.auth })).status).toBe(404);
  });

  test('unknown, another account\'s, or a scrape job\'s id is 404', async () => {
    expect((await call(`${gw.url}/v1/async/crawl/1000000000000000000`, { headers: gw.auth })).status).toBe(404);
    const job = await postJson(gw, '/v1/async/scrape', { url: `${site.origin}/about` });
    expect((await call(`${gw.url}/v1/async/crawl/${job.body.metadata.request_id}`, { headers: gw.auth })).status).toBe(404);
  });
});

describe('politeness, cancel, deliveries', () => {
  test('delay_ms and max_concurrency_per_host hold at the server', async () => {
    const from = slow.log.length;
    const id = await submit({ url: `http://127.0.0.1:${slow.port}/`, limit: 8, delay_ms: 300, max_concurrency_per_host: 1, sitemap: 'skip', respect_robots: false });
    await finished(id);
    const reqs = slow.log.slice(from);
    expect(reqs).toHaveLength(8);
    for (let i = 1; i < reqs.length; i++) {
      // Starts at least delay_ms apart, less a tolerance for the worker's own way to the socket (the
      // spacing counts from when the worker began the fetch; at load 12 on 2 cores that way varied
      // by up to ~80 ms between two fetches), and never two open at once.
      expect(reqs[i]!.start - reqs[i - 1]!.start).toBeGreaterThanOrEqual(200);
      expect(reqs[i]!.start).toBeGreaterThanOrEqual(reqs[i - 1]!.end);
    }
  });

  test('DELETE cancels: pages so far kept, nothing fetched after; the feed and the console show the progress', async () => {
    const feed = new WebSocket(`${gw.url.replace('http', 'ws')}/v1/feed?format=json&route=crawl`, { headers: gw.auth });
    const events: Body[] = [];
    feed.on('message', (data) => events.push(JSON.parse(String(data))));
    await new Promise((r) => feed.once('open', r));
    const id = await submit({ url: `http://127.0.0.1:${slow.port}/`, delay_ms: 0, max_concurrency_per_host: 2, sitemap: 'skip', respect_robots: false, limit: 1000 });
    const until = Date.now() + 90_000;
    while (((await get(id, '?limit=1')).counts?.done ?? 0) < 5 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    const status = await call(`${gw.url}/v1/status`, { headers: gw.auth });
    const running = status.body.crawls.find((c: Body) => c.id === id);
    expect(running).toMatchObject({ url: `http://127.0.0.1:${slow.port}/`, limit: 1000 });
    expect(running.counts.done).toBeGreaterThanOrEqual(1);
    const cancelled = await call(`${gw.url}/v1/async/crawl/${id}`, { method: 'DELETE', headers: gw.auth });
    expect([cancelled.status, cancelled.body.status]).toEqual([200, 'cancelled']);
    const after = slow.log.length;
    const body = await get(id, '?limit=1000');
    expect(body.status).toBe('cancelled');
    expect(body.results.length).toBe(body.counts.done);
    expect(body.counts.done).toBeGreaterThanOrEqual(5);
    expect(body.counts.done).toBeLessThan(200);
    await new Promise((r) => setTimeout(r, 300));
    expect(slow.log.length).toBe(after);
    // Cancelling again answers the final state.
    expect((await call(`${gw.url}/v1/async/crawl/${id}`, { method: 'DELETE', headers: gw.auth })).body.status).toBe('cancelled');
    const mine = events.filter((e) => e.job_id === id);
    expect(mine.some((e) => e.type === 'progress' && e.progress.done >= 1)).toBe(true);
    expect(mine.map((e) => e.type)).toEqual(expect.arrayContaining(['accepted', 'started', 'progress', 'cancelled']));
    feed.close();
  });

  test('webhooks: crawl.page batches cover every page once, in order, then one crawl.done', async () => {
    const from = hooks.requests.length;
    const id = await submit({ url: `${site.origin}/`, ...FAST, sitemap: 'skip', max_depth: 2, callback_url: hooks.url, callback_pages: true });
    const done = await finished(id);
    const until = Date.now() + 20_000;
    const events = () => hooks.requests.slice(from).map((r) => ({ event: r.headers['gleaner-event'], body: JSON.parse(r.body.toString()) }));
    while (!events().some((e) => e.event === 'crawl.done') && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    const got = events();
    const pageEvents = got.filter((e) => e.event === 'crawl.page');
    const ns = pageEvents.flatMap((e) => e.body.pages.map((p: Body) => p.n));
    expect(ns).toEqual(Array.from({ length: done.counts.done }, (_, i) => i + 1));
    expect(got[got.length - 1]!.event).toBe('crawl.done');
    expect(got.filter((e) => e.event === 'crawl.done')).toHaveLength(1);
    expect(got[got.length - 1]!.body).toMatchObject({ event: 'crawl.done', crawl_id: id, status: 'done', counts: done.counts });
    // A batch's results_url reads those pages.
    const first = await call(pageEvents[0]!.body.results_url, { headers: gw.auth });
    expect(first.body.results.map((p: Body) => p.n)).toEqual(pageEvents[0]!.body.pages.map((p: Body) => p.n));
  });

  test('bucket: one object per page plus an index', async () => {
    const id = await submit({ url: `${site.origin}/`, ...FAST, sitemap: 'skip', max_depth: 1, storage: { type: 's3_compatible', url: `${s3.endpoint}/crawls/run` } });
    const done = await finished(id);
    const until = Date.now() + 20_000;
    while (!s3.getObject('crawls', `run/${id}/index.json`) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    const index = JSON.parse(s3.getObject('crawls', `run/${id}/index.json`)!.body.toString());
    expect(index).toMatchObject({ crawl_id: id, status: 'done', counts: done.counts });
    expect(index.pages).toHaveLength(done.counts.done);
    const pages = await allPages(id);
    for (const [i, entry] of index.pages.entries()) {
      const object = JSON.parse(s3.getObject('crawls', entry.key)!.body.toString());
      expect(object).toEqual(pages[i]);
    }
  });
});

describe('map', () => {
  test('sitemaps (index, gzip, text) and the start page\'s links, deduplicated, with sources', async () => {
    const a = await postJson(gw, '/v1/map', { url: `${site.origin}/` });
    expect(a.status).toBe(200);
    const urls: Body[] = a.body.urls;
    const byPath = new Map(urls.map((u) => [pathOf(u.url), u]));
    expect(byPath.get('/p/7')).toEqual({ url: `${site.origin}/p/7`, source: 'sitemap', lastmod: '2024-08-01' });
    expect(byPath.get('/orphan/2')?.source).toBe('sitemap');
    expect(byPath.get('/section/3')?.source).toBe('links');
    expect(byPath.get('/about')?.source).toBe('sitemap');
    expect(byPath.has('/cart')).toBe(true);
    expect([...byPath.keys()].some((p) => p.includes('sid='))).toBe(false);
    expect(urls.some((u) => new URL(u.url).hostname !== 'site.test')).toBe(false);
    // The index and its three files.
    expect(a.body.counts).toMatchObject({ urls: urls.length, sitemaps: 4, sitemaps_failed: 0 });
  });

  test('search, include_subdomains and limit', async () => {
    const found = await postJson(gw, '/v1/map', { url: `${site.origin}/`, search: 'ORPHAN', limit: 4 });
    expect(found.body.urls.map((u: Body) => pathOf(u.url))).toEqual(['/orphan/0', '/orphan/1', '/orphan/2', '/orphan/3']);
    const sub = await postJson(gw, '/v1/map', { url: `${site.origin}/`, include_subdomains: true, sitemap: 'skip' });
    expect(sub.body.urls.some((u: Body) => new URL(u.url).hostname === 'blog.site.test')).toBe(true);
  });
});

describe('MCP tools', () => {
  test('map, crawl, crawl_status and crawl_results', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`), { requestInit: { headers: gw.auth } });
    const client = new Client({ name: 'crawl-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['map', 'crawl', 'crawl_status', 'crawl_results']));
      const mapped = (await client.callTool({ name: 'map', arguments: { url: `${site.origin}/`, search: 'orphan/1' } })) as CallToolResult;
      expect((mapped.structuredContent as Body).urls.map((u: Body) => pathOf(u.url))).toEqual(['/orphan/1']);
      const started = (await client.callTool({ name: 'crawl', arguments: { url: `${site.origin}/section/0`, max_depth: 1, sitemap: 'skip', ...FAST, scrape: { output: ['markdown'] } } })) as CallToolResult;
      const id = (started.structuredContent as Body).id as string;
      await finished(id);
      const status = (await client.callTool({ name: 'crawl_status', arguments: { id } })) as CallToolResult;
      expect((status.structuredContent as Body).status).toBe('done');
      const results = (await client.callTool({ name: 'crawl_results', arguments: { id, limit: 2 } })) as CallToolResult;
      expect((results.structuredContent as Body).pages.map((p: Body) => pathOf(p.url))).toEqual((await allPages(id)).slice(0, 2).map((p) => pathOf(p.url)));
      expect((results.content[0] as { text: string }).text).toContain('# Section 0');
      const refused = (await client.callTool({ name: 'crawl', arguments: { url: `${site.origin}/`, include_paths: ['(?=x)'] } })) as CallToolResult;
      expect([refused.isError, (refused.content[0] as { text: string }).text]).toEqual([true, expect.stringContaining('#/include_paths/0')]);
    } finally {
      await client.close();
    }
  });
});
