/**
 * Issue 24 item 2: the operator's bucket credentials are bound to buckets and prefixes per
 * account (GLEANER_STORAGE `buckets`). A request naming a bucket its account may not write is
 * 403 before anything runs — Web API async and batch, the job feed's submit, Job API push-pull
 * — and nothing is queued, counted or sent; an allowed one is delivered. Real gateway, real
 * SigV4-verifying S3 server, LMDB in a temp folder.
 */
import WebSocket from 'ws';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { call, postJson, startGateway, type TestGateway } from '../helpers/gateway.js';
import { startS3Server, type S3Server } from '../helpers/s3.js';
import { until } from '../helpers/wait.js';
import { startSimulator, type Simulator } from '../sites/server.js';

let gw: TestGateway;
let s3: S3Server;
let sim: Simulator;
let acme: { key: string; clientId: number };
let other: { key: string; clientId: number };
let accepted = 0;

beforeAll(async () => {
  [sim, s3] = await Promise.all([startSimulator(), startS3Server({ keys: { AKBIND: 'bind-secret' }, buckets: ['acme', 'shared'] })]);
  gw = await startGateway({
    storage: {
      // Account 2 (acme): its own bucket and its folder of the shared one; every account: shared/public.
      s3: { accessKeyId: 'AKBIND', secretAccessKey: 'bind-secret', endpoint: s3.endpoint, region: 'us-east-1', buckets: { '2': ['acme', 'shared/acme'], '*': ['shared/public'] } },
    },
  });
  for (const name of ['acme', 'other']) {
    const account = await gw.server.store.accounts.createAccount({ name, admin: true });
    const { key } = await gw.server.store.accounts.createKey(account.clientId);
    if (name === 'acme') acme = { key, clientId: account.clientId };
    else other = { key, clientId: account.clientId };
  }
  await gw.server.store.accounts.createUser(other.clientId, 'other-user', 'other-password');
  gw.server.services.events.subscribe((e) => {
    if (e.type === 'accepted') accepted++;
  });
});
afterAll(async () => {
  await gw?.close();
  await Promise.all([sim?.close(), s3?.close()]);
});

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const refusal = (clientId: number, bucket: string, prefix: string) =>
  `storage.url names bucket "${bucket}" and prefix "${prefix}", which account ${clientId} may not write with the operator's s3 credentials (GLEANER_STORAGE s3.buckets).`;

test('the account ids the binding names', () => {
  expect([acme.clientId, other.clientId]).toEqual([2, 3]);
});

test('Web API async and batch: another account\'s bucket or folder is 403, nothing queued or sent', async () => {
  const before = { accepted, sent: s3.requests.length };
  for (const [body, path, bucket, prefix] of [
    [{ url: `${sim.origin}/static`, storage: { type: 's3', url: 's3://acme/reports' } }, '/v1/async/scrape', 'acme', 'reports'],
    [{ url: `${sim.origin}/static`, storage: { type: 's3_gzip', url: 's3://shared/acme-lookalike/x' } }, '/v1/async/scrape', 'shared', 'acme-lookalike/x'],
    [{ url: [`${sim.origin}/static?1`, `${sim.origin}/static?2`], storage: { type: 's3', url: 's3://shared/acme' } }, '/v1/async/scrape/batch', 'shared', 'acme'],
  ] as const) {
    const a = await postJson(gw, path, body, bearer(other.key));
    expect([a.status, a.body.title, a.body.detail]).toEqual([403, 'FORBIDDEN', refusal(other.clientId, bucket, prefix)]);
  }
  expect({ accepted, sent: s3.requests.length }).toEqual(before);
});

test('the job feed\'s submit and the Job API are refused the same way', async () => {
  const before = accepted;
  const ws = new WebSocket(`ws://127.0.0.1:${gw.server.port}/v1/feed?format=json`, { headers: bearer(other.key) });
  await new Promise((ok, fail) => ws.once('open', ok).once('error', fail));
  const answer = new Promise<Record<string, any>>((done) => ws.on('message', (d) => {
    const m = JSON.parse(String(d));
    if (m.op) done(m);
  }));
  ws.send(JSON.stringify({ op: 'submit', ref: 'f', path: '/v1/async/scrape', body: { url: `${sim.origin}/static`, storage: { type: 's3', url: 's3://acme/x' } } }));
  const feed = await answer;
  ws.close();
  expect([feed.op, feed.status, feed.body.title, feed.body.detail]).toEqual(['error', 403, 'FORBIDDEN', refusal(other.clientId, 'acme', 'x')]);

  const headers = { authorization: `Basic ${Buffer.from('other-user:other-password').toString('base64')}`, 'content-type': 'application/json' };
  const data = `http://127.0.0.1:${gw.server.dataPort}`;
  const one = await call(`${data}/v1/queries`, { method: 'POST', headers, body: JSON.stringify({ source: 'universal', url: `${sim.origin}/static`, storage_type: 's3', storage_url: 's3://acme/jobs' }) });
  const batch = await call(`${data}/v1/queries/batch`, { method: 'POST', headers, body: JSON.stringify({ source: 'universal', url: [`${sim.origin}/static`], storage_type: 's3', storage_url: 's3://acme/jobs' }) });
  for (const a of [one, batch]) expect([a.status, a.body.title, a.body.message]).toEqual([403, 'FORBIDDEN', refusal(other.clientId, 'acme', 'jobs')]);
  expect(accepted).toBe(before);
});

test('allowed buckets and prefixes are delivered: the account\'s own, its folder, the shared one', async () => {
  const ids: Array<[string, string]> = [];
  for (const [key, url, bucket, prefix] of [
    [acme.key, 's3://acme/reports', 'acme', 'reports'],
    [acme.key, 's3://shared/acme/daily', 'shared', 'acme/daily'],
    [other.key, 's3://shared/public', 'shared', 'public'],
  ] as const) {
    const a = await postJson(gw, '/v1/async/scrape', { url: `${sim.origin}/static`, storage: { type: 's3', url } }, bearer(key));
    expect(a.status).toBe(202);
    ids.push([`${prefix}/${a.body.metadata.request_id}.json`, bucket]);
  }
  await until(() => ids.every(([key, bucket]) => s3.getObject(bucket, key)), `delivered: ${ids.map(([k, b]) => `${b}/${k}`).join(', ')}`, 30_000);
});
