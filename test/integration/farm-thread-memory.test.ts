/**
 * What a plain fetch thread holds (issue 26, bench/README "Plain-only node memory"):
 * - its young generation is capped by GLEANER_WORKER_YOUNG_MB (farm/threads.ts), read back from
 *   the real Piscina threads' resource limits; 0 leaves V8's default;
 * - its module graph leaves out what only some tasks need (the store for async results, custom
 *   extraction, media downloads, crawl parts), which load with the first task that needs them:
 *   a real worker thread imports the worker entry with a loader hook listing every module, and
 *   a real farm then serves a plain page, a json extraction and an async result.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../../core/config.js';
import { createFarm } from '../../farm/index.js';
import { DEFAULT_LIMITS } from '../../farm/messages.js';
import { createStatsBuffer } from '../../farm/stats.js';
import { createThreads } from '../../farm/threads.js';
import { task } from '../helpers/farm.js';
import { startSimulator, type Simulator } from '../sites/server.js';

let sim: Simulator;

beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(async () => {
  await sim?.close();
});

async function youngLimitOfFetchThread(youngMb: string): Promise<number | undefined> {
  const config = loadConfig({ GLEANER_WORKER_YOUNG_MB: youngMb }, { workers: 1 });
  const setup = {
    config,
    limits: DEFAULT_LIMITS,
    hosts: {},
    stats: createStatsBuffer(),
    browserLaunch: { executablePath: undefined, args: [], version: undefined },
    cancelChannel: 'farm-thread-memory-test',
    pages: 0,
    browserIdleMs: 0,
  };
  const pool = createThreads({ kind: 'fetch', threads: 1, tasksPerThread: 1, setup, idleTimeoutMs: 0, onDestroy: () => undefined, onError: () => undefined });
  try {
    // Fetch threads start with the pool; their limits are what the thread's V8 was given.
    const deadline = Date.now() + 30_000;
    while (pool.threads.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    return pool.threads[0]?.resourceLimits?.maxYoungGenerationSizeMb;
  } finally {
    await pool.destroy();
  }
}

describe('fetch thread young generation', () => {
  test('GLEANER_WORKER_YOUNG_MB caps it, 0 leaves V8 its default, and the default is 12 MB', async () => {
    expect(loadConfig({}).workerYoungMb).toBe(12);
    expect(await youngLimitOfFetchThread('8')).toBe(8);
    // No limit given: V8 sizes it itself. Node reports the unset limit as -1 until the thread's
    // heap is set up, then V8's own size (48 MB on the 2-core machine): either way, not capped.
    const unset = await youngLimitOfFetchThread('0');
    expect(unset === -1 || (unset !== undefined && unset > 12) ? "V8's default" : unset).toBe("V8's default");
    expect(() => loadConfig({ GLEANER_WORKER_YOUNG_MB: '-1' })).toThrow(/GLEANER_WORKER_YOUNG_MB/);
  });
});

/**
 * Every module a fresh worker thread holds once the worker entry is loaded as the farm's threads
 * load it from source (Piscina `require`s the entry; tsx's require hook transpiles): the
 * thread's require cache.
 */
async function workerEntryModules(): Promise<string[]> {
  const entry = fileURLToPath(new URL('../../farm/worker/main.ts', import.meta.url));
  const dir = mkdtempSync(join(tmpdir(), 'gleaner-thread-modules-'));
  const script = join(dir, 'load-entry.cjs');
  writeFileSync(script, `const { parentPort } = require('node:worker_threads'); require(${JSON.stringify(entry)}); parentPort.postMessage(Object.keys(require.cache));`);
  const worker = new Worker(script, { execArgv: ['--import', 'tsx'] });
  try {
    return await new Promise<string[]>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`worker exited (${code}) before it answered`)));
    });
  } finally {
    await worker.terminate();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('fetch thread module graph', () => {
  test('the worker entry loads neither the store, nor custom extraction, media or crawl modules, nor undici', async () => {
    const modules = await workerEntryModules();
    // The entry itself and the plain path are there: the hook saw the real graph.
    expect(modules.some((u) => u.endsWith('/farm/worker/run-task.ts'))).toBe(true);
    expect(modules.some((u) => u.endsWith('/farm/net/fetcher.ts'))).toBe(true);
    const heavy = modules.filter((u) =>
      /\/core\/store\/|\/node_modules\/(lmdb|msgpackr|undici|ajv)\/|\/core\/extraction\/index\.ts$|\/farm\/worker\/(persist-writer|media-step|media-delivery|crawl-part)\.ts$|\/farm\/delivery\//.test(u),
    );
    expect(heavy).toEqual([]);
  }, 60_000);

  test('custom extraction, loaded by the first task that asks for it, answers after a plain page', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gleaner-thread-memory-'));
    const config = loadConfig({}, { allowPrivate: true, workers: 1, dataDir });
    const farm = await createFarm({ config });
    try {
      const plain = await farm.run(task({ url: `${sim.origin}/static`, output: ['markdown'] }));
      expect(plain.status).toBe(200);
      const json = await farm.run(task({ url: `${sim.origin}/static`, output: ['json'], json: { schema: { type: 'object', properties: { title: { type: 'string' } } } } }));
      expect(json.status).toBe(200);
      expect(json.results[0]?.metadata.json_source).toBeDefined();
    } finally {
      await farm.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
