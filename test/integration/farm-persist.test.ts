/**
 * Async results are written to the store by the worker that produced them (ScrapeTask.persist):
 * the reply to the main thread carries the status and usage only, and the service's store (the
 * same LMDB folder, opened on the main thread) reads the results the worker wrote.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { loadConfig } from '../../core/config.js';
import { openStore, type Store } from '../../core/store/index.js';
import { createFarm, type Farm } from '../../farm/index.js';
import { task } from '../helpers/farm.js';
import { STATIC_HTML } from '../sites/generic.js';
import { startSimulator, type Simulator } from '../sites/server.js';

let sim: Simulator;
let farm: Farm;
let store: Store;
let dataDir: string;

beforeAll(async () => {
  sim = await startSimulator();
  dataDir = mkdtempSync(join(tmpdir(), 'gleaner-persist-'));
  store = await openStore({ dataDir });
  farm = await createFarm({ config: loadConfig({}, { allowPrivate: true, workers: 1, dataDir }) });
});
afterAll(async () => {
  await farm?.close();
  await store?.close();
  await sim?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

test('a persisted task leaves its results in the store and replies without them', async () => {
  const t = { ...task({ url: `${sim.origin}/static`, output: ['html', 'markdown'] }), persist: true };
  const out = await farm.run(t);
  expect([out.status, out.results, out.stored, out.usage.pages]).toEqual([200, [], true, 1]);
  const stored = (await store.jobs.result(t.id))!;
  expect(stored.results.map((r) => [r.html, r.markdown?.split('\n')[0], r.metadata.status_code])).toEqual([[STATIC_HTML, '# Static heading', 200]]);
});

test('a task that is not persisted replies with its results and writes nothing', async () => {
  const t = task({ url: `${sim.origin}/static` });
  const out = await farm.run(t);
  expect([out.results[0]!.html, out.stored, await store.jobs.result(t.id)]).toEqual([STATIC_HTML, undefined, undefined]);
});
