/**
 * The retry column of the spec, against a scripted HTTP server on port 0 (a real server that
 * answers a queue of statuses): 408, 429 (concurrency) and 5xx are retried with backoff, a
 * Retry-After is honoured; 4xx, 429 QUOTA_EXCEEDED and 501 never are; attempts are bounded.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { backoffMs, DEFAULT_RETRY, retryAfterMs } from '../src/retry.js';
import { Gleaner, GleanerApiError } from '../src/index.js';

type Scripted = { status: number; title?: string; headers?: Record<string, string> };
let server: Server;
let origin = '';
let script: Scripted[] = [];
let hits: number[] = [];

const problem = (status: number, title: string) => JSON.stringify({ type: 'urn:x', title, status, detail: title, instance: 'x', metadata: { request_id: '1', timestamp: 1 } });

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(Date.now());
    req.resume();
    const next = script.shift() ?? { status: 200 };
    if (next.status === 200) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ status: 200, results: [], params: {}, metadata: { request_id: '1', timestamp: 1 } }));
    }
    res.writeHead(next.status, { 'content-type': 'application/problem+json', ...next.headers });
    res.end(problem(next.status, next.title ?? 'INTERNAL_ERROR'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function attempt(statuses: Scripted[], retry = {}): Promise<{ hits: number; error?: GleanerApiError }> {
  script = [...statuses];
  hits = [];
  const g = new Gleaner({ baseUrl: origin, apiKey: 'k', retry: { baseMs: 10, maxMs: 40, ...retry } });
  try {
    await g.scrape('universal', { url: 'http://example.com/' });
    return { hits: hits.length };
  } catch (error) {
    return { hits: hits.length, error: error as GleanerApiError };
  }
}

describe('retries follow the retry column', () => {
  test('503, 500 and 408 are retried, then the answer is returned', async () => {
    expect(await attempt([{ status: 503, title: 'SERVICE_UNAVAILABLE' }, { status: 500 }, { status: 408, title: 'REQUEST_FAILED_SCRAPE_TIMEOUT' }])).toEqual({ hits: 4 });
  });

  test('429 from the concurrency limit is retried, waiting at least its Retry-After', async () => {
    const r = await attempt([{ status: 429, title: 'TOO_MANY_REQUESTS', headers: { 'retry-after': '1' } }]);
    expect(r).toEqual({ hits: 2 });
    expect(hits[1] - hits[0]).toBeGreaterThanOrEqual(990);
  });

  test.each([
    [400, 'VALIDATION_ERROR'],
    [403, 'FORBIDDEN'],
    [404, 'NOT_FOUND'],
    [413, 'PAYLOAD_TOO_LARGE'],
    [429, 'QUOTA_EXCEEDED'],
    [501, 'LLM_NOT_CONFIGURED'],
  ])('%i %s is never retried', async (status, title) => {
    const r = await attempt([{ status, title }]);
    expect([r.hits, r.error?.status, r.error?.code]).toEqual([1, status, title]);
  });

  test('attempts are bounded: the last answer is thrown', async () => {
    const r = await attempt([{ status: 503 }, { status: 502 }, { status: 500, title: 'REQUEST_FAILED_AFTER_MANY_RETRIES' }, { status: 200 }], { attempts: 3 });
    expect([r.hits, r.error?.status, r.error?.code]).toEqual([3, 500, 'REQUEST_FAILED_AFTER_MANY_RETRIES']);
  });

  test('a connection refused is retried like a 5xx', async () => {
    const g = new Gleaner({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k', retry: { attempts: 2, baseMs: 5 } });
    let calls = 0;
    const counting = new Gleaner({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k', retry: { attempts: 3, baseMs: 5 }, fetch: (i, init) => (calls++, fetch(i, init)) });
    await expect(g.scrapers()).rejects.toThrow();
    await expect(counting.scrapers()).rejects.toThrow();
    expect(calls).toBe(3);
  });
});

describe('backoff', () => {
  test('full jitter under a doubling ceiling, capped, with a floor', () => {
    const policy = { ...DEFAULT_RETRY, baseMs: 100, maxMs: 1000 };
    expect([0, 1, 2, 3, 4, 5].map((n) => backoffMs(n, policy, 0, () => 0.999))).toEqual([99, 199, 399, 799, 999, 999]);
    expect([backoffMs(3, policy, 0, () => 0), backoffMs(3, policy, 1500, () => 0.5)]).toEqual([0, 1500]);
    expect([retryAfterMs('2'), retryAfterMs(null), retryAfterMs('soon'), retryAfterMs(new Date(10_000).toUTCString(), 4_000)]).toEqual([2000, 0, 0, 6000]);
  });
});
