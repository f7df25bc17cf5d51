/**
 * Custom extraction through the API: `json.schema` offline, `json.prompt` against a local
 * chat-completions server, the refusal when no model is configured, a parser-less route with
 * `json`, and the LLM key kept out of every answer.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSimulator, type Simulator } from '../sites/server.js';
import { postJson, startGateway, call, type TestGateway } from '../helpers/gateway.js';
import { startLlmServer, type LlmServer } from '../helpers/llm-server.js';

const SECRET = 'sk-test-very-secret-llm-key-123456';
const PRODUCT = {
  type: 'object',
  properties: { name: { type: 'string' }, brand: { type: 'string' }, price: { type: 'number' }, currency: { type: 'string' } },
  required: ['name', 'price'],
};

let sim: Simulator;
let llm: LlmServer;
let offline: TestGateway;
let withModel: TestGateway;

beforeAll(async () => {
  [sim, llm] = await Promise.all([startSimulator(), startLlmServer()]);
  const targets = { se1: { baseUrl: `${sim.origin}/se1` } };
  offline = await startGateway({ targets });
  withModel = await startGateway({ targets, llm: { url: llm.url, key: SECRET, model: 'test-model' } });
});
afterAll(async () => {
  await Promise.all([offline?.close(), withModel?.close()]);
  await Promise.all([sim?.close(), llm?.close()]);
});

describe('json.schema without a model: offline extraction', () => {
  test('fills the caller schema from the page and says so', async () => {
    const a = await postJson(offline, '/v1/scrape', { url: `${sim.origin}/x/product-jsonld`, output: ['json'], json: { schema: PRODUCT } });
    expect(a.status).toBe(200);
    expect(a.body.results[0].json).toEqual({ name: 'Aero 3000 Espresso Machine', brand: 'Aero', price: 1299, currency: 'EUR' });
    expect(a.body.results[0].metadata).toMatchObject({
      json_source: 'offline',
      unfilled: [],
      json_fields: { name: 'jsonld:Product.name', brand: 'jsonld:Product.brand', price: 'jsonld:Product.offers.price', currency: 'jsonld:Product.offers.priceCurrency' },
    });
    expect(a.body.results[0].html).toBeNull();
    expect(a.body.params.json).toEqual({ prompt: null, schema: PRODUCT });
  });

  test('issue 25: fields the page does not clearly have stay unfilled; each value says where it was read', async () => {
    const schema = { type: 'object', properties: { heading: { type: 'string' }, title: { type: 'string' }, alpha: { type: 'integer' }, author: { type: 'string' }, price: { type: 'number' } } };
    const a = await postJson(offline, '/v1/scrape', { url: `${sim.origin}/static`, output: ['json'], json: { schema } });
    expect(a.status).toBe(200);
    expect(a.body.results[0].json).toEqual({ heading: 'Static heading', title: 'Static page', alpha: 1 });
    expect(a.body.results[0].metadata).toMatchObject({ json_source: 'offline', unfilled: ['/author', '/price'], json_fields: { heading: 'h1', title: 'title', alpha: 'table:alpha' } });
  });

  test('a route without a built-in parser works with json (se1/maps)', async () => {
    const schema = { type: 'object', properties: { title: { type: 'string' } } };
    const a = await postJson(offline, '/v1/scrape/se1/maps', { query: 'coffee', output: ['json'], json: { schema } });
    expect(a.status).toBe(200);
    expect(a.body.results[0].metadata.json_source).toBe('offline');
    const without = await postJson(offline, '/v1/scrape/se1/maps', { query: 'coffee' });
    expect(without.status).toBe(400);
  });

  test('json.prompt with no model configured names the missing setting', async () => {
    const a = await postJson(offline, '/v1/scrape', { url: `${sim.origin}/x/article`, output: ['json'], json: { prompt: 'the headline' } });
    expect([a.status, a.headers.get('content-type'), a.body.title]).toEqual([501, 'application/problem+json', 'LLM_NOT_CONFIGURED']);
    expect(a.body.detail).toMatch(/GLEANER_LLM_URL/);
    const queued = await postJson(offline, '/v1/async/scrape', { url: `${sim.origin}/x/article`, output: ['json'], json: { prompt: 'the headline' } });
    expect(queued.status).toBe(501);
  });
});

describe('with a model configured', () => {
  test('json.prompt: the page goes to the model, the validated answer comes back', async () => {
    llm.enqueue({ kind: 'json', value: { headline: 'Quiet streets return' } });
    const before = llm.requests.length;
    const a = await postJson(withModel, '/v1/scrape', { url: `${sim.origin}/x/article`, output: ['json'], json: { prompt: 'Give the headline as {headline}' } });
    expect(a.status).toBe(200);
    expect(a.body.results[0].json).toEqual({ headline: 'Quiet streets return' });
    expect(a.body.results[0].metadata.json_source).toBe('llm');
    const sent = llm.requests[before];
    expect(sent.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(sent.body.model).toBe('test-model');
    expect(sent.body.messages.map((m) => m.content).join('\n')).toMatch(/Give the headline as \{headline\}/);
    expect(a.text).not.toContain(SECRET);
  });

  test('json.schema uses the model when configured; a model failure is a clear job failure with no key in it', async () => {
    llm.enqueue({ kind: 'json', value: { name: 'Aero 3000', price: 1299 } });
    const ok = await postJson(withModel, '/v1/scrape', { url: `${sim.origin}/x/product-jsonld`, output: ['json'], json: { schema: PRODUCT } });
    expect(ok.body.results[0]).toMatchObject({ json: { name: 'Aero 3000', price: 1299 }, metadata: { json_source: 'llm' } });

    llm.enqueue({ kind: 'status', status: 500, body: { error: { message: `upstream broke for key ${SECRET}` } } }, { kind: 'status', status: 500 }, { kind: 'status', status: 500 }, { kind: 'status', status: 500 });
    const failed = await postJson(withModel, '/v1/scrape', { url: `${sim.origin}/x/product-jsonld`, output: ['json'], json: { schema: PRODUCT } });
    expect([failed.status, failed.body.title]).toEqual([500, 'EXTRACTION_FAILED']);
    expect(failed.text).not.toContain(SECRET);
    const openapi = await call(`${withModel.url}/v1/openapi.json`);
    expect(openapi.text).not.toContain(SECRET);
  });
});
