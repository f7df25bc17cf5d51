/**
 * Per-account quotas on both APIs through the real listeners: X-RateLimit-* headers on
 * admitted work, 429 QUOTA_EXCEEDED with the reset time (no Retry-After) once a limit is used
 * up, nothing charged for a refused request, rendered-page limits only for rendering requests,
 * a batch refused whole, and usage against quota in /v2/stats and /metrics.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSimulator, type Simulator } from '../sites/server.js';
import { call, postJson, startGateway, TEST_PASSWORD, TEST_USER, type HttpAnswer, type TestGateway } from '../helpers/gateway.js';

let sim: Simulator;
let gw: TestGateway;
let realtime: string;
let data: string;
const basic = { authorization: `Basic ${Buffer.from(`${TEST_USER}:${TEST_PASSWORD}`).toString('base64')}`, 'content-type': 'application/json' };
const CLIENT = 1; // the bootstrap account, owner of both the test key and the test user

function nextUtcMidnight(): string {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1)).toISOString();
}

async function stats(): Promise<any> {
  return (await call(`${data}/v2/stats`, { headers: basic })).body;
}

/** Sync charges are committed before the answer leaves: the ledger shows `n` pages at once. */
async function chargedPages(n: number): Promise<void> {
  expect(gw.server.store.quotas.usageOf(CLIENT).pages_day).toBe(n);
}

function post(base: string, path: string, body: unknown): Promise<HttpAnswer> {
  return call(base + path, { method: 'POST', headers: basic, body: JSON.stringify(body) });
}

beforeAll(async () => {
  sim = await startSimulator();
  gw = await startGateway();
  realtime = `http://127.0.0.1:${gw.server.realtimePort}`;
  data = `http://127.0.0.1:${gw.server.dataPort}`;
});
afterAll(async () => {
  await gw?.close();
  await sim?.close();
});

describe('quotas', () => {
  test('without a quota there are no rate-limit headers and /v2/stats says quota: null', async () => {
    const a = await postJson(gw, '/v1/scrape', { url: `${sim.origin}/static` });
    expect(a.status).toBe(200);
    expect(a.headers.get('x-ratelimit-limit')).toBeNull();
    expect((await stats()).quota).toBeNull();
    await chargedPages(1);
  });

  test('Web API: pages per day counts down in the headers, then 429 QUOTA_EXCEEDED with the reset time', async () => {
    await gw.server.store.quotas.setQuota(CLIENT, { pages_per_day: 3 });
    const a = await postJson(gw, '/v1/scrape', { url: `${sim.origin}/static` });
    expect(a.status).toBe(200);
    expect([a.headers.get('x-ratelimit-limit'), a.headers.get('x-ratelimit-remaining'), a.headers.get('x-ratelimit-resource')]).toEqual(['3', '1', 'pages_per_day']);
    expect(Number(a.headers.get('x-ratelimit-reset')) * 1000).toBe(Date.parse(nextUtcMidnight()));
    await chargedPages(2);
    const b = await postJson(gw, '/v1/scrape', { url: `${sim.origin}/static` });
    expect(b.headers.get('x-ratelimit-remaining')).toBe('0');
    await chargedPages(3);

    const refused = await postJson(gw, '/v1/scrape', { url: `${sim.origin}/static` });
    expect(refused.status).toBe(429);
    expect(refused.body.title).toBe('QUOTA_EXCEEDED');
    expect(refused.body.quota).toEqual({ limit: 'pages_per_day', max: 3, used: 3, reserved: 0, reset_at: nextUtcMidnight(), reset: Date.parse(nextUtcMidnight()) / 1000 });
    expect(refused.body.detail).toContain(nextUtcMidnight());
    expect(refused.headers.get('retry-after')).toBeNull();
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    // Async submits are refused the same way, before anything is queued.
    const async = await postJson(gw, '/v1/async/scrape', { url: `${sim.origin}/static` });
    expect(async.status).toBe(429);
    expect(async.body.title).toBe('QUOTA_EXCEEDED');
    expect(gw.server.store.jobs.queueDepth()).toBe(0);
  });

  test('refused requests are not charged: /v2/stats shows usage against quota', async () => {
    const s = await stats();
    expect(s.data.products[0].all_count).toBe(3);
    expect(s.quota).toEqual({ pages_per_day: { max: 3, used: 3, reserved: 0, remaining: 0, reset_at: nextUtcMidnight() } });
  });

  test('/metrics shows each limit and its use per account', async () => {
    const m = await call(`${gw.url}/metrics`, { headers: gw.auth });
    expect(m.text).toContain(`gleaner_quota_limit{client_id="${CLIENT}",limit="pages_per_day"} 3`);
    expect(m.text).toContain(`gleaner_quota_used{client_id="${CLIENT}",limit="pages_per_day"} 3`);
  });

  test('Job API realtime and push-pull: the same quota, headers, and a 429 body with message', async () => {
    await gw.server.store.quotas.setQuota(CLIENT, { pages_per_day: null, pages_per_month: 4 });
    const ok = await post(realtime, '/v1/queries', { source: 'universal', url: `${sim.origin}/static` });
    expect(ok.status).toBe(200);
    expect([ok.headers.get('x-ratelimit-limit'), ok.headers.get('x-ratelimit-remaining'), ok.headers.get('x-ratelimit-resource')]).toEqual(['4', '0', 'pages_per_month']);
    await chargedPages(4);
    const refused = await post(realtime, '/v1/queries', { source: 'universal', url: `${sim.origin}/static` });
    expect(refused.status).toBe(429);
    expect(refused.body.title).toBe('QUOTA_EXCEEDED');
    expect(refused.body.message).toBe(refused.body.detail);
    expect(refused.body.quota.limit).toBe('pages_per_month');
    const pushed = await post(data, '/v1/queries', { source: 'universal', url: `${sim.origin}/static` });
    expect(pushed.status).toBe(429);
    expect(pushed.headers.get('x-ratelimit-resource')).toBe('pages_per_month');
  });

  test('a batch that does not fit is refused whole', async () => {
    await gw.server.store.quotas.setQuota(CLIENT, { pages_per_month: 5 });
    const batch = await post(data, '/v1/queries/batch', { source: 'universal', url: [`${sim.origin}/static`, `${sim.origin}/static/next`] });
    expect(batch.status).toBe(429);
    expect(batch.body.detail).toContain('this request needs 2');
    expect(gw.server.store.jobs.queueDepth()).toBe(0);
  });

  test('rendered-page limits apply to rendering requests only', async () => {
    await gw.server.store.quotas.setQuota(CLIENT, { pages_per_month: null, rendered_per_day: 0 });
    const rendered = await postJson(gw, '/v1/scrape', { url: `${sim.origin}/static`, run_js: true });
    expect(rendered.status).toBe(429);
    expect(rendered.body.quota.limit).toBe('rendered_per_day');
    const plain = await postJson(gw, '/v1/scrape', { url: `${sim.origin}/static` });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('x-ratelimit-limit')).toBeNull();
  });

  test('requests per minute: the rate counts admitted requests only', async () => {
    await gw.server.store.quotas.setQuota(CLIENT, { rendered_per_day: null, requests_per_minute: 1 });
    const first = await postJson(gw, '/v1/scrape', { url: `${sim.origin}/static` });
    const second = await postJson(gw, '/v1/scrape', { url: `${sim.origin}/static` });
    // Both inside one minute, or the second opened a new window: either way, never two 200s
    // with remaining 0 in the same window.
    if (first.headers.get('x-ratelimit-reset') === second.headers.get('x-ratelimit-reset')) {
      expect([first.status, second.status]).toEqual([200, 429]);
      expect(second.body.quota.limit).toBe('requests_per_minute');
    } else {
      expect([first.status, second.status]).toEqual([200, 200]);
    }
    await gw.server.store.quotas.setQuota(CLIENT, { requests_per_minute: null });
    expect(gw.server.store.quotas.quotaOf(CLIENT)).toBeUndefined();
  });
});
