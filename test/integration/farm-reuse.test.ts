/**
 * Page reuse in the browser path (farm/browser/tab.ts): one worker, one context, so every
 * rendering task lands on the same parked page. What one task set must not carry over to the
 * next, a fragment-only change must still load the page, and a failed page is never reused.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../../core/config.js';
import { createFarm, type Farm } from '../../farm/index.js';
import { codeOf, task } from '../helpers/farm.js';
import { startSimulator, type Simulator } from '../sites/server.js';

let sim: Simulator;
let farm: Farm;

beforeAll(async () => {
  sim = await startSimulator();
  farm = await createFarm({
    config: loadConfig({}, { allowPrivate: true, workers: 1, contextsPerWorker: 1 }),
    limits: { pageIdleMs: 60_000 },
  });
});

afterAll(async () => {
  await farm?.close();
  await sim?.close();
});

describe('a reused page', () => {
  test('media blocking follows each task: off for a screenshot, on again after it', async () => {
    const fontHits = () => sim.hits.get('/fonts/face.woff2') ?? 0;
    await farm.run(task({ url: `${sim.origin}/media?reuse=1`, run_js: true }));
    expect(fontHits()).toBe(0);
    await farm.run(task({ url: `${sim.origin}/media?reuse=2`, run_js: true, output: ['screenshot'] }));
    expect(fontHits()).toBe(1);
    await farm.run(task({ url: `${sim.origin}/media?reuse=3`, run_js: true }));
    expect([fontHits(), sim.hits.get('/media?reuse=3')]).toEqual([1, 1]);
  });

  test('a URL that differs only by its fragment is loaded again, not a same-document hop', async () => {
    const a = await farm.run(task({ url: `${sim.origin}/js-only?frag=1#a`, run_js: true }));
    const b = await farm.run(task({ url: `${sim.origin}/js-only?frag=1#b`, run_js: true }));
    expect([a.results[0].metadata.url, b.results[0].metadata.url]).toEqual([`${sim.origin}/js-only?frag=1#a`, `${sim.origin}/js-only?frag=1#b`]);
    expect(b.results[0].html).toContain('<p id="late">Late data</p>');
    expect(sim.hits.get('/js-only?frag=1')).toBe(2);
  });

  test('after a page timed out, the next task renders on a fresh page', async () => {
    expect(await codeOf(farm.run(task({ url: `${sim.origin}/slow?ms=5000&k=reuse`, run_js: true }, { timeoutMs: 1200 })))).toBe(
      'REQUEST_FAILED_SCRAPE_TIMEOUT',
    );
    expect(farm.stats()).toMatchObject({ pages: 0, contexts: 0 });
    const out = await farm.run(task({ url: `${sim.origin}/js-only?after=timeout`, run_js: true }));
    expect([out.status, out.results[0].html?.includes('Rendered by script')]).toEqual([200, true]);
    expect(farm.stats()).toMatchObject({ pages: 0, contexts: 1 });
  });
});
