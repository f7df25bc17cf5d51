/** Contract: jobs, their state machine, finish-with-result-and-charge, the work queue, retention. */
import { expect, test } from 'vitest';
import type { Store } from '../../core/store/index.js';
import type { WorkItem } from '../../core/store/work.js';
import { eventually, jobRecord, page, usageEntry, type StoreHarness } from './harness.js';

const DAY = 86_400_000;

async function pagesCharged(store: Store, clientId: number): Promise<number> {
  return (await store.usage.rows(clientId)).reduce((n, r) => n + r.counters.all_count, 0);
}

export function jobsContract(h: StoreHarness): void {
  test('an enqueued job is pending, with no result, and counted in the queue', async () => {
    const store = await h.open();
    const job = jobRecord(1, { params: { url: 'http://127.0.0.1:9/a', callback_url: 'http://127.0.0.1:9/hook' } });
    await store.jobs.enqueue([job]);
    expect(await store.jobs.get(job.id)).toEqual(job);
    expect(await store.jobs.result(job.id)).toBeUndefined();
    expect(await store.jobs.get('1000000000000000000')).toBeUndefined();
    await eventually(() => store.jobs.queueDepth() === 1, undefined, 'queue depth 1');
  });

  test('start moves to running and counts; a poison job is not started again; a final job is not started', async () => {
    const store = await h.open();
    const job = jobRecord(1);
    await store.jobs.enqueue([job]);
    const first = await store.jobs.start(job.id, 2);
    expect([first?.started, first?.job.status, first?.job.attempts]).toEqual([true, 'running', 1]);
    // A redelivery after the node running it died: started again, counted.
    expect((await store.jobs.start(job.id, 2))?.job.attempts).toBe(2);
    const poison = await store.jobs.start(job.id, 2);
    expect([poison?.started, poison?.job.attempts]).toEqual([false, 2]);
    await store.jobs.finish(job.id, { ok: false, error: { code: 'INTERNAL_ERROR', message: 'given up' } }, DAY);
    expect(await store.jobs.start(job.id, 2)).toBeUndefined();
    expect(await store.jobs.start('1000000000000000000', 2)).toBeUndefined();
  });

  test('finish stores state, result and charge once; concurrent and repeated finishes change nothing', async () => {
    const store = await h.open();
    const job = jobRecord(7);
    await store.jobs.enqueue([job]);
    await store.jobs.start(job.id, 3);
    const outcome = { ok: true as const, upstreamStatus: 200, results: [page('<p>one</p>')] };
    const finishes = await Promise.all([1, 2, 3, 4].map(() => store.jobs.finish(job.id, outcome, DAY, usageEntry(7, { results: 2 }))));
    const winners = finishes.filter((f) => f !== undefined);
    expect(winners.length).toBe(1);
    expect(winners[0]).toMatchObject({ id: job.id, status: 'done', upstreamStatus: 200, finishedAt: expect.any(Number), expiresAt: expect.any(Number) });
    expect(await store.jobs.get(job.id)).toEqual(winners[0]);
    expect(await store.jobs.result(job.id)).toEqual({ results: [page('<p>one</p>')] });
    expect(await pagesCharged(store, 7)).toBe(2);
    expect(store.quotas.usageOf(7).pages_day).toBe(2);
    // A redelivered finished job: start says final, finish writes and charges nothing.
    expect(await store.jobs.start(job.id, 3)).toBeUndefined();
    expect(await store.jobs.finish(job.id, { ok: true, upstreamStatus: 500, results: [page('<p>two</p>')] }, DAY, usageEntry(7))).toBeUndefined();
    expect(await store.jobs.result(job.id)).toEqual({ results: [page('<p>one</p>')] });
    expect(await pagesCharged(store, 7)).toBe(2);
    await eventually(() => store.jobs.queueDepth() === 0, undefined, 'queue empty');
  });

  test('a faulted job keeps its error, has no result and is not charged', async () => {
    const store = await h.open();
    const job = jobRecord(8);
    await store.jobs.enqueue([job]);
    const done = await store.jobs.finish(job.id, { ok: false, error: { code: 'BROWSER_CRASHED', message: 'crashed' } }, DAY, usageEntry(8));
    expect([done?.status, done?.error]).toEqual(['faulted', { code: 'BROWSER_CRASHED', message: 'crashed' }]);
    expect(await store.jobs.result(job.id)).toBeUndefined();
    expect(await pagesCharged(store, 8)).toBe(0);
  });

  test("a result written by a worker is the job's result; its finish carries none", async () => {
    const store = await h.open();
    const job = jobRecord(1);
    await store.jobs.enqueue([job]);
    const writer = h.resultWriter(store);
    await writer.put(job.id, { results: [page('<p>from a worker</p>')] });
    // A rerun writes the same key again.
    await writer.put(job.id, { results: [page('<p>from a worker</p>')] });
    await store.jobs.finish(job.id, { ok: true, upstreamStatus: 200, results: undefined }, DAY);
    await eventually(async () => (await store.jobs.result(job.id))?.results[0]?.html === '<p>from a worker</p>', undefined, 'worker result visible');
  });

  test('the work queue hands over queued jobs at consume, then each enqueued job; stop ends it', async () => {
    const store = await h.open();
    const before = [jobRecord(1), jobRecord(2, { routeId: 'se1/search' })];
    await store.jobs.enqueue(before);
    const got: WorkItem[] = [];
    const consumer = store.work.consume({ deliver: (items) => got.push(...items), room: () => 100 });
    await eventually(() => got.length === 2, undefined, 'queued jobs handed over');
    expect(consumer.recovered).toBe(2);
    expect(got.map((i) => [i.id, i.clientId, i.routeId]).sort()).toEqual(before.map((j) => [j.id, j.clientId, j.routeId]).sort());
    const later = jobRecord(3);
    await store.jobs.enqueue([later]);
    await eventually(() => got.some((i) => i.id === later.id), undefined, 'enqueued job handed over');
    for (const item of got) {
      await store.jobs.finish(item.id, { ok: false, error: { code: 'INTERNAL_ERROR', message: 'x' } }, DAY);
      consumer.settle(item.id);
    }
    consumer.stop();
    const afterStop = jobRecord(4);
    await store.jobs.enqueue([afterStop]);
    // A stopped consumer is handed nothing; the next consumer gets the job.
    const next: WorkItem[] = [];
    const again = store.work.consume({ deliver: (items) => next.push(...items), room: () => 100 });
    await eventually(() => next.some((i) => i.id === afterStop.id), undefined, 'job handed to the next consumer');
    expect(got.some((i) => i.id === afterStop.id)).toBe(false);
    expect(next.map((i) => i.id)).toEqual([afterStop.id]);
    again.stop();
  });

  test('after its retention a finished job and its result are gone', async () => {
    const store = await h.open();
    const job = jobRecord(1);
    const kept = jobRecord(1);
    await store.jobs.enqueue([job, kept]);
    await store.jobs.finish(job.id, { ok: true, upstreamStatus: 200, results: [page('<p>short</p>')] }, 1);
    await store.jobs.finish(kept.id, { ok: true, upstreamStatus: 200, results: [page('<p>kept</p>')] }, DAY);
    await eventually(async () => {
      await store.jobs.sweep(Date.now());
      return (await store.jobs.get(job.id)) === undefined;
    }, 5_000, 'job swept');
    expect(await store.jobs.result(job.id)).toBeUndefined();
    expect((await store.jobs.get(kept.id))?.status).toBe('done');
  });

  test('enqueue of a job id already stored neither overwrites nor requeues it; a batch holding one stores none of its jobs', async () => {
    const store = await h.open();
    const job = jobRecord(11, { params: { url: 'http://127.0.0.1:9/first' } });
    await store.jobs.enqueue([job]);
    await store.jobs.start(job.id, 3);
    const fresh = jobRecord(11);
    const impostor: typeof job = { ...job, params: { url: 'http://127.0.0.1:9/impostor' }, status: 'pending', attempts: 0 };
    await expect(store.jobs.enqueue([fresh, impostor])).rejects.toThrow(job.id);
    expect(await store.jobs.get(job.id)).toMatchObject({ status: 'running', attempts: 1, params: { url: 'http://127.0.0.1:9/first' } });
    expect(await store.jobs.get(fresh.id)).toBeUndefined();
    // The same id twice in one call: refused whole too.
    const twin = jobRecord(11);
    await expect(store.jobs.enqueue([twin, { ...twin }])).rejects.toThrow(twin.id);
    expect(await store.jobs.get(twin.id)).toBeUndefined();
    await eventually(() => store.jobs.queueDepth() === 1, undefined, 'queue depth 1');
    expect(store.quotas.reservedOf(11)).toEqual({ pages: 1, rendered: 0 });
    // A finished job is not queued again by a repeat of its enqueue.
    await store.jobs.finish(job.id, { ok: true, upstreamStatus: 200, results: [page('<p>first</p>')] }, DAY, usageEntry(11));
    await expect(store.jobs.enqueue([{ ...job, status: 'pending' }])).rejects.toThrow(job.id);
    expect((await store.jobs.get(job.id))?.status).toBe('done');
    expect(await store.jobs.start(job.id, 3)).toBeUndefined();
    await eventually(() => store.jobs.queueDepth() === 0, undefined, 'queue empty');
    expect(store.quotas.reservedOf(11)).toEqual({ pages: 0, rendered: 0 });
    expect(await pagesCharged(store, 11)).toBe(1);
  });
}
