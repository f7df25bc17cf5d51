/**
 * Async and batch jobs through the real gateway: the simulator as the target, a real webhook
 * receiver, a real S3-compatible server that verifies SigV4, and the job feed over ws.
 */
import { gunzipSync } from 'node:zlib';
import WebSocket from 'ws';
import { unpack } from 'msgpackr';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { verifySignature } from '../../farm/delivery/index.js';
import { startSimulator, type Simulator } from '../sites/server.js';
import { call, postJson, startGateway, type TestGateway } from '../helpers/gateway.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { startS3Server, type S3Server } from '../helpers/s3.js';
import { until } from '../helpers/wait.js';

let sim: Simulator;
let gw: TestGateway;
let hooks: Receiver;
let s3: S3Server;

beforeAll(async () => {
  [sim, hooks, s3] = await Promise.all([
    startSimulator(),
    startReceiver(),
    startS3Server({ keys: { AKTEST: 'secret-test-key' }, buckets: ['results'] }),
  ]);
  gw = await startGateway({
    maxBatch: 50,
    deliveryAttempts: 4,
    deliveryBaseMs: 20,
    deliveryMaxMs: 100,
    storage: {
      // The test key's account (client id 1) may write these prefixes only (GLEANER_STORAGE `buckets`).
      s3: { accessKeyId: 'AKTEST', secretAccessKey: 'secret-test-key', endpoint: s3.endpoint, region: 'us-east-1', buckets: { '1': ['results/plain', 'results/gz'] } },
      s3_compatible: { accessKeyId: 'AKTEST', secretAccessKey: 'secret-test-key', buckets: { '1': ['results/compat'] } },
    },
  });
});
afterAll(async () => {
  await gw?.close();
  await Promise.all([sim?.close(), hooks?.close(), s3?.close()]);
});

async function waitDone(id: string, g: TestGateway = gw): Promise<any> {
  return until(async () => {
    const a = await call(`${g.url}/v1/async/scrape/${id}`, { headers: g.auth });
    return a.body?.status !== 'pending' && a.body;
  }, `job ${id} to finish`, 30_000);
}

/** The first defined value of `get` (undefined: not yet), with a deadline that fails the test. */
async function waitFor<T>(get: () => T | undefined | Promise<T | undefined>, ms = 10_000, what = 'the awaited job state'): Promise<T> {
  return (await until(async () => {
    const v = await get();
    return v === undefined ? undefined : { v };
  }, what, ms, 20)).v;
}

describe('async jobs', () => {
  test('submit answers 202 with the job object; collection gives the sync shape when done', async () => {
    const url = `${sim.origin}/static`;
    const a = await postJson(gw, '/v1/async/scrape', { url, output: ['markdown'] });
    expect(a.status).toBe(202);
    const params = { url, output: ['markdown'], json: null, location: null, device: 'desktop', run_js: false, callback_url: null, storage: null };
    expect(a.body).toEqual({ status: 'pending', params, metadata: { timestamp: expect.any(Number), request_id: expect.stringMatching(/^\d{19}$/) } });
    const id = a.body.metadata.request_id;
    // Durable before the 202: the record is already in LMDB.
    expect((await gw.server.store.jobs.get(id))?.params).toEqual(params);

    const done = await waitDone(id);
    const sync = await postJson(gw, '/v1/scrape', { url, output: ['markdown'] });
    expect(done).toEqual({
      status: 'done',
      status_code: 200,
      results: sync.body.results,
      params,
      metadata: { request_id: id, timestamp: a.body.metadata.timestamp, finished_at: expect.any(Number) },
    });
  });

  test('a failed job reports its failure', async () => {
    const a = await postJson(gw, '/v1/async/scrape', { url: `${sim.origin}/status?code=503` });
    const done = await waitDone(a.body.metadata.request_id);
    expect(done.status).toBe('faulted');
    expect(done.results).toEqual([]);
    expect(done.error).toEqual({ title: 'REQUEST_FAILED_AFTER_MANY_RETRIES', status: 500, detail: expect.any(String) });
  });

  test('a job past its deadline says so in its own words, not the synchronous deadline', async () => {
    const short = await startGateway({ jobTimeoutMs: 1500 });
    try {
      const a = await postJson(short, '/v1/async/scrape', { url: `${sim.origin}/slow?ms=30000` });
      const done = await waitDone(a.body.metadata.request_id, short);
      expect([done.status, done.error]).toEqual([
        'faulted',
        {
          title: 'REQUEST_FAILED_SCRAPE_TIMEOUT',
          status: 408,
          detail: 'The job did not finish within its deadline of 1.5 s (GLEANER_JOB_TIMEOUT_MS); it was stopped and is not charged.',
        },
      ]);
    } finally {
      await short.close();
    }
  });

  test("another account's job id is 404", async () => {
    const a = await postJson(gw, '/v1/async/scrape', { url: `${sim.origin}/static` });
    const other = await gw.server.store.accounts.createAccount({ name: 'other' });
    const { key } = await gw.server.store.accounts.createKey(other.clientId);
    const b = await call(`${gw.url}/v1/async/scrape/${a.body.metadata.request_id}`, { headers: { authorization: `Bearer ${key}` } });
    expect(b.status).toBe(404);
    expect(b.body.title).toBe('NOT_FOUND');
  });

  test('batch: one job per value, each collected', async () => {
    const urls = [1, 2, 3].map((n) => `${sim.origin}/static?n=${n}`);
    const a = await postJson(gw, '/v1/async/scrape/batch', { url: urls, output: ['html'] });
    expect(a.status).toBe(202);
    expect(a.body.data).toHaveLength(3);
    expect(a.body.data.map((d: any) => [d.status, d.params.url])).toEqual(urls.map((u) => ['pending', u]));
    const done = await Promise.all(a.body.data.map((d: any) => waitDone(d.metadata.request_id)));
    expect(done.map((d) => [d.status, d.results[0].metadata.url])).toEqual(urls.map((u) => ['done', u]));
  });
});

describe('deliveries', () => {
  test('webhook: retried until 2xx, signed with the account secret', async () => {
    hooks.failFirst(2, 503);
    const before = hooks.requests.length;
    const a = await postJson(gw, '/v1/async/scrape', { url: `${sim.origin}/static`, callback_url: hooks.url });
    const id = a.body.metadata.request_id;
    const received = await hooks.waitForRequests(before + 3);
    const last = received[before + 2];
    const body = JSON.parse(last.body.toString());
    expect(body).toEqual({ event: 'job.done', job_id: id, status: 'done', finished_at: expect.any(Number), results_url: `${gw.url}/v1/async/scrape/${id}` });
    const account = gw.server.store.accounts.getAccount((await gw.server.store.jobs.get(id))!.clientId)!;
    expect(verifySignature(String(last.headers['gleaner-signature']), last.body, account.webhookSecret)).toBe(true);
    expect(last.headers['gleaner-event']).toBe('job.done');
    const job = await waitFor(async () => {
      const j = await gw.server.store.jobs.get(id);
      return j?.deliveries.webhook?.state === 'delivered' ? j : undefined;
    });
    expect(job.deliveries.webhook).toEqual({ state: 'delivered', attempts: 3, since: expect.any(Number), deliveredAt: expect.any(Number) });
  });

  test('a webhook that keeps failing is recorded as failed after the retry limit', async () => {
    hooks.failFirst(4, 500);
    const a = await postJson(gw, '/v1/async/scrape', { url: `${sim.origin}/static`, callback_url: hooks.url });
    const id = a.body.metadata.request_id;
    const job = await waitFor(async () => {
      const j = await gw.server.store.jobs.get(id);
      return j?.deliveries.webhook?.state === 'failed' ? j : undefined;
    });
    expect(job.deliveries.webhook).toMatchObject({ state: 'failed', attempts: 4 });
    expect(job.deliveries.webhook!.lastError).toMatch(/gave up after 4 attempts/);
  });

  test('s3 (JSON) and s3_gzip uploads are readable back; the object is the collection body', async () => {
    const url = `${sim.origin}/static`;
    const plain = await postJson(gw, '/v1/async/scrape', { url, storage: { type: 's3', url: 's3://results/plain/' } });
    const gz = await postJson(gw, '/v1/async/scrape', { url, storage: { type: 's3_gzip', url: 's3://results/gz/' } });
    const [pid, gid] = [plain.body.metadata.request_id, gz.body.metadata.request_id];
    const plainObject = await waitFor(() => s3.getObject('results', `plain/${pid}.json`));
    const gzObject = await waitFor(() => s3.getObject('results', `gz/${gid}.json.gz`));
    const collected = await waitDone(pid);
    const stored = JSON.parse(plainObject.body.toString());
    expect(stored.status).toBe('done');
    expect(stored.results).toEqual(collected.results);
    expect(JSON.parse(gunzipSync(gzObject.body).toString()).results).toEqual(collected.results);
    expect(gzObject.headers['content-encoding']).toBe('gzip');
  });

  test('s3_compatible takes its endpoint from the URL', async () => {
    const a = await postJson(gw, '/v1/async/scrape', { url: `${sim.origin}/static`, storage: { type: 's3_compatible', url: `${s3.endpoint}/results/compat` } });
    const id = a.body.metadata.request_id;
    const object = await waitFor(() => s3.getObject('results', `compat/${id}.json`));
    expect(JSON.parse(object.body.toString()).metadata.request_id).toBe(id);
  });

  test('a malformed storage.url is accepted; the job runs and the delivery failure is recorded', async () => {
    const a = await postJson(gw, '/v1/async/scrape', { url: `${sim.origin}/static`, storage: { type: 's3', url: 'definitely not a bucket' } });
    expect(a.status).toBe(202);
    const id = a.body.metadata.request_id;
    const job = await waitFor(async () => {
      const j = await gw.server.store.jobs.get(id);
      return j?.deliveries.storage?.state === 'failed' ? j : undefined;
    });
    expect(job.status).toBe('done');
    expect(job.deliveries.storage).toMatchObject({ state: 'failed', attempts: 1 });
    const collected = await waitDone(id);
    expect(collected.deliveries.storage.state).toBe('failed');
  });
});

describe('expiry', () => {
  test('finished jobs are swept after the retention and then 404', async () => {
    const short = await startGateway({ retentionMs: 200, sweepIntervalMs: 50 });
    try {
      const a = await postJson(short, '/v1/async/scrape', { url: `${sim.origin}/static` });
      const id = a.body.metadata.request_id;
      expect((await waitDone(id, short)).status).toBe('done');
      await waitFor(async () => ((await short.server.store.jobs.get(id)) ? undefined : true), 5_000);
      const gone = await call(`${short.url}/v1/async/scrape/${id}`, { headers: short.auth });
      expect(gone.status).toBe(404);
      expect(await short.server.store.jobs.result(id)).toBeUndefined();
    } finally {
      await short.close();
    }
  });
});

describe('job feed', () => {
  function connect(query: string): Promise<{ ws: WebSocket; frames: any[] }> {
    const ws = new WebSocket(`${gw.url.replace('http', 'ws')}/v1/feed${query}`, { headers: gw.auth });
    const frames: any[] = [];
    ws.on('message', (data: Buffer, isBinary: boolean) => frames.push(isBinary ? unpack(data) : JSON.parse(data.toString())));
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve({ ws, frames }));
      ws.once('error', reject);
    });
  }

  test('a plain GET is 426; a non-admin key cannot upgrade', async () => {
    const a = await call(`${gw.url}/v1/feed`, { headers: gw.auth });
    expect([a.status, a.body.title]).toEqual([426, 'UPGRADE_REQUIRED']);
    const acct = await gw.server.store.accounts.createAccount({ name: 'plain' });
    const { key } = await gw.server.store.accounts.createKey(acct.clientId);
    const status = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`${gw.url.replace('http', 'ws')}/v1/feed`, { headers: { authorization: `Bearer ${key}` } });
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => resolve(101));
    });
    expect(status).toBe(403);
  });

  test('every event of a batch arrives in order per job (msgpack frames)', async () => {
    const { ws, frames } = await connect('?route=universal');
    try {
      const urls = [1, 2, 3].map((n) => `${sim.origin}/static?feed=${n}`);
      const a = await postJson(gw, '/v1/async/scrape/batch', { url: urls });
      const ids: string[] = a.body.data.map((d: any) => d.metadata.request_id);
      await waitFor(() => (ids.every((id) => frames.some((f) => f.job_id === id && f.type === 'done')) ? true : undefined));
      for (const id of ids) {
        expect(frames.filter((f) => f.job_id === id).map((f) => f.type)).toEqual(['accepted', 'started', 'done']);
      }
      const first = frames.find((f) => f.job_id === ids[0]);
      expect(first).toEqual({ type: 'accepted', job_id: ids[0], client_id: 1, route: 'universal', at: expect.any(Number), batch_id: expect.stringMatching(/^\d{19}$/) });
    } finally {
      ws.close();
    }
  });

  test('the route filter leaves other routes out; the socket submits jobs (JSON frames)', async () => {
    const { ws, frames } = await connect('?format=json&route=se1/*');
    try {
      ws.send(JSON.stringify({ op: 'submit', ref: 'r1', path: '/v1/async/scrape', body: { url: `${sim.origin}/static?ws=1` } }));
      ws.send(JSON.stringify({ op: 'submit', ref: 'r2', path: '/v1/async/scrape', body: { url: 'ftp://nope' } }));
      const reply = await waitFor(() => frames.find((f) => f.op === 'submitted'));
      expect(reply).toEqual({ op: 'submitted', ref: 'r1', status: 202, body: { status: 'pending', params: expect.objectContaining({ url: `${sim.origin}/static?ws=1` }), metadata: expect.any(Object) } });
      const refused = await waitFor(() => frames.find((f) => f.op === 'error'));
      expect([refused.ref, refused.status, refused.body.title, refused.body.errors[0].pointer]).toEqual(['r2', 400, 'VALIDATION_ERROR', '#/url']);
      await waitDone(reply.body.metadata.request_id);
      expect(frames.filter((f) => f.type)).toEqual([]);
    } finally {
      ws.close();
    }
  });
});
