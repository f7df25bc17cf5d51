/**
 * The typed client against a real gateway (port 0, LMDB in a temp folder) and the target
 * simulator: sync, search, async (submit + wait), batch, a faulted job, problem documents
 * without retries, 429 retried until a slot frees, and webhook signatures verified from a
 * real delivery.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RESPONSE_SCHEMAS } from '../../../core/schema/responses.js';
import { startGateway, type TestGateway } from '../../../test/helpers/gateway.js';
import { startReceiver, type Receiver } from '../../../test/helpers/receiver.js';
import { se1Docs } from '../../../test/sites/se-data.js';
import { startSimulator, type Simulator } from '../../../test/sites/server.js';
import { Gleaner, GleanerApiError, GleanerJobError, parseWebhook, verifyWebhook, type BatchOutcome, type ParsedJson } from '../src/index.js';

let sim: Simulator;
let gw: TestGateway;
let hooks: Receiver;
let g: Gleaner;
/** Every request the client sent, as `METHOD path` (the client's fetch option, counting). */
const sent: string[] = [];

function client(retry: { attempts?: number; baseMs?: number; maxMs?: number } = {}): Gleaner {
  return new Gleaner({
    baseUrl: gw.url,
    apiKey: gw.key,
    retry: { baseMs: 50, maxMs: 400, ...retry },
    fetch: (input, init) => {
      sent.push(`${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`);
      return fetch(input, init);
    },
  });
}

beforeAll(async () => {
  [sim, hooks] = await Promise.all([startSimulator(), startReceiver()]);
  // One request in flight per account: the 429 test needs a limit it can reach.
  gw = await startGateway({ accountConcurrency: 1, targets: { se1: { baseUrl: `${sim.origin}/se1` }, se2: { baseUrl: `${sim.origin}/se2` } } });
  g = client();
});
afterAll(async () => {
  await gw?.close();
  await Promise.all([sim?.close(), hooks?.close()]);
});

describe('sync', () => {
  test('scrape: the generic route', async () => {
    const answer = await g.scrape('universal', { url: `${sim.origin}/static`, output: ['markdown'] });
    expect([answer.status, answer.results[0].markdown?.split('\n')[0], answer.params.output]).toEqual([200, '# Static heading', ['markdown']]);
  });

  test('scrape: a dedicated route, its parsed JSON typed by the generated ParsedJson', async () => {
    const answer = await g.scrape('se1/search', { query: 'client probe', output: ['json'] });
    const json: ParsedJson['se1/search'] | null = answer.results[0].json;
    expect(json?.organic.map((o) => o.url)).toEqual(se1Docs('client probe', 1, 10).map((d) => d.url));
  });

  test('search', async () => {
    const answer = await g.search({ query: 'client search', max_results: 3 });
    expect([answer.state, answer.results.length, answer.params]).toEqual(['done', 3, { query: 'client search', location: null, max_results: 3 }]);
  });
});

describe('async and batch', () => {
  test('submit, then wait with backoff until done', async () => {
    const submitted = await g.submit('universal', { url: `${sim.origin}/slow?ms=700`, output: ['html'] });
    expect(submitted.status).toBe('pending');
    sent.length = 0;
    const done = await g.wait(submitted.metadata.request_id, { intervalMs: 100 });
    expect([done.status, done.status_code, done.results[0].metadata.url]).toEqual(['done', 200, `${sim.origin}/slow?ms=700`]);
    // It polled more than once, and only GETs of that job.
    expect(sent.length).toBeGreaterThan(1);
    expect(new Set(sent)).toEqual(new Set([`GET /v1/async/scrape/${submitted.metadata.request_id}`]));
  });

  test('run: submit + wait in one call, typed by route', async () => {
    const done = await g.run('se1/search', { query: 'client async', output: ['json'] });
    expect(done.results[0].json?.query).toBe('client async');
  });

  test('runBatch: one outcome per value, in order', async () => {
    const urls = [`${sim.origin}/static`, `${sim.origin}/static/next`];
    const outcomes: BatchOutcome<'universal'>[] = await g.runBatch<'universal'>('universal', { url: urls, output: ['markdown'] }, { intervalMs: 100 });
    const got: string[] = [];
    for (const o of outcomes) got.push(o.ok ? o.job.results[0].metadata.url : o.error.message);
    expect(got).toEqual(urls);
  });

  test('a faulted job rejects with its problem code', async () => {
    const error = await g.run('universal', { url: 'http://127.0.0.1:9/' }, { intervalMs: 100 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GleanerJobError);
    expect([(error as GleanerJobError).code, (error as GleanerJobError).job.status]).toEqual(['REQUEST_FAILED_AFTER_MANY_RETRIES', 'faulted']);
  });
});

describe('errors and retries', () => {
  test('a 400 is a GleanerApiError with the problem document, never retried', async () => {
    sent.length = 0;
    const error = await g.scrape('universal', { url: 'nope', output: ['screenshot'] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GleanerApiError);
    const e = error as GleanerApiError;
    expect([e.status, e.code, e.problem?.errors?.map((f) => f.pointer).sort(), sent.length]).toEqual([400, 'VALIDATION_ERROR', ['#/output', '#/url'], 1]);
  });

  test('an unknown job is 404 NOT_FOUND, not retried', async () => {
    sent.length = 0;
    const error = (await g.job('1000000000000000000').catch((e: unknown) => e)) as GleanerApiError;
    expect([error.status, error.code, sent.length]).toEqual([404, 'NOT_FOUND', 1]);
  });

  test('429 from the concurrency limit is retried with backoff until a slot frees', async () => {
    const busy = g.scrape('universal', { url: `${sim.origin}/slow?ms=1500` });
    await new Promise((r) => setTimeout(r, 300));
    sent.length = 0;
    const patient = client({ attempts: 30, baseMs: 100, maxMs: 300 });
    const answer = await patient.scrape('universal', { url: `${sim.origin}/static` });
    expect(answer.status).toBe(200);
    expect(sent.length).toBeGreaterThan(1);
    await busy;
  });
});

describe('webhooks', () => {
  test('a real delivery verifies with the account secret; tampered or stale ones do not', async () => {
    const submitted = await g.submit('universal', { url: `${sim.origin}/static`, callback_url: hooks.url });
    const until = Date.now() + 20_000;
    while (hooks.requests.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    const delivery = hooks.requests.at(-1)!;
    const secret = gw.server.store.accounts.getAccount(1)!.webhookSecret;
    const header = String(delivery.headers['gleaner-signature']);
    const payload = parseWebhook(secret, delivery.body, header);
    expect([payload.event, payload.job_id, payload.results_url]).toEqual(['job.done', submitted.metadata.request_id, `${gw.url}/v1/async/scrape/${submitted.metadata.request_id}`]);
    // The generated WebhookPayload type comes from this schema; the service's body fits it.
    const fits = new Ajv2020({ strict: false }).compile(RESPONSE_SCHEMAS.WebhookPayload!);
    expect([fits(payload), fits.errors ?? null]).toEqual([true, null]);
    const t = Number(/t=(\d+)/.exec(header)![1]);
    expect([
      verifyWebhook(secret, delivery.body, header),
      verifyWebhook(secret, delivery.body.toString('utf8').replace('job.done', 'job.faulted'), header),
      verifyWebhook('whsec_other', delivery.body, header),
      verifyWebhook(secret, delivery.body, header, { now: t + 301 }),
      verifyWebhook(secret, delivery.body, undefined),
    ]).toEqual([true, false, false, false, false]);
  });
});
