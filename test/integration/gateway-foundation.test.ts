/**
 * The foundation through real HTTP: the gateway on port 0, LMDB in a temp folder. One test per
 * rule of the foundation issue, asserting status, content type and the problem body.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { call, postJson, startGateway, TEST_PASSWORD, TEST_USER, type HttpAnswer, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;

beforeAll(async () => {
  gw = await startGateway({ maxBodyBytes: 64 * 1024, maxBatch: 3 });
});
afterAll(() => gw?.close());

const ID = /^\d{19}$/;

function expectProblem(answer: HttpAnswer, status: number, title: string, extra: Record<string, unknown> = {}): void {
  expect(answer.status).toBe(status);
  expect(answer.headers.get('content-type')).toBe('application/problem+json');
  expect(answer.body).toEqual({
    type: `urn:gleaner:problem:${title.toLowerCase().replace(/_/g, '-')}`,
    title,
    status,
    detail: expect.any(String),
    instance: expect.stringMatching(/^urn:gleaner:request:\d{19}$/),
    metadata: { request_id: expect.stringMatching(ID), timestamp: expect.any(Number) },
    ...extra,
  });
  const now = Math.floor(Date.now() / 1000);
  expect(Math.abs(answer.body.metadata.timestamp - now)).toBeLessThanOrEqual(2);
}

describe('authentication', () => {
  test('a missing key gets 401 with an empty body', async () => {
    const a = await postJson(gw, '/v1/search', { query: 'x' }, {});
    expect([a.status, a.text]).toEqual([401, '']);
  });

  test('an unknown key gets 401 with an empty body', async () => {
    const a = await postJson(gw, '/v1/search', { query: 'x' }, { authorization: 'Bearer not-a-key-at-all-0000' });
    expect([a.status, a.text]).toEqual([401, '']);
  });

  test('a revoked key gets 401 at once', async () => {
    const account = await gw.server.store.accounts.createAccount({ name: 'revoke-me' });
    const { key, info } = await gw.server.store.accounts.createKey(account.clientId, 'temp');
    const before = await call(`${gw.url}/v1/scrapers`, { headers: { authorization: `Bearer ${key}` } });
    expect(before.status).toBe(200);
    expect(await gw.server.store.accounts.revokeKey(info.id)).toBe(true);
    const after = await call(`${gw.url}/v1/scrapers`, { headers: { authorization: `Bearer ${key}` } });
    expect([after.status, after.text]).toEqual([401, '']);
  });

  test('a key without entitlement to the route gets 403', async () => {
    const account = await gw.server.store.accounts.createAccount({ name: 'se1-only', entitlements: ['se1/*'] });
    const { key } = await gw.server.store.accounts.createKey(account.clientId);
    const a = await postJson(gw, '/v1/scrape', { url: 'http://127.0.0.1/' }, { authorization: `Bearer ${key}` });
    expectProblem(a, 403, 'FORBIDDEN', { detail: 'This account is not entitled to POST /v1/scrape.' });
  });
});

describe('routing', () => {
  test('an unknown route is 404 NOT_FOUND', async () => {
    const a = await call(`${gw.url}/v1/nope`, { headers: gw.auth });
    expectProblem(a, 404, 'NOT_FOUND', { detail: 'No route GET /v1/nope.' });
  });

  test('/v1/scrape/batch does not exist', async () => {
    const a = await postJson(gw, '/v1/scrape/batch', { url: ['http://a.test/'] });
    expectProblem(a, 404, 'NOT_FOUND', { detail: 'No route POST /v1/scrape/batch.' });
  });

  test('a GET on a POST route is 405 with Allow', async () => {
    const a = await call(`${gw.url}/v1/scrape`, { headers: gw.auth });
    expectProblem(a, 405, 'METHOD_NOT_ALLOWED', { detail: 'Use POST, OPTIONS on /v1/scrape.', allow: ['POST', 'OPTIONS'] });
    expect(a.headers.get('allow')).toBe('POST, OPTIONS');
  });

  test('an unknown job id is 404', async () => {
    const a = await call(`${gw.url}/v1/async/scrape/1234567890123456789`, { headers: gw.auth });
    expect(a.status).toBe(404);
  });
});

describe('bodies', () => {
  test('a body that is not JSON is 400 MALFORMED_JSON', async () => {
    const a = await postJson(gw, '/v1/search', '{"query": ');
    expectProblem(a, 400, 'MALFORMED_JSON');
    expect(a.body.detail).toMatch(/^The request body is not valid JSON: /);
  });

  test('a declared body over the cap is 413 before it is read', async () => {
    const a = await postJson(gw, '/v1/search', { query: 'x'.repeat(70 * 1024) });
    expectProblem(a, 413, 'PAYLOAD_TOO_LARGE', { detail: 'The request body exceeds 65536 bytes.' });
  });

  test('a streamed body over the cap is 413 while streaming', async () => {
    const chunk = new TextEncoder().encode(' '.repeat(16 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 8) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const a = await call(`${gw.url}/v1/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...gw.auth },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expectProblem(a, 413, 'PAYLOAD_TOO_LARGE');
  });

  test('a batch above the maximum is 413', async () => {
    const a = await postJson(gw, '/v1/async/scrape/batch', { url: ['http://a.test/1', 'http://a.test/2', 'http://a.test/3', 'http://a.test/4'] });
    expectProblem(a, 413, 'PAYLOAD_TOO_LARGE', { detail: 'A batch takes at most 3 values; url has 4.' });
  });
});

describe('targets', () => {
  test('a dedicated route whose target has no upstream configured is 501 TARGET_NOT_CONFIGURED, on both APIs, before anything is queued', async () => {
    // This gateway's GLEANER_TARGETS is empty.
    const detail = 'No upstream is configured for mkt1 on this server: the operator adds {"mkt1": {"baseUrl": "https://..."}} to the GLEANER_TARGETS file.';
    expectProblem(await postJson(gw, '/v1/scrape/mkt1/product', { query: 'B0SIMLMP01' }), 501, 'TARGET_NOT_CONFIGURED', { detail });
    expectProblem(await postJson(gw, '/v1/async/scrape/mkt1/product', { query: 'B0SIMLMP01' }), 501, 'TARGET_NOT_CONFIGURED', { detail });
    const basic = `Basic ${Buffer.from(`${TEST_USER}:${TEST_PASSWORD}`).toString('base64')}`;
    const r = await call(`${gw.server.dataUrl}/v1/queries`, { method: 'POST', headers: { authorization: basic, 'content-type': 'application/json' }, body: JSON.stringify({ source: 'mkt1_product', query: 'B0SIMLMP01' }) });
    expect([r.status, r.body.title, r.body.detail]).toEqual([501, 'TARGET_NOT_CONFIGURED', detail]);
  });

  test('a route by URL needs no target entry: the URL names the upstream (here a closed port, so the fetch fails)', async () => {
    const a = await postJson(gw, '/v1/scrape/mkt1', { url: 'http://127.0.0.1:9/dp/B0SIMLMP01' });
    expect([a.status, a.body.title]).toEqual([500, 'REQUEST_FAILED_AFTER_MANY_RETRIES']);
  });
});

describe('validation', () => {
  const pointers = (a: HttpAnswer): string[] => a.body.errors.map((e: { pointer: string }) => e.pointer).sort();

  test('search bounds: every failing field is listed', async () => {
    const a = await postJson(gw, '/v1/search', { query: '', max_results: 50, location: 'Germany' });
    expectProblem(a, 400, 'VALIDATION_ERROR', { errors: expect.any(Array) });
    expect(pointers(a)).toEqual(['#/location', '#/max_results', '#/query']);
  });

  test('unknown parameters are rejected', async () => {
    const a = await postJson(gw, '/v1/scrape', { url: 'https://example.com/', colour: 'red' });
    expect(a.status).toBe(400);
    expect(pointers(a)).toEqual(['#/colour']);
  });

  test('prompt and schema together', async () => {
    const a = await postJson(gw, '/v1/scrape', { url: 'https://example.com/', output: ['json'], json: { prompt: 'p', schema: { type: 'object' } } });
    expect(a.status).toBe(400);
    expect(pointers(a)).toEqual(['#/json']);
  });

  test('screenshot needs run_js', async () => {
    const a = await postJson(gw, '/v1/scrape', { url: 'https://example.com/', output: ['screenshot'] });
    expect(pointers(a)).toEqual(['#/output']);
  });

  test('json output needs a json object on the generic route', async () => {
    const a = await postJson(gw, '/v1/scrape', { url: 'https://example.com/', output: ['json'] });
    expect(pointers(a)).toEqual(['#/json']);
  });

  test('se1/aimode requires run_js true', async () => {
    const a = await postJson(gw, '/v1/scrape/se1/aimode', { query: 'why' });
    expect(pointers(a)).toEqual(['#/run_js']);
  });

  test('a malformed callback_url and a bad storage type on an async route', async () => {
    const a = await postJson(gw, '/v1/async/scrape', { url: 'https://example.com/', callback_url: 'not a url', storage: { type: 'ftp', url: 'x' } });
    expect(pointers(a)).toEqual(['#/callback_url', '#/storage/type']);
  });

  test('callback_url is refused on sync routes', async () => {
    const a = await postJson(gw, '/v1/scrape', { url: 'https://example.com/', callback_url: 'https://hook.test/' });
    expect(pointers(a)).toEqual(['#/callback_url']);
  });
});

describe('discovery', () => {
  test('GET /v1/scrapers lists sync, async and batch paths, not the collection route', async () => {
    const a = await call(`${gw.url}/v1/scrapers`, { headers: gw.auth });
    expect(a.status).toBe(200);
    const paths: string[] = a.body.scrapers;
    expect(paths).toContain('/v1/scrape');
    expect(paths).toContain('/v1/async/scrape/se1/search');
    expect(paths).toContain('/v1/async/scrape/batch/mkt1/product');
    expect(paths).toContain('/v1/async/scrape/llm1');
    expect(paths).not.toContain('/v1/scrape/llm1');
    expect(paths.some((p) => p.includes('{'))).toBe(false);
  });

  test('group_by=json_output_support groups the paths', async () => {
    const a = await call(`${gw.url}/v1/scrapers?group_by=json_output_support`, { headers: gw.auth });
    expect(Object.keys(a.body.scrapers).sort()).toEqual(['json_not_supported', 'json_supported', 'json_supported_only_with_prompt_or_schema']);
    expect(a.body.scrapers.json_supported_only_with_prompt_or_schema).toContain('/v1/scrape/se1/maps');
    expect(a.body.scrapers.json_supported).toContain('/v1/scrape/se1/search');
  });

  test('OPTIONS returns the example body; async paths add storage and callback_url', async () => {
    const sync = await call(`${gw.url}/v1/scrape`, { method: 'OPTIONS', headers: gw.auth });
    expect(sync.status).toBe(200);
    expect(sync.body).toEqual({
      url: 'string',
      output: ['string'],
      json: { prompt: 'string', schema: {} },
      location: 'string',
      device: 'string',
      run_js: 'bool',
    });
    const asyncBody = await call(`${gw.url}/v1/async/scrape`, { method: 'OPTIONS', headers: gw.auth });
    expect(asyncBody.body.callback_url).toBe('string');
    expect(asyncBody.body.storage).toEqual({ type: 'string', url: 'string' });
  });

  test('OPTIONS ?format=json_schema returns the route schema', async () => {
    const a = await call(`${gw.url}/v1/search?format=json_schema`, { method: 'OPTIONS', headers: gw.auth });
    expect(a.status).toBe(200);
    expect(a.body.type).toBe('object');
    expect(a.body.required).toEqual(['query']);
    expect(a.body.properties.max_results).toMatchObject({ type: 'integer', minimum: 1, maximum: 20, default: 10 });
  });

  test('the OpenAPI document covers every scrape path', async () => {
    const [doc, list] = await Promise.all([call(`${gw.url}/v1/openapi.json`), call(`${gw.url}/v1/scrapers`, { headers: gw.auth })]);
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    for (const path of list.body.scrapers as string[]) expect(Object.keys(doc.body.paths)).toContain(path);
  });
});

describe('operations', () => {
  test('healthz and readyz', async () => {
    expect((await call(`${gw.url}/healthz`)).body).toEqual({ status: 'ok' });
    const ready = await call(`${gw.url}/readyz`);
    expect([ready.status, ready.body.status, ready.body.checks]).toEqual([200, 'ready', { store: true, farm: true, accepting: true }]);
    expect(ready.body.browser).toBe(true);
    expect(typeof ready.body.ffmpeg).toBe('boolean');
  });

  test('metrics count requests by route and status', async () => {
    await call(`${gw.url}/v1/nope`);
    const a = await call(`${gw.url}/metrics`, { headers: gw.auth });
    expect(a.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(a.text).toMatch(/^gleaner_http_requests_total\{method="GET",route="unmatched",status="404"\} \d+$/m);
    expect(a.text).toMatch(/^gleaner_http_request_duration_seconds_bucket\{method="GET",route="\/healthz",le="\+Inf"\} \d+$/m);
    expect(a.text).toMatch(/^gleaner_farm_in_flight \d+$/m);
    // prom-client's process and runtime metrics: CPU, memory, GC pauses, event-loop lag.
    for (const name of ['process_cpu_seconds_total counter', 'process_resident_memory_bytes gauge', 'nodejs_gc_duration_seconds histogram', 'nodejs_eventloop_lag_seconds gauge', 'nodejs_eventloop_lag_p99_seconds gauge']) {
      expect(a.text).toContain(`# TYPE ${name}\n`);
    }
  });

  test('se1 with no GLEANER_TARGETS says what the operator must configure (not an internal error)', async () => {
    const a = await postJson(gw, '/v1/scrape/se1/search', { query: 'x' });
    expectProblem(a, 501, 'TARGET_NOT_CONFIGURED', { detail: 'No upstream is configured for se1 on this server: the operator adds {"se1": {"baseUrl": "https://..."}} to the GLEANER_TARGETS file.' });
  });
});
