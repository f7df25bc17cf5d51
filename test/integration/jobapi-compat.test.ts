/**
 * What existing Job API clients need (issue 14 part 5), through the real listeners: `message`
 * beside the problem fields in every error body, unknown top-level keys ignored and listed in
 * the job's `warnings` (the Web API stays strict), and source aliases from
 * GLEANER_SOURCE_ALIASES, counted in /v2/stats under the source they name.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checkAliases, resolveSource } from '../../core/jobapi/aliases.js';
import { startSimulator, type Simulator } from '../sites/server.js';
import { call, postJson, startGateway, TEST_PASSWORD, TEST_USER, type HttpAnswer, type TestGateway } from '../helpers/gateway.js';
import { until } from '../helpers/wait.js';

let sim: Simulator;
let gw: TestGateway;
let realtime: string;
let data: string;
const basic = { authorization: `Basic ${Buffer.from(`${TEST_USER}:${TEST_PASSWORD}`).toString('base64')}`, 'content-type': 'application/json' };

function post(base: string, path: string, body: unknown): Promise<HttpAnswer> {
  return call(base + path, { method: 'POST', headers: basic, body: typeof body === 'string' ? body : JSON.stringify(body) });
}

beforeAll(async () => {
  sim = await startSimulator();
  gw = await startGateway({ sourceAliases: { universal_web: 'universal', engine_one_search: 'se1_search' }, targets: { se1: { baseUrl: `${sim.origin}/se1` } } });
  realtime = `http://127.0.0.1:${gw.server.realtimePort}`;
  data = `http://127.0.0.1:${gw.server.dataPort}`;
});
afterAll(async () => {
  await gw?.close();
  await sim?.close();
});

describe('message in every Job API error body', () => {
  test('validation, malformed JSON, not found and method not allowed carry message = detail', async () => {
    const answers = [
      await post(realtime, '/v1/queries', { source: 'nope', url: 'https://example.com/' }),
      await post(data, '/v1/queries', '{"source":'),
      await call(`${data}/v1/queries/1234567890123456789`, { headers: basic }),
      await call(`${data}/v1/queries`, { method: 'DELETE', headers: basic }),
    ];
    expect(answers.map((a) => a.status)).toEqual([400, 400, 404, 405]);
    for (const a of answers) {
      expect(a.headers.get('content-type')).toBe('application/problem+json');
      expect(typeof a.body.message).toBe('string');
      expect(a.body.message).toBe(a.body.detail);
      expect(a.body.title).toMatch(/^[A-Z_]+$/);
    }
    expect(answers[0].body.errors).toEqual([{ pointer: '#/source', detail: 'unknown source "nope"' }]);
  });

  test('the Web API problem documents are unchanged (no message)', async () => {
    const a = await postJson(gw, '/v1/scrape', { url: 'https://example.com/', nope: 1 });
    expect(a.status).toBe(400);
    expect(a.body.message).toBeUndefined();
  });
});

describe('unknown top-level keys', () => {
  test('realtime: accepted, ignored, listed in the job warnings', async () => {
    const a = await post(realtime, '/v1/queries', { source: 'universal', url: `${sim.origin}/static`, client_version: '2.1', tags: ['a'] });
    expect(a.status).toBe(200);
    expect(a.body.job.warnings).toEqual([
      { pointer: '#/client_version', detail: 'unknown parameter; ignored' },
      { pointer: '#/tags', detail: 'unknown parameter; ignored' },
    ]);
    expect(a.body.job.client_version).toBeUndefined();
  });

  test('push-pull and batch: the warnings stay on the job', async () => {
    const a = await post(data, '/v1/queries', { source: 'universal', url: `${sim.origin}/static`, sdk: 'py' });
    expect(a.status).toBe(200);
    expect(a.body.warnings).toEqual([{ pointer: '#/sdk', detail: 'unknown parameter; ignored' }]);
    const status = await call(`${data}/v1/queries/${a.body.id}`, { headers: basic });
    expect(status.body.warnings).toEqual(a.body.warnings);
    const b = await post(data, '/v1/queries/batch', { source: 'universal', url: [`${sim.origin}/static`], sdk: 'py' });
    expect(b.body.queries[0].warnings).toEqual(a.body.warnings);
    const plain = await post(data, '/v1/queries', { source: 'universal', url: `${sim.origin}/static` });
    expect(plain.body.warnings).toBeUndefined();
  });

  test('nested objects stay strict: an unknown key inside context[] is still an error', async () => {
    const a = await post(realtime, '/v1/queries', { source: 'universal', url: `${sim.origin}/static`, context: [{ key: 'x', value: 1, extra: true }] });
    expect(a.status).toBe(400);
    expect(a.body.errors.map((e: any) => e.pointer)).toContain('#/context/0/extra');
  });
});

describe('source aliases', () => {
  test('an alias runs as the source it names and the job echoes the name sent', async () => {
    const a = await post(realtime, '/v1/queries', { source: 'universal_web', url: `${sim.origin}/static` });
    expect(a.status).toBe(200);
    expect(a.body.job.source).toBe('universal_web');
    expect(a.body.results[0].content).toContain('<h1');
    const b = await post(realtime, '/v1/queries', { source: 'engine_one_search', query: 'trail shoes', parse: true });
    expect(b.status).toBe(200);
    expect(b.body.results[0].content.organic.length).toBeGreaterThan(0);
  });

  test('/v2/stats counts aliased work under the real source', async () => {
    // Charging is committed just after the answer leaves: wait for the work to be counted.
    const sources = await until(async () => {
      const s = await call(`${data}/v2/stats`, { headers: basic });
      const titles: string[] = s.body.data.products.flatMap((p: any) => p.sources.map((x: any) => x.title));
      return titles.includes('se1_search') && titles.includes('universal') && titles;
    }, 'the aliased work in /v2/stats');
    expect(sources).toContain('se1_search');
    expect(sources).not.toContain('engine_one_search');
    expect(sources).not.toContain('universal_web');
  });

  test('the aliases file is checked: a value that is no source, an alias that shadows a source', () => {
    expect(checkAliases({ a: 'universal', b: 'se1_search' })).toEqual([]);
    expect(checkAliases({ a: 'nope', universal: 'se1_search', c: 3 })).toEqual([
      'GLEANER_SOURCE_ALIASES: alias "a" names "nope", which is no source',
      'GLEANER_SOURCE_ALIASES: alias "universal" is already a source of its own',
      'GLEANER_SOURCE_ALIASES: alias "c" must name a source (a string)',
    ]);
    expect(checkAliases([])).toEqual(['GLEANER_SOURCE_ALIASES must be a JSON object { "<alias>": "<source>" }']);
    expect(resolveSource({ a: 'universal' }, 'a')).toBe('universal');
    expect(resolveSource({ a: 'universal' }, 'toString')).toBe('toString');
  });
});
