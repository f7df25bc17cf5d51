/** Contract: the delivery outbox and the dead-letter list. */
import { expect, test } from 'vitest';
import type { Store } from '../../core/store/index.js';
import type { JobRecord, OutboxEntry } from '../../core/store/jobs.js';
import { eventually, jobRecord, page, type StoreHarness } from './harness.js';

const DAY = 86_400_000;

/** A done job owing a webhook and a bucket upload. */
async function finishedOwing(store: Store): Promise<JobRecord> {
  const job = jobRecord(3, { params: { url: 'http://127.0.0.1:9/a', callback_url: 'http://127.0.0.1:9/hook', storage: { type: 's3', url: 's3://bucket/prefix/' } } });
  await store.jobs.enqueue([job]);
  return (await store.jobs.finish(job.id, { ok: true, upstreamStatus: 200, results: [page('<p>x</p>')] }, DAY))!;
}

async function dueFor(store: Store, jobId: string, now = Date.now()): Promise<OutboxEntry[]> {
  return (await store.deliveries.dueDeliveries(now, 100)).filter((e) => e.jobId === jobId).sort((a, b) => a.kind.localeCompare(b.kind));
}

export function deliveriesContract(h: StoreHarness): void {
  test('finish puts the deliveries a job owes in the outbox, due now, once', async () => {
    const store = await h.open();
    const job = await finishedOwing(store);
    expect(job.deliveries).toEqual({ webhook: { state: 'pending', attempts: 0, since: job.finishedAt }, storage: { state: 'pending', attempts: 0, since: job.finishedAt } });
    const due = await dueFor(store, job.id);
    expect(due.map((e) => [e.kind, e.attempt])).toEqual([['storage', 0], ['webhook', 0]]);
    await eventually(() => store.deliveries.pendingCount() === 2, undefined, 'two deliveries pending');
    // A faulted job owes its webhook only; a job without a callback owes nothing.
    const faulted = jobRecord(3, { params: { url: 'http://127.0.0.1:9/b', callback_url: 'http://127.0.0.1:9/hook', storage: { type: 's3', url: 's3://b/' } } });
    const quiet = jobRecord(3);
    await store.jobs.enqueue([faulted, quiet]);
    await store.jobs.finish(faulted.id, { ok: false, error: { code: 'INTERNAL_ERROR', message: 'x' } }, DAY);
    await store.jobs.finish(quiet.id, { ok: true, upstreamStatus: 200, results: [] }, DAY);
    expect((await dueFor(store, faulted.id)).map((e) => e.kind)).toEqual(['webhook']);
    expect(await dueFor(store, quiet.id)).toEqual([]);
  });

  test('a retry is due at its time; delivered leaves the outbox; recording twice records once', async () => {
    const store = await h.open();
    const job = await finishedOwing(store);
    const [, webhook] = await dueFor(store, job.id);
    const retryAt = Date.now() + 60_000;
    const rescheduled = await store.deliveries.recordDelivery(webhook!, { state: 'pending', error: 'HTTP 503', retryAt }, DAY);
    expect(rescheduled?.deliveries.webhook).toEqual({ state: 'pending', attempts: 1, since: job.finishedAt, lastError: 'HTTP 503' });
    expect(rescheduled!.expiresAt).toBeGreaterThanOrEqual(retryAt + DAY);
    expect((await dueFor(store, job.id)).map((e) => e.kind)).toEqual(['storage']);
    const [retry] = (await dueFor(store, job.id, retryAt)).filter((e) => e.kind === 'webhook');
    expect([retry?.attempt, retry?.dueAt]).toEqual([1, retryAt]);
    const delivered = await store.deliveries.recordDelivery(retry!, { state: 'delivered' }, DAY);
    expect(delivered?.deliveries.webhook).toEqual({ state: 'delivered', attempts: 2, since: job.finishedAt, deliveredAt: expect.any(Number) });
    expect(await store.deliveries.recordDelivery(retry!, { state: 'delivered' }, DAY)).toBeUndefined();
    expect((await store.jobs.get(job.id))?.deliveries.webhook?.attempts).toBe(2);
    expect((await dueFor(store, job.id, retryAt)).map((e) => e.kind)).toEqual(['storage']);
  });

  test('a delivery given up is a dead letter until redelivered; redelivery starts a new series', async () => {
    const store = await h.open();
    const job = await finishedOwing(store);
    const [storage] = await dueFor(store, job.id);
    const failed = await store.deliveries.recordDelivery(storage!, { state: 'failed', error: 'HTTP 403 AccessDenied' }, DAY);
    expect(failed?.deliveries.storage).toMatchObject({ state: 'failed', attempts: 1, lastError: 'HTTP 403 AccessDenied' });
    expect(await store.deliveries.deadLetters()).toEqual([
      { jobId: job.id, kind: 'storage', clientId: 3, routeId: 'universal', failedAt: expect.any(Number), since: job.finishedAt, attempts: 1, error: 'HTTP 403 AccessDenied' },
    ]);
    expect(await store.deliveries.redeliver(job.id, 'webhook', DAY)).toEqual([]);
    expect(await store.deliveries.redeliver('1000000000000000000', undefined, DAY)).toEqual([]);
    expect(await store.deliveries.redeliver(job.id, undefined, DAY)).toEqual(['storage']);
    expect(await store.deliveries.deadLetters()).toEqual([]);
    const again = (await dueFor(store, job.id)).find((e) => e.kind === 'storage');
    expect(again?.attempt).toBe(0);
    expect((await store.jobs.get(job.id))?.deliveries.storage).toEqual({ state: 'pending', attempts: 0, since: expect.any(Number) });
  });

  test("a dead letter goes with its job's retention", async () => {
    const store = await h.open();
    const job = jobRecord(3, { params: { url: 'http://127.0.0.1:9/a', callback_url: 'http://127.0.0.1:9/hook' } });
    await store.jobs.enqueue([job]);
    await store.jobs.finish(job.id, { ok: true, upstreamStatus: 200, results: [] }, 1);
    const [webhook] = await dueFor(store, job.id);
    await store.deliveries.recordDelivery(webhook!, { state: 'failed', error: 'gone' }, 1);
    expect((await store.deliveries.deadLetters()).length).toBe(1);
    await eventually(async () => {
      await store.jobs.sweep(Date.now());
      return (await store.deliveries.deadLetters()).length === 0;
    }, 5_000, 'dead letter swept');
    expect(await store.jobs.get(job.id)).toBeUndefined();
  });

  test("a crawl's wake-up recorded after the crawl finished leaves the finish's delivery owed (crawl.done is sent)", async () => {
    const store = await h.open();
    const job = jobRecord(3, { routeId: 'crawl', params: { url: 'http://site.test/', callback_url: 'http://127.0.0.1:9/hook', callback_pages: true } });
    await store.jobs.enqueue([job]);
    await store.crawls.init(job.id, 3);
    const limits = { maxDepth: 3, maxDiscovered: 1000, drains: ['webhook' as const], batchMs: 0 };
    await store.crawls.seed(job.id, [{ url: 'http://site.test/', source: 'start' }], 0, limits);
    await store.crawls.complete(job.id, { seq: 1, depth: 0, statusCode: 200, links: [], refused: [], result: page('<p>1</p>') }, limits);
    const [wake] = await dueFor(store, job.id);
    expect([wake?.kind, wake?.attempt]).toEqual(['webhook', 0]);
    // The crawl finishes while the wake-up's attempt is out; the attempt is recorded after.
    const finished = (await store.jobs.finish(job.id, { ok: true, upstreamStatus: 200, results: [] }, DAY))!;
    await store.deliveries.recordDelivery(wake!, { state: 'delivered' }, DAY);
    let closing: OutboxEntry | undefined;
    await eventually(async () => (closing = (await dueFor(store, job.id)).find((e) => e.dueAt === finished.finishedAt)) !== undefined, 5_000, "the finish's delivery due");
    expect([closing!.kind, closing!.attempt]).toEqual(['webhook', 0]);
    const recorded = await store.deliveries.recordDelivery(closing!, { state: 'delivered' }, DAY);
    expect(recorded?.deliveries.webhook).toEqual({ state: 'delivered', attempts: 1, since: finished.finishedAt, deliveredAt: expect.any(Number) });
  });

  test("a crawl's wake-up queued after the finish does not take the place of the finish's delivery", async () => {
    const store = await h.open();
    const job = jobRecord(3, { routeId: 'crawl', params: { url: 'http://site.test/', callback_url: 'http://127.0.0.1:9/hook', callback_pages: true } });
    await store.jobs.enqueue([job]);
    await store.crawls.init(job.id, 3);
    const finished = (await store.jobs.finish(job.id, { ok: true, upstreamStatus: 200, results: [] }, DAY))!;
    // A page batch's step that began before the finish queues the next wake-up after it.
    await store.crawls.advance(job.id, 'webhook', 1, false, finished.finishedAt! + 1);
    let closing: OutboxEntry | undefined;
    await eventually(async () => (closing = (await dueFor(store, job.id, finished.finishedAt! + 1)).find((e) => e.dueAt === finished.finishedAt)) !== undefined, 5_000, "the finish's delivery due");
    expect([closing!.kind, closing!.attempt]).toEqual(['webhook', 0]);
  });
}
