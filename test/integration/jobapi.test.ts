/**
 * The Job API through its two real listeners: realtime and push-pull, batch limits, status
 * and results, callbacks to a real receiver, bucket delivery, and /v2/stats figures that match
 * the jobs just run. The gateway is fresh for this file, so the ledger starts empty.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSimulator, type Simulator } from '../sites/server.js';
import { until } from '../helpers/wait.js';
import { call, startGateway, TEST_PASSWORD, TEST_USER, type HttpAnswer, type TestGateway } from '../helpers/gateway.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { startS3Server, type S3Server } from '../helpers/s3.js';
import { startProxy, type TestProxy } from '../helpers/proxy.js';

let sim: Simulator;
let gw: TestGateway;
let hooks: Receiver;
let s3: S3Server;
let proxy: TestProxy;
let realtime: string;
let data: string;
const basic = { authorization: `Basic ${Buffer.from(`${TEST_USER}:${TEST_PASSWORD}`).toString('base64')}`, 'content-type': 'application/json' };

beforeAll(async () => {
  [sim, hooks, s3, proxy] = await Promise.all([
    startSimulator(),
    startReceiver(),
    startS3Server({ keys: { AKJOB: 'job-secret' }, buckets: ['jobapi'] }),
    startProxy(),
  ]);
  gw = await startGateway({
    targets: { se1: { baseUrl: `${sim.origin}/se1` }, se2: { baseUrl: `${sim.origin}/se2` } },
    storage: { s3: { accessKeyId: 'AKJOB', secretAccessKey: 'job-secret', endpoint: s3.endpoint, region: 'us-east-1', buckets: { '*': ['jobapi/out'] } } },
    deliveryBaseMs: 20,
    deliveryMaxMs: 100,
    proxies: { de: [proxy.url] },
  });
  realtime = `http://127.0.0.1:${gw.server.realtimePort}`;
  data = `http://127.0.0.1:${gw.server.dataPort}`;
});
afterAll(async () => {
  await gw?.close();
  await Promise.all([sim?.close(), hooks?.close(), s3?.close(), proxy?.close()]);
});

function post(base: string, path: string, body: unknown, headers: Record<string, string> = basic): Promise<HttpAnswer> {
  return call(base + path, { method: 'POST', headers, body: JSON.stringify(body) });
}

/** The way users of this API write clients: submit, poll `_links.self`, fetch `_links.results`. */
async function runJob(body: Record<string, unknown>): Promise<{ job: any; results: any }> {
  const submitted = await post(data, '/v1/queries', body);
  expect(submitted.status).toBe(200);
  const self = submitted.body._links.find((l: any) => l.rel === 'self').href;
  const job = submitted.body.status !== 'pending' ? submitted.body : await until(async () => {
    const polled = (await call(self, { headers: basic })).body;
    return polled.status !== 'pending' && polled;
  }, `job ${submitted.body.id} finished`);
  const resultsHref = job._links.find((l: any) => l.rel === 'results').href;
  const results = job.status === 'done' ? (await call(resultsHref, { headers: basic })).body : undefined;
  return { job, results };
}

describe('authentication', () => {
  test('no credentials or a wrong password: 401 with an empty body on both hosts', async () => {
    const a = await post(realtime, '/v1/queries', { source: 'universal', url: `${sim.origin}/static` }, { 'content-type': 'application/json' });
    expect([a.status, a.text, a.headers.get('www-authenticate')]).toEqual([401, '', 'Basic realm="gleaner"']);
    const wrong = { ...basic, authorization: `Basic ${Buffer.from(`${TEST_USER}:nope`).toString('base64')}` };
    const b = await call(`${data}/v2/stats`, { headers: wrong });
    expect([b.status, b.text]).toEqual([401, '']);
  });
});

describe('realtime', () => {
  test('universal: the sync result of spec 2.6', async () => {
    const url = `${sim.origin}/static`;
    const a = await post(realtime, '/v1/queries', { source: 'universal', url });
    expect(a.status).toBe(200);
    const web = await call(`${gw.url}/v1/scrape`, { method: 'POST', headers: { ...gw.auth, 'content-type': 'application/json' }, body: JSON.stringify({ url }) });
    expect(a.body.results).toEqual([
      {
        content: web.body.results[0].html,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
        updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
        id: `${a.body.job.id}-1`,
        page: 1,
        url,
        job_id: a.body.job.id,
        status_code: 200,
      },
    ]);
  });

  test('a dedicated source with pages: one result per page', async () => {
    const a = await post(realtime, '/v1/queries', { source: 'se1_search', query: 'trail shoes', pages: 2 });
    expect(a.status).toBe(200);
    expect(a.body.results.map((r: any) => [r.page, r.status_code])).toEqual([
      [1, 200],
      [2, 200],
    ]);
    expect(typeof a.body.results[0].content).toBe('string');
  });

  test('unknown sources and bad values are 400 problem documents with Job API pointers', async () => {
    const a = await post(realtime, '/v1/queries', { source: 'nope', url: 'https://example.com/' });
    expect([a.status, a.headers.get('content-type'), a.body.title]).toEqual([400, 'application/problem+json', 'VALIDATION_ERROR']);
    expect(a.body.errors).toEqual([{ pointer: '#/source', detail: 'unknown source "nope"' }]);
    const b = await post(realtime, '/v1/queries', { source: 'universal', url: 'https://example.com/', geo_location: 'Atlantis', render: 'svg', extra: 1 });
    // Unknown top-level keys are ignored (jobapi-compat.test.ts); bad values still fail.
    expect(b.body.errors.map((e: any) => e.pointer).sort()).toEqual(['#/render']);
    const c = await post(realtime, '/v1/queries', { source: 'universal', url: 'https://example.com/', geo_location: 'Atlantis' });
    expect(c.body.errors.map((e: any) => e.pointer)).toEqual(['#/geo_location']);
    const d = await post(realtime, '/v1/queries', { source: 'se1_search', query: 'x', context: [{ key: 'colour', value: 'red' }] });
    expect(d.body.errors).toEqual([{ pointer: '#/context/0/key', detail: 'source se1_search has no parameter "colour"' }]);
  });
});

describe('push-pull', () => {
  test('job object with defaults and absolute _links; poll, then results', async () => {
    const url = `${sim.origin}/static?pp=1`;
    const submitted = await post(data, '/v1/queries', { source: 'universal', url, client_notes: 'n1' });
    expect(submitted.body).toEqual({
      source: 'universal',
      url,
      geo_location: null,
      render: null,
      parse: false,
      callback_url: null,
      storage_type: null,
      storage_url: null,
      domain: null,
      locale: null,
      limit: null,
      pages: 1,
      start_page: 1,
      subdomain: null,
      user_agent_type: 'desktop',
      context: [],
      client_notes: 'n1',
      content_encoding: null,
      id: expect.stringMatching(/^\d{19}$/),
      client_id: 1,
      status: 'pending',
      statuses: 0,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      _links: [
        { rel: 'self', href: `${data}/v1/queries/${submitted.body.id}`, method: 'GET' },
        { rel: 'results', href: `${data}/v1/queries/${submitted.body.id}/results`, method: 'GET' },
      ],
    });
    const { job, results } = await runJob({ source: 'universal', url });
    expect([job.status, job.statuses]).toEqual(['done', 200]);
    expect(results.results.map((r: any) => [r.page, r.url, r.status_code, r.job_id])).toEqual([[1, url, 200, job.id]]);
  });

  test('results before done and unknown ids are 404', async () => {
    const slow = await post(data, '/v1/queries', { source: 'universal', url: `${sim.origin}/slow?ms=800&pp=2` });
    const early = await call(`${data}/v1/queries/${slow.body.id}/results`, { headers: basic });
    expect([early.status, early.body.title]).toEqual([404, 'NOT_FOUND']);
    const unknown = await call(`${data}/v1/queries/1234567890123456789`, { headers: basic });
    expect(unknown.status).toBe(404);
  });

  test('batch: 5,000 values accepted, 5,001 refused with 413', async () => {
    const urls = Array.from({ length: 5001 }, (_, i) => `${sim.origin}/static?b=${i}`);
    // Its own account: fair scheduling keeps the other tests' jobs moving past this burst.
    const bulk = await gw.server.store.accounts.createAccount({ name: 'bulk' });
    await gw.server.store.accounts.createUser(bulk.clientId, 'bulk', 'bulk-password');
    const headers = { ...basic, authorization: `Basic ${Buffer.from('bulk:bulk-password').toString('base64')}` };
    const refused = await post(data, '/v1/queries/batch', { source: 'universal', url: urls }, headers);
    expect([refused.status, refused.body.title]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    const accepted = await post(data, '/v1/queries/batch', { source: 'universal', url: urls.slice(0, 5000) }, headers);
    expect(accepted.status).toBe(200);
    expect(accepted.body.queries).toHaveLength(5000);
    expect(accepted.body.queries[4999].url).toBe(urls[4999]);
    expect(new Set(accepted.body.queries.map((q: any) => q.id)).size).toBe(5000);
    expect((await gw.server.store.jobs.get(accepted.body.queries[4999].id))?.status).toMatch(/^(pending|running|done)$/);
  }, 60_000);

  test('callback: one POST per job with the job object (status done, _links)', async () => {
    const before = hooks.requests.length;
    const submitted = await post(data, '/v1/queries/batch', { source: 'universal', url: [`${sim.origin}/static?cb=1`, `${sim.origin}/static?cb=2`], callback_url: hooks.url });
    const ids = submitted.body.queries.map((q: any) => q.id);
    const received = await hooks.waitForRequests(before + 2);
    const bodies = received.slice(before).map((r) => JSON.parse(r.body.toString()));
    expect(bodies.map((b) => b.id).sort()).toEqual([...ids].sort());
    for (const b of bodies) {
      expect(b).toMatchObject({ status: 'done', statuses: 200, source: 'universal', callback_url: hooks.url, priority: 0, origin: 'api', persist: true });
      expect(b._links).toEqual([
        { rel: 'self', href: `${data}/v1/queries/${b.id}`, method: 'GET' },
        { rel: 'results', href: `${data}/v1/queries/${b.id}/results`, method: 'GET' },
      ]);
    }
  }, 60_000);

  test('storage_type and storage_url deliver the results to the bucket', async () => {
    const submitted = await post(data, '/v1/queries', { source: 'universal', url: `${sim.origin}/static?st=1`, storage_type: 's3', storage_url: 's3://jobapi/out' });
    const id = submitted.body.id;
    const object = await until(() => s3.getObject('jobapi', `out/${id}.json`), `the results of job ${id} in the bucket`);
    const stored = JSON.parse(object.body.toString());
    expect(stored.results.map((r: any) => [r.job_id, r.page, r.status_code])).toEqual([[id, 1, 200]]);
  }, 60_000);
});

describe('usage statistics', () => {
  test('/v2/stats counts exactly the jobs just run, by mode, render, geo and parse; filters and grouping', async () => {
    const acct = await gw.server.store.accounts.createAccount({ name: 'stats' });
    await gw.server.store.accounts.createUser(acct.clientId, 'stats', 'stats-password');
    const headers = { ...basic, authorization: `Basic ${Buffer.from('stats:stats-password').toString('base64')}` };
    const rt = (body: unknown) => post(realtime, '/v1/queries', body, headers);
    expect((await rt({ source: 'universal', url: `${sim.origin}/static?s=1` })).status).toBe(200);
    expect((await rt({ source: 'universal', url: `${sim.origin}/static?s=2`, geo_location: 'DE' })).status).toBe(200);
    expect((await rt({ source: 'universal', url: `${sim.origin}/static?s=3`, render: 'html' })).status).toBe(200);
    expect((await rt({ source: 'se1_search', query: 'stats query', parse: true })).status).toBe(200);
    const faulted = await rt({ source: 'universal', url: `${sim.origin}/status?code=500&s=5` });
    expect(faulted.status).toBe(500);
    const pushed = await post(data, '/v1/queries', { source: 'universal_ecommerce', url: `${sim.origin}/static?s=6` }, headers);
    await until(async () => (await call(`${data}/v1/queries/${pushed.body.id}`, { headers })).body.status !== 'pending', `job ${pushed.body.id} finished`);
    // The ledger write follows the job's completion by a moment: wait for its row.
    const all = await until(async () => {
      const stats = await call(`${data}/v2/stats`, { headers });
      return stats.body.data?.products?.some((p: any) => p.title === 'ecommerce_scraper_api') && stats;
    }, 'the pushed job counted in /v2/stats');
    expect(all.status).toBe(200);
    expect(all.body.meta).toEqual({ group_by: null, date_from: null, date_to: null, source: null, product: null });
    const byTitle = Object.fromEntries(all.body.data.products.map((p: any) => [p.title, p]));
    expect(Object.keys(byTitle).sort()).toEqual(['ecommerce_scraper_api', 'serp_scraper_api', 'web_scraper_api']);
    expect(byTitle.web_scraper_api).toMatchObject({
      all_count: 3,
      mode_realtime_count: 3,
      mode_callback_count: 0,
      mode_superapi_count: 0,
      render_count: 1,
      geo_location_count: 1,
      contenttype_parsed_count: 0,
      contenttype_html_count: 3,
    });
    expect(byTitle.web_scraper_api.sources).toEqual([expect.objectContaining({ title: 'universal', parsed: false, all_count: 3 })]);
    expect(byTitle.serp_scraper_api).toMatchObject({ all_count: 1, contenttype_parsed_count: 1, mode_realtime_count: 1 });
    expect(byTitle.serp_scraper_api.sources).toEqual([expect.objectContaining({ title: 'se1_search', parsed: true, all_count: 1 })]);
    expect(byTitle.ecommerce_scraper_api).toMatchObject({ all_count: 1, mode_callback_count: 1 });
    expect(byTitle.web_scraper_api.average_response_time).toBeGreaterThan(0);
    expect(byTitle.web_scraper_api.response_traffic).toBeGreaterThan(0);

    const today = new Date().toISOString().slice(0, 10);
    const filtered = await call(`${data}/v2/stats?source=se1_search&group_by=day&date_from=${today}&date_to=${today}`, { headers });
    expect(filtered.body.meta).toEqual({ group_by: 'day', date_from: today, date_to: today, source: 'se1_search', product: null });
    expect(filtered.body.data.products.map((p: any) => [p.title, p.all_count])).toEqual([['serp_scraper_api', 1]]);
    expect(filtered.body.data.periods.map((p: any) => [p.period, p.products.length])).toEqual([[today, 1]]);
    const byProduct = await call(`${data}/v2/stats?product=ecommerce_scraper_api&group_by=month`, { headers });
    expect(byProduct.body.data.products.map((p: any) => p.title)).toEqual(['ecommerce_scraper_api']);
    expect(byProduct.body.data.periods[0].period).toBe(today.slice(0, 7));
    const past = await call(`${data}/v2/stats?date_to=2000-01-01`, { headers });
    expect(past.body.data.products).toEqual([]);
    const bad = await call(`${data}/v2/stats?group_by=week`, { headers });
    expect([bad.status, bad.body.errors]).toEqual([400, [{ pointer: '#/group_by', detail: 'group_by must be day, month or year' }]]);
  }, 60_000);
});
