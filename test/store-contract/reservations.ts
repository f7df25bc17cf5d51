/** Contract: quota reservations of unfinished jobs, and id blocks. */
import { expect, test } from 'vitest';
import { ID_NODE_SLOTS } from '../../core/store/ids.js';
import type { WorkItem } from '../../core/store/work.js';
import { eventually, jobRecord, page, usageEntry, type StoreHarness } from './harness.js';

const DAY = 86_400_000;
const URL = 'http://127.0.0.1:9/page';

export function reservationsContract(h: StoreHarness): void {
  test('queued and running jobs hold their pages until finish: charged when done, given back when faulted, once', async () => {
    const store = await h.open();
    const paged = jobRecord(21, { params: { url: URL, pages: 3 } });
    const rendered = jobRecord(21, { params: { url: URL, run_js: true } });
    const declared = jobRecord(21, { reserve: { pages: 5, rendered: false } });
    expect(store.quotas.reservedOf(21)).toEqual({ pages: 0, rendered: 0 });
    await store.jobs.enqueue([paged, rendered]);
    await store.jobs.enqueue([declared]);
    expect(store.quotas.reservedOf(21)).toEqual({ pages: 9, rendered: 1 });
    expect(store.quotas.reservedOf(22)).toEqual({ pages: 0, rendered: 0 });
    // Running still holds.
    await store.jobs.start(paged.id, 3);
    expect(store.quotas.reservedOf(21).pages).toBe(9);
    // Done: held pages become charged pages in the same step.
    await store.jobs.finish(paged.id, { ok: true, upstreamStatus: 200, results: [page('<p>3</p>')] }, DAY, usageEntry(21, { results: 3 }));
    expect(store.quotas.reservedOf(21)).toEqual({ pages: 6, rendered: 1 });
    expect(store.quotas.usageOf(21).pages_day).toBe(3);
    // Faulted: given back, nothing charged.
    await store.jobs.finish(rendered.id, { ok: false, error: { code: 'BROWSER_CRASHED', message: 'crashed' } }, DAY, usageEntry(21));
    expect(store.quotas.reservedOf(21)).toEqual({ pages: 5, rendered: 0 });
    expect(store.quotas.usageOf(21).pages_day).toBe(3);
    // A repeated finish releases nothing twice.
    expect(await store.jobs.finish(paged.id, { ok: true, upstreamStatus: 200, results: [page('<p>3</p>')] }, DAY, usageEntry(21, { results: 3 }))).toBeUndefined();
    expect(store.quotas.reservedOf(21)).toEqual({ pages: 5, rendered: 0 });
    // Charged fewer pages than it held: the rest is given back.
    await store.jobs.finish(declared.id, { ok: true, upstreamStatus: 200, results: [page('<p>2</p>')] }, DAY, usageEntry(21, { results: 2 }));
    expect(store.quotas.reservedOf(21)).toEqual({ pages: 0, rendered: 0 });
    expect(store.quotas.usageOf(21).pages_day).toBe(5);
  });

  test("reservations are durable: another handle (a restart's, another node's) sees them, its runner start keeps them, its finish releases them", async () => {
    const store = await h.open();
    const jobs = [jobRecord(23, { params: { url: URL, pages: 2 } }), jobRecord(23)];
    await store.jobs.enqueue(jobs);
    const other = await h.openAnother(store);
    await eventually(() => other.quotas.reservedOf(23).pages === 3, undefined, 'reservation visible on another handle');
    const got: WorkItem[] = [];
    const consumer = other.work.consume({ deliver: (items) => got.push(...items), room: () => 100 });
    await eventually(() => got.length === 2, undefined, 'queued jobs handed over');
    expect(other.quotas.reservedOf(23)).toEqual({ pages: 3, rendered: 0 });
    await other.jobs.finish(jobs[0]!.id, { ok: false, error: { code: 'INTERNAL_ERROR', message: 'x' } }, DAY);
    consumer.settle(jobs[0]!.id);
    expect(other.quotas.reservedOf(23)).toEqual({ pages: 1, rendered: 0 });
    await eventually(() => store.quotas.reservedOf(23).pages === 1, undefined, 'release visible on the first handle');
    consumer.stop();
  });

  test('id blocks: the mark only rises, and a later handle on the same slot starts above every block handed out before', async () => {
    const store = await h.open();
    const now = Date.now();
    const first = await store.ids.reserveIdBlock(now, 10_000);
    expect(Number.isInteger(first.node) && first.node >= 0 && first.node < ID_NODE_SLOTS).toBe(true);
    expect(first.until).toBeGreaterThanOrEqual(now + 10_000);
    expect(first.floor).toBeLessThan(first.until);
    // The clock stepped back an hour: the mark does not come down.
    const back = await store.ids.reserveIdBlock(now - 3_600_000, 10_000);
    expect([back.node, back.floor]).toEqual([first.node, first.floor]);
    expect(back.until).toBeGreaterThanOrEqual(first.until);
    const ahead = await store.ids.reserveIdBlock(now + 60_000, 10_000);
    expect(ahead.until).toBeGreaterThanOrEqual(now + 70_000);
    // Concurrent reservations are serialised: the mark ends at the highest asked for.
    const many = await Promise.all([1, 2, 3, 4].map((i) => store.ids.reserveIdBlock(now + i * 100_000, 10_000)));
    expect(Math.max(...many.map((b) => b.until))).toBeGreaterThanOrEqual(now + 410_000);
    // A restart with the clock an hour back (or a node on the same slot) issues above all of it.
    const later = await h.openAnother(store);
    const next = await later.ids.reserveIdBlock(now - 3_600_000, 10_000);
    if (next.node === first.node) expect(next.floor).toBeGreaterThanOrEqual(now + 410_000);
    expect(next.until).toBeGreaterThan(next.floor);
  });
}
