/**
 * The job runner's per-route cap (the assistants' concurrency): jobs of a capped route beyond
 * the cap wait in the queue while other routes' jobs run, and every job runs in the end. The
 * store is the real LMDB store; the farm is a runner that holds each task until released.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { newId } from '../../core/ids.js';
import { createLogger } from '../../core/log.js';
import { openStore } from '../../core/store/index.js';
import type { JobRecord } from '../../core/store/jobs.js';
import type { ScrapeOutcome, ScrapeTask } from '../../core/wire.js';
import { JobRunner } from '../../farm/index.js';
import { waitFor } from '../helpers/farm.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function job(routeId: string): JobRecord {
  const now = Date.now();
  return { id: newId(), clientId: 1, routeId, mode: 'async', api: 'web', params: {}, status: 'pending', createdAt: now, updatedAt: now, attempts: 0, priority: 0, deliveries: {} } as JobRecord;
}

test('a capped route runs at most its cap at once; other routes pass the waiting jobs', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gleaner-cap-'));
  dirs.push(dir);
  const store = await openStore({ dataDir: dir });
  const running: ScrapeTask[] = [];
  const release: Array<() => void> = [];
  let peak = 0;
  const runner = {
    stats: () => ({ queued: 0 }),
    run(task: ScrapeTask): Promise<ScrapeOutcome> {
      running.push(task);
      peak = Math.max(peak, running.filter((t) => t.routeId === 'llm1').length);
      return new Promise((resolve) =>
        release.push(() => {
          running.splice(running.indexOf(task), 1);
          resolve({ status: 200, results: [], usage: { pages: 1, render: true, requestBytes: 0, responseBytes: 0, elapsedMs: 1 } });
        }),
      );
    },
  };
  const jobs = new JobRunner({
    jobs: store.jobs,
    queue: store.work,
    runner,
    events: store.feed,
    log: createLogger('silent'),
    concurrency: 10,
    jobTimeoutMs: 60_000,
    retentionMs: 60_000,
    routeCap: (routeId) => (routeId === 'llm1' ? 2 : 0),
  });
  const batch = [...Array.from({ length: 5 }, () => job('llm1')), job('universal'), job('universal')];
  jobs.start();
  await store.jobs.enqueue(batch);
  // Two questions and both other jobs run; three questions wait.
  await waitFor(() => running.length === 4);
  expect(running.map((t) => t.routeId).sort()).toEqual(['llm1', 'llm1', 'universal', 'universal']);
  expect(jobs.stats()).toEqual({ running: 4, waiting: 3 });
  // Release one task at a time, whichever runs; a loaded machine only makes this slower.
  const done = async () => (await Promise.all(batch.map((j) => store.jobs.get(j.id)))).every((j) => j?.status === 'done');
  while (!(await done())) {
    await waitFor(async () => release.length > 0 || (await done()));
    release.shift()?.();
  }
  expect(peak).toBe(2);
  await jobs.close();
  await store.close();
});
