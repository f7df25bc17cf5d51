/**
 * Search engines through the API with GLEANER_TARGETS pointing at the simulator: pagination,
 * parameters reaching the upstream URL, `/v1/search` merge and ranking, one engine down, all
 * engines down. Expected rankings are computed here from the simulator's document universe.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSimulator, type Simulator } from '../sites/server.js';
import { se1Docs, se2Docs, type Doc } from '../sites/se-data.js';
import { postJson, startGateway, type TestGateway } from '../helpers/gateway.js';

let sim: Simulator;
let gw: TestGateway;

beforeAll(async () => {
  sim = await startSimulator();
  gw = await startGateway({ targets: { se1: { baseUrl: `${sim.origin}/se1` }, se2: { baseUrl: `${sim.origin}/se2` } } });
});
afterAll(async () => {
  await gw?.close();
  await sim?.close();
});

/** The engine-weighted position score of the merge, recomputed independently (se1 1, se2 0.9). */
function expectedOrder(query: string): string[] {
  const score = new Map<string, { s: number; best: number; first: number }>();
  let seen = 0;
  const add = (docs: Doc[], weight: number) =>
    docs.forEach((d, i) => {
      const e = score.get(d.url) ?? { s: 0, best: Infinity, first: seen++ };
      e.s += weight / (i + 1);
      e.best = Math.min(e.best, i + 1);
      score.set(d.url, e);
    });
  add(se1Docs(query, 1, 10), 1);
  add(se2Docs(query, 1), 0.9);
  return [...score.entries()].sort(([, a], [, b]) => b.s - a.s || a.best - b.best || a.first - b.first).map(([url]) => url);
}

/** Simulator hits whose decoded path+query starts with `prefix`. */
function hitsFor(prefix: string): string[] {
  return [...sim.hits.keys()].map((k) => decodeURIComponent(k.replace(/\+/g, ' '))).filter((k) => k.startsWith(prefix));
}

describe('dedicated se1/se2 routes', () => {
  test('pages/start_page: one fetch, one result and one page number per page', async () => {
    const a = await postJson(gw, '/v1/scrape/se1/search', { query: 'paging probe', pages: 3, start_page: 2, output: ['json'] });
    expect(a.status).toBe(200);
    expect(a.body.results.map((r: any) => r.metadata.page)).toEqual([2, 3, 4]);
    expect(hitsFor('/se1/search?q=paging probe').sort()).toEqual([
      '/se1/search?q=paging probe&start=10',
      '/se1/search?q=paging probe&start=20',
      '/se1/search?q=paging probe&start=30',
    ]);
    const titles = a.body.results[0].json.organic.map((o: any) => o.url);
    expect(titles).toEqual(se1Docs('paging probe', 2, 10).map((d) => d.url));
    expect(a.body.results[0].metadata.parse_status).toBe('parsed');
  });

  test('verbatim and mapped parameters reach the upstream URL as sent', async () => {
    const a = await postJson(gw, '/v1/scrape/se1/search', {
      query: 'verbatim probe',
      tbm: 'nws',
      tbs: 'qdr:d',
      udm: '14',
      cr: 'countryDE',
      nfpr: '1',
      filter: 0,
      locale: 'de_DE',
      location: 'AT',
      domain: 'de',
      safe_search: true,
    });
    expect(a.status).toBe(200);
    const [hit] = [...sim.hits.keys()].filter((k) => k.startsWith('/se1/search?q=verbatim'));
    const q = new URL(`http://x${hit}`).searchParams;
    expect(Object.fromEntries(q)).toEqual({
      q: 'verbatim probe',
      domain: 'de',
      hl: 'de-DE',
      gl: 'at',
      safe: 'active',
      tbm: 'nws',
      tbs: 'qdr:d',
      udm: '14',
      cr: 'countryDE',
      nfpr: '1',
      filter: '0',
    });
  });

  test('se2 search is parsed', async () => {
    const a = await postJson(gw, '/v1/scrape/se2/search', { query: 'second engine', output: ['json'] });
    expect(a.body.results[0].json.organic.map((o: any) => o.url)).toEqual(se2Docs('second engine', 1).map((d) => d.url));
  });
});

describe('POST /v1/search', () => {
  test('merges, de-duplicates and ranks both engines; spec 2.2 exactly', async () => {
    const query = 'merge probe';
    const a = await postJson(gw, '/v1/search', { query, max_results: 12 });
    expect(a.status).toBe(200);
    expect(Object.keys(a.body).sort()).toEqual(['metadata', 'params', 'related_questions', 'related_searches', 'results', 'state']);
    expect(a.body.state).toBe('done');
    expect(a.body.params).toEqual({ query, location: null, max_results: 12 });
    expect(a.body.metadata).toEqual({ timestamp: expect.any(Number), request_id: expect.stringMatching(/^\d{19}$/) });
    expect(a.body.results.map((r: any) => r.url)).toEqual(expectedOrder(query).slice(0, 12));
    expect(a.body.results.map((r: any) => r.metadata.position)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    const byUrl = new Map([...se1Docs(query, 1, 10), ...se2Docs(query, 1)].map((d) => [d.url, d]));
    // The first result carries the featured answer as its outline (the parser's snippet for it).
    expect(a.body.results[0]).toEqual({ title: byUrl.get(a.body.results[0].url)!.title, outline: expect.stringMatching(/merge probe/), url: a.body.results[0].url, metadata: { position: 1 } });
    expect(a.body.results[1]).toEqual({ title: byUrl.get(a.body.results[1].url)!.title, outline: byUrl.get(a.body.results[1].url)!.snippet, url: a.body.results[1].url, metadata: { position: 2 } });
    expect(a.body.related_searches.length).toBeGreaterThan(0);
    expect(new Set(a.body.related_searches.map((r: any) => r.query)).size).toBe(a.body.related_searches.length);
  });

  test('max_results defaults to 10', async () => {
    const a = await postJson(gw, '/v1/search', { query: 'default cap' });
    expect(a.body.results).toHaveLength(10);
    expect(a.body.params.max_results).toBe(10);
  });

  test('one engine down still answers done with the other engine ranking', async () => {
    const half = await startGateway({ targets: { se1: { baseUrl: `${sim.origin}/se1` }, se2: { baseUrl: 'http://127.0.0.1:9/se2' } } });
    try {
      const a = await postJson(half, '/v1/search', { query: 'half down', max_results: 5 });
      expect([a.status, a.body.state]).toEqual([200, 'done']);
      expect(a.body.results.map((r: any) => r.url)).toEqual(se1Docs('half down', 1, 10).slice(0, 5).map((d) => d.url));
    } finally {
      await half.close();
    }
  });

  test('all engines down: 500 REQUEST_FAILED_AFTER_MANY_RETRIES, faulted, with params', async () => {
    const a = await postJson(gw, '/v1/search', { query: 'down __fail__', location: 'DE' });
    expect(a.status).toBe(500);
    expect(a.headers.get('content-type')).toBe('application/problem+json');
    expect(a.body).toMatchObject({
      title: 'REQUEST_FAILED_AFTER_MANY_RETRIES',
      status: 500,
      state: 'faulted',
      params: { query: 'down __fail__', location: 'DE', max_results: 10 },
      detail: 'Every search engine failed.',
    });
  });

  test('neither engine configured: 501 TARGET_NOT_CONFIGURED before anything is charged, like a dedicated route', async () => {
    const none = await startGateway({ targets: {} });
    try {
      const a = await postJson(none, '/v1/search', { query: 'nothing configured' });
      const dedicated = await postJson(none, '/v1/scrape/se1/search', { query: 'nothing configured' });
      expect([a.status, a.headers.get('content-type'), a.body.title]).toEqual([501, 'application/problem+json', 'TARGET_NOT_CONFIGURED']);
      expect(a.body.detail).toMatch(/GLEANER_TARGETS/);
      expect([dedicated.status, dedicated.body.title]).toEqual([501, 'TARGET_NOT_CONFIGURED']);
      expect(await none.server.store.usage.rows(1)).toEqual([]);
    } finally {
      await none.close();
    }
  });
});
