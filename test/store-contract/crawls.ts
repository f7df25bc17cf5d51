/** Contract: a crawl's frontier, seen-set, commits, leases, skips, cursors and removal. */
import { expect, test } from 'vitest';
import type { DiscoveryLimits, PageDone } from '../../core/store/crawls.js';
import type { Store } from '../../core/store/index.js';
import { jobRecord, page, usageEntry, type StoreHarness } from './harness.js';

const LIMITS: DiscoveryLimits = { maxDepth: 3, maxDiscovered: 1000, drains: [], batchMs: 0 };
const BASE = 'http://site.test';

async function crawlOf(store: Store): Promise<string> {
  const job = jobRecord(7, { routeId: 'crawl', params: { url: `${BASE}/` } });
  await store.jobs.enqueue([job]);
  await store.crawls.init(job.id, 7);
  return job.id;
}

function done(seq: number, depth: number, links: string[], extra: Partial<PageDone> = {}): PageDone {
  return { seq, depth, statusCode: 200, links, refused: [], result: page(`<p>${seq}</p>`), ...extra };
}

export function crawlsContract(h: StoreHarness): void {
  test('init is idempotent; seed takes each URL once, in crawl order', async () => {
    const store = await h.open();
    const id = await crawlOf(store);
    const again = await store.crawls.init(id, 7);
    expect(again.counts.discovered).toBe(0);
    expect(await store.crawls.seed(id, [{ url: `${BASE}/`, source: 'start' }], 0, LIMITS)).toBe(1);
    // The same URL again, and its trailing-slash twin of another path, are one page each.
    expect(await store.crawls.seed(id, [{ url: `${BASE}/`, source: 'sitemap' }, { url: `${BASE}/a`, source: 'sitemap' }, { url: `${BASE}/a/`, source: 'sitemap' }], 1, LIMITS, true)).toBe(1);
    const frontier = await store.crawls.frontier(id, 10);
    expect(frontier.map((e) => [e.url, e.depth, e.seq, e.source])).toEqual([
      [`${BASE}/`, 0, 1, 'start'],
      [`${BASE}/a`, 1, 2, 'sitemap'],
    ]);
    const state = await store.crawls.get(id);
    expect([state?.counts.discovered, state?.counts.queued, state?.seeded]).toEqual([2, 2, true]);
  });

  test('complete commits the page, its charge and its new links once; a repeat changes nothing', async () => {
    const store = await h.open();
    const id = await crawlOf(store);
    await store.crawls.seed(id, [{ url: `${BASE}/`, source: 'start' }], 0, LIMITS);
    const page1 = done(1, 0, [`${BASE}/a`, `${BASE}/b`, `${BASE}/`], { charge: usageEntry(7), refused: [{ url: 'http://other.test/', why: 'scope' }, { url: 'http://other.test/', why: 'scope' }] });
    const out = await store.crawls.complete(id, page1, LIMITS);
    expect([out?.page?.n, out?.page?.url, out?.added, out?.state.counts.done, out?.state.counts.skipped_filters]).toEqual([1, `${BASE}/`, 2, 1, 1]);
    expect(await store.crawls.complete(id, page1, LIMITS)).toBeUndefined();
    expect((await store.usage.rows(7)).reduce((n, r) => n + r.counters.all_count, 0)).toBe(1);
    const listed = await store.crawls.pages(id, 0, 10);
    expect(listed.map((p) => [p.page.n, p.page.url, p.page.depth, p.page.parent, p.result?.html])).toEqual([[1, `${BASE}/`, 0, null, '<p>1</p>']]);
    expect((await store.crawls.frontier(id, 10)).map((e) => [e.url, e.depth, e.parent])).toEqual([
      [`${BASE}/a`, 1, `${BASE}/`],
      [`${BASE}/b`, 1, `${BASE}/`],
    ]);
  });

  test('a redirect target or canonical already taken in makes the page a duplicate: dropped, not charged', async () => {
    const store = await h.open();
    const id = await crawlOf(store);
    await store.crawls.seed(id, [{ url: `${BASE}/`, source: 'start' }, { url: `${BASE}/old`, source: 'start' }], 0, LIMITS);
    await store.crawls.complete(id, done(1, 0, []), LIMITS);
    const dup = await store.crawls.complete(id, done(2, 0, [`${BASE}/new-link`], { finalUrl: `${BASE}/`, charge: usageEntry(7) }), LIMITS);
    expect([dup?.page, dup?.added, dup?.state.counts.duplicates, dup?.state.counts.done]).toEqual([undefined, 0, 1, 1]);
    expect((await store.usage.rows(7)).length).toBe(0);
    // A canonical not met yet is taken in and the twin dropped; the canonical page is then kept.
    await store.crawls.seed(id, [{ url: `${BASE}/p?x=1`, source: 'start' }], 0, LIMITS);
    const twin = await store.crawls.complete(id, done(3, 0, [], { canonical: `${BASE}/p` }), LIMITS);
    expect([twin?.page, twin?.state.counts.duplicates]).toEqual([undefined, 2]);
    expect(await store.crawls.seed(id, [{ url: `${BASE}/p`, source: 'sitemap' }], 1, LIMITS)).toBe(0);
    const canonical = (await store.crawls.frontier(id, 10)).find((e) => e.url === `${BASE}/p`)!;
    // Its canonical names the dropped twin back: kept all the same (no page is lost to a loop).
    const kept = await store.crawls.complete(id, done(canonical.seq, canonical.depth, [], { canonical: `${BASE}/p?x=1` }), LIMITS);
    expect(kept?.page?.url).toBe(`${BASE}/p`);
  });

  test('depth and discovery caps count what they leave out, once per URL', async () => {
    const store = await h.open();
    const id = await crawlOf(store);
    const limits = { ...LIMITS, maxDepth: 0, maxDiscovered: 2 };
    await store.crawls.seed(id, [{ url: `${BASE}/`, source: 'start' }, { url: `${BASE}/x`, source: 'start' }, { url: `${BASE}/y`, source: 'start' }], 0, limits);
    const out = await store.crawls.complete(id, done(1, 0, [`${BASE}/deep`, `${BASE}/deep`]), limits);
    expect([out?.state.counts.discovered, out?.state.counts.skipped_limit, out?.state.counts.skipped_depth]).toEqual([2, 1, 1]);
  });

  test('lease counts dispatches and stamps the host; an entry leased too often fails instead', async () => {
    const store = await h.open();
    const id = await crawlOf(store);
    await store.crawls.seed(id, [{ url: `${BASE}/`, source: 'start' }], 0, LIMITS);
    const at = { seq: 1, depth: 0, host: 'site.test' };
    const first = await store.crawls.lease(id, [at], 1000, 2);
    expect(first.leased.map((e) => e.leases)).toEqual([1]);
    expect((await store.crawls.host(id, 'site.test'))?.lastFetchAt).toBe(1000);
    await store.crawls.lease(id, [at], 2000, 2);
    const third = await store.crawls.lease(id, [at], 3000, 2);
    expect([third.leased.length, third.failed]).toEqual([0, [1]]);
    const state = await store.crawls.get(id);
    expect([state?.counts.failed, state?.counts.queued]).toEqual([1, 0]);
    expect((await store.crawls.skips(id, 0, 10)).map((s) => [s.reason, s.error?.title])).toEqual([['failed', 'INTERNAL_ERROR']]);
  });

  test('skip records the robots decision; cancel, stop, cursors and settle; remove drops everything', async () => {
    const store = await h.open();
    const id = await crawlOf(store);
    await store.crawls.seed(id, [{ url: `${BASE}/private`, source: 'start' }], 0, LIMITS);
    const robots = { robots_url: `${BASE}/robots.txt`, line: 2, rule: 'Disallow: /private', reason: 'disallowed by robots.txt' };
    expect(await store.crawls.skip(id, { seq: 1, depth: 0 }, { reason: 'robots', robots })).toBe(true);
    expect(await store.crawls.skip(id, { seq: 1, depth: 0 }, { reason: 'robots', robots })).toBe(false);
    expect((await store.crawls.skips(id, 0, 10)).map((s) => [s.n, s.url, s.robots])).toEqual([[1, `${BASE}/private`, robots]]);
    await store.crawls.setRobots(id, 'site.test', { status: 200, text: 'User-agent: *' });
    expect((await store.crawls.host(id, 'site.test'))?.robots).toEqual({ status: 200, text: 'User-agent: *' });
    expect(await store.crawls.requestCancel(id)).toBe(true);
    expect(await store.crawls.requestCancel('1000000000000000000')).toBe(false);
    await store.crawls.stop(id, { code: 'QUOTA_EXCEEDED', message: 'quota' });
    await store.crawls.advance(id, 'webhook', 5, false);
    await store.crawls.advance(id, 'webhook', 3, true);
    const state = await store.crawls.get(id);
    expect([state?.cancelRequested, state?.stopped?.code, state?.deliveries.webhook]).toEqual([true, 'QUOTA_EXCEEDED', { cursor: 5, closed: true, queued: false }]);
    await store.crawls.settle(id);
    expect(await store.crawls.frontier(id, 10)).toEqual([]);
    await store.crawls.remove(id);
    expect(await store.crawls.get(id)).toBeUndefined();
    expect(await store.crawls.skips(id, 0, 10)).toEqual([]);
  });

  test('a page result is stored with its record and dropped with a duplicate', async () => {
    const store = await h.open();
    const id = await crawlOf(store);
    await store.crawls.seed(id, [{ url: `${BASE}/`, source: 'start' }, { url: `${BASE}/b`, source: 'start' }], 0, LIMITS);
    await store.crawls.complete(id, done(1, 0, [], { result: page('<p>kept</p>') }), LIMITS);
    await store.crawls.complete(id, done(2, 0, [], { result: page('<p>twin</p>'), finalUrl: `${BASE}/` }), LIMITS);
    expect((await store.crawls.pages(id, 0, 10)).map((p) => p.result?.html)).toEqual(['<p>kept</p>']);
    expect((await store.crawls.pages(id, 0, 10, false)).map((p) => [p.page.url, p.result])).toEqual([[`${BASE}/`, undefined]]);
  });
}
