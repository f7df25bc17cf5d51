/**
 * Escalation as data (issue #20), through the HTTP API against the simulator and two proxies:
 * a commerce search that is a JavaScript challenge to any plain client is tried on the proxies
 * of its pool (each attempt a fresh session and identity), then once in the browser — the
 * commerce adapter's `escalation` allows it — which runs the challenge's script and gets the
 * page: parsed, and charged as one rendered page. The plain attempts run in a fetch thread,
 * which never starts a browser: the browser attempt runs in a render thread. A wall the browser
 * meets too is returned as `blocked` and charged nothing. The adapters' data, not code, decides
 * who escalates.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TargetConfig } from '../../core/config.js';
import { ADAPTERS } from '../../core/targets/index.js';
import { listingJson, nextPage } from '../helpers/commerce-expected.js';
import { call, postJson, startGateway, TEST_PASSWORD, TEST_USER, type TestGateway } from '../helpers/gateway.js';
import { startProxy, type TestProxy } from '../helpers/proxy.js';
import { simTargets } from '../sites/commerce.js';
import { startSimulator, type Simulator } from '../sites/server.js';

let sim: Simulator;
let gw: TestGateway;
let proxies: TestProxy[];

beforeAll(async () => {
  [sim, ...proxies] = await Promise.all([startSimulator(), startProxy(), startProxy()]);
  const targets = simTargets(sim.origin) as unknown as Record<string, TargetConfig>;
  gw = await startGateway({ targets, proxies: { gb: proxies.map((p) => p.url) } });
}, 60_000);
afterAll(async () => {
  await gw?.close();
  await Promise.all([sim?.close(), ...(proxies ?? []).map((p) => p.close())]);
});

/** Charged pages and rendered pages of the test account, summed over products (/v2/stats). */
async function charged(): Promise<{ pages: number; rendered: number }> {
  const data = gw.url.replace(/:\d+$/, `:${gw.server.dataPort}`);
  const stats = await call(`${data}/v2/stats`, { headers: { authorization: `Basic ${Buffer.from(`${TEST_USER}:${TEST_PASSWORD}`).toString('base64')}` } });
  const products = stats.body.data.products as Array<{ all_count: number; render_count: number }>;
  return products.reduce((t, p) => ({ pages: t.pages + p.all_count, rendered: t.rendered + p.render_count }), { pages: 0, rendered: 0 });
}

/** The ledger is written just after the answer leaves: wait (bounded) until it shows `want`. */
async function chargedBecomes(want: { pages: number; rendered: number }, timeoutMs = 10_000): Promise<{ pages: number; rendered: number }> {
  const until = Date.now() + timeoutMs;
  let now = await charged();
  while ((now.pages !== want.pages || now.rendered !== want.rendered) && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 25));
    now = await charged();
  }
  return now;
}

const through = (url: string) => proxies.reduce((n, p) => n + p.served.filter((s) => s === `GET ${url}`).length, 0);

describe('escalation', () => {
  test('which families escalate is adapter data', () => {
    const table = Object.fromEntries(ADAPTERS.filter((a) => a.escalation).map((a) => [a.name, a.escalation!.browser]));
    expect(table).toEqual({ mkt1: true, commerce: true, video: false });
  });

  test('a JavaScript challenge on every plain attempt: once more in the browser, parsed, charged as a rendered page', async () => {
    const before = await charged();
    expect(gw.server.farm.stats()).toMatchObject({ renderThreads: 0, browserLaunches: 0 });
    const a = await postJson(gw, '/v1/scrape/grocery1/search', { query: 'js-challenge outdoor', location: 'GB', output: ['json'] });
    const url = `${sim.origin}/grocery1/search?q=js-challenge%20outdoor`;
    expect(a.status).toBe(200);
    expect(a.body.results[0].metadata).toEqual({ page: 1, run_js: true, url, status_code: 200, json_source: 'builtin', parse_status: 'parsed' });
    expect(a.body.results[0].json).toEqual(listingJson({ origin: sim.origin, token: 'grocery1', url }, 'js-challenge outdoor', 1, 'search', nextPage(url, 'page', 2)));
    // Three plain attempts met the challenge; the browser met it once more, ran it, and reloaded.
    expect(sim.log.filter((l) => l === 'GET /grocery1/search?q=js-challenge%20outdoor')).toHaveLength(5);
    expect(through(url)).toBe(5);
    // One browser, in the render thread the pool sent the task to after the fetch thread's walls.
    expect(gw.server.farm.stats()).toMatchObject({ renderThreads: 1, browserLaunches: 1 });
    expect(await chargedBecomes({ pages: before.pages + 1, rendered: before.rendered + 1 })).toEqual({ pages: before.pages + 1, rendered: before.rendered + 1 });
  }, 120_000);

  test('a wall the browser meets too is returned as blocked and charged nothing', async () => {
    const before = await charged();
    const a = await postJson(gw, '/v1/scrape/grocery1/search', { query: 'blocked', location: 'GB', output: ['json'] });
    const url = `${sim.origin}/grocery1/search?q=blocked`;
    expect(a.status).toBe(200);
    expect(a.body.results[0].metadata).toEqual({ page: 1, run_js: true, url, status_code: 200, json_source: 'builtin', parse_status: 'blocked' });
    expect(sim.log.filter((l) => l === 'GET /grocery1/search?q=blocked')).toHaveLength(4);
    // Nothing is charged: wait for a later charged request, then compare.
    await postJson(gw, '/v1/scrape/grocery1/search', { query: 'outdoor', output: ['json'] });
    expect(await chargedBecomes({ pages: before.pages + 1, rendered: before.rendered })).toEqual({ pages: before.pages + 1, rendered: before.rendered });
  }, 120_000);
});
