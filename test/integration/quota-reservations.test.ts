/**
 * Quotas count accepted, unfinished work (issue 24 C) through the real listeners: queued and
 * running jobs hold their pages from the 202 until they finish, sync requests while they run,
 * on every door that starts work (Web API sync, async and batch, Job API realtime and
 * push-pull, the job feed, MCP). A done job's pages become charged pages; a faulted job gives
 * them back. The quota is set with the CLI's own code (`gleaner accounts set-quota`).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import WebSocket from 'ws';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { setQuota } from '../../gateway/cli-quota.js';
import { waitFor } from '../helpers/farm.js';
import { call, postJson, startGateway, TEST_PASSWORD, TEST_USER, type HttpAnswer, type TestGateway } from '../helpers/gateway.js';
import { startSimulator, type Simulator } from '../sites/server.js';

const CLIENT = 1; // the bootstrap account: the test key and the test user
const JOB_TIMEOUT_MS = 20_000;
const basic = { authorization: `Basic ${Buffer.from(`${TEST_USER}:${TEST_PASSWORD}`).toString('base64')}`, 'content-type': 'application/json' };

let sim: Simulator;
let gw: TestGateway;
let realtime: string;
let data: string;

beforeAll(async () => {
  sim = await startSimulator();
  // Jobs past JOB_TIMEOUT_MS fault: how a test makes a job fail while it holds pages.
  gw = await startGateway({ jobTimeoutMs: JOB_TIMEOUT_MS });
  realtime = `http://127.0.0.1:${gw.server.realtimePort}`;
  data = `http://127.0.0.1:${gw.server.dataPort}`;
});
afterAll(async () => {
  await gw?.close();
  await sim?.close();
});

async function quota(...args: string[]): Promise<void> {
  await setQuota(gw.server.store, [String(CLIENT), ...args], () => undefined);
}

function post(base: string, path: string, body: unknown): Promise<HttpAnswer> {
  return call(base + path, { method: 'POST', headers: basic, body: JSON.stringify(body) });
}

function charged(): number {
  return gw.server.store.quotas.usageOf(CLIENT).pages_day;
}

async function finals(ids: string[]): Promise<string[]> {
  const states = await Promise.all(ids.map((id) => gw.server.store.jobs.get(id)));
  return states.map((j) => j?.status ?? 'missing');
}

async function waitFinished(ids: string[], ms = 60_000): Promise<string[]> {
  await waitFor(async () => (await finals(ids)).every((s) => s === 'done' || s === 'faulted'), ms);
  return finals(ids);
}

async function stats(): Promise<any> {
  return (await call(`${data}/v2/stats`, { headers: basic })).body;
}

test('the hostile reproduction: 10 pages per day, 20 sequential batches of 10 jobs: one batch accepted, 10 pages charged', async () => {
  await quota('--pages-per-day', '10');
  const statuses: number[] = [];
  const accepted: string[] = [];
  for (let i = 0; i < 20; i++) {
    const urls = Array.from({ length: 10 }, (_, j) => `${sim.origin}/slow?ms=400&batch=${i}&job=${j}`);
    const answer = await postJson(gw, '/v1/async/scrape/batch', { url: urls });
    statuses.push(answer.status);
    if (answer.status === 202) accepted.push(...answer.body.data.map((d: any) => d.metadata.request_id));
    else {
      expect(answer.body.title).toBe('QUOTA_EXCEEDED');
      const q = answer.body.quota;
      expect([q.limit, q.max, q.used + q.reserved]).toEqual(['pages_per_day', 10, 10]);
    }
  }
  expect(statuses).toEqual([202, ...Array.from({ length: 19 }, () => 429)]);
  // While the accepted batch runs its pages are held: /v2/stats shows them as reserved.
  const during = (await stats()).quota.pages_per_day;
  expect([during.max, during.used + during.reserved, during.remaining]).toEqual([10, 10, 0]);
  expect(await waitFinished(accepted)).toEqual(accepted.map(() => 'done'));
  expect(charged()).toBe(10);
  expect(gw.server.store.quotas.reservedOf(CLIENT)).toEqual({ pages: 0, rendered: 0 });
  expect((await stats()).quota.pages_per_day).toMatchObject({ max: 10, used: 10, reserved: 0, remaining: 0 });
  const metrics = await call(`${gw.url}/metrics`, { headers: gw.auth });
  expect(metrics.text).toContain(`gleaner_quota_reserved{client_id="${CLIENT}",limit="pages_per_day"} 0`);
}, 120_000);

test('queued work is counted on every door; a faulted job gives its pages back, uncharged', async () => {
  const mcp = new Client({ name: 'quota-test', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`), { requestInit: { headers: gw.auth } }));
  const feed = new WebSocket(`${gw.url.replace('http', 'ws')}/v1/feed?format=json&route=nothing`, { headers: gw.auth });
  const frames: any[] = [];
  feed.on('message', (raw: Buffer) => frames.push(JSON.parse(raw.toString())));
  await new Promise((resolve, reject) => feed.once('open', resolve).once('error', reject));
  try {
    // Two pages left today; two jobs take them and hang until their deadline faults them.
    await quota('--pages-per-day', String(charged() + 2));
    const held = await postJson(gw, '/v1/async/scrape/batch', { url: [`${sim.origin}/slow?ms=60000&h=1`, `${sim.origin}/slow?ms=60000&h=2`] });
    expect(held.status).toBe(202);
    const ids: string[] = held.body.data.map((d: any) => d.metadata.request_id);
    const page = `${sim.origin}/static?door=1`;

    const doors = {
      webSync: await postJson(gw, '/v1/scrape', { url: page }),
      webAsync: await postJson(gw, '/v1/async/scrape', { url: page }),
      webBatch: await postJson(gw, '/v1/async/scrape/batch', { url: [page] }),
      jobRealtime: await post(realtime, '/v1/queries', { source: 'universal', url: page }),
      jobPush: await post(data, '/v1/queries', { source: 'universal', url: page }),
      jobBatch: await post(data, '/v1/queries/batch', { source: 'universal', url: [page] }),
    };
    for (const [door, answer] of Object.entries(doors)) {
      expect([door, answer.status, answer.body?.title, answer.body?.quota?.reserved]).toEqual([door, 429, 'QUOTA_EXCEEDED', 2]);
    }
    feed.send(JSON.stringify({ op: 'submit', ref: 'f1', path: '/v1/async/scrape', body: { url: page } }));
    await waitFor(() => frames.some((f) => f.ref === 'f1'));
    const fed = frames.find((f) => f.ref === 'f1');
    expect([fed.op, fed.status, fed.body.title]).toEqual(['error', 429, 'QUOTA_EXCEEDED']);
    const tool = (await mcp.callTool({ name: 'scrape', arguments: { url: page } })) as CallToolResult;
    expect(tool.isError).toBe(true);
    expect(JSON.stringify(tool.content)).toContain('QUOTA_EXCEEDED');
    // Nothing of it ran: the simulator never saw the page.
    expect(sim.hits.get('/static?door=1') ?? 0).toBe(0);
    expect((await finals(ids)).every((s) => s === 'pending' || s === 'running')).toBe(true);

    // Faulted at their deadline: not charged, and the two pages are free again.
    const before = charged();
    expect(await waitFinished(ids, JOB_TIMEOUT_MS + 30_000)).toEqual(['faulted', 'faulted']);
    expect(charged()).toBe(before);
    expect(gw.server.store.quotas.reservedOf(CLIENT)).toEqual({ pages: 0, rendered: 0 });
    const again = await postJson(gw, '/v1/async/scrape/batch', { url: [page, `${page}&n=2`] });
    expect(again.status).toBe(202);
    expect(await waitFinished(again.body.data.map((d: any) => d.metadata.request_id))).toEqual(['done', 'done']);
    expect(charged()).toBe(before + 2);
  } finally {
    feed.close();
    await mcp.close();
  }
}, 120_000);

test('a sync request holds its pages while it runs, and its charge is durable before its answer', async () => {
  await quota('--pages-per-day', String(charged() + 1));
  const before = charged();
  const running = postJson(gw, '/v1/scrape', { url: `${sim.origin}/slow?ms=1500&sync=1` });
  await waitFor(() => (sim.hits.get('/slow?ms=1500&sync=1') ?? 0) > 0, 30_000);
  const beside = await postJson(gw, '/v1/async/scrape', { url: `${sim.origin}/static?beside=1` });
  expect([beside.status, beside.body.title, beside.body.quota.used, beside.body.quota.reserved]).toEqual([429, 'QUOTA_EXCEEDED', before, 1]);
  const answer = await running;
  expect(answer.status).toBe(200);
  // Read at once, without waiting: the ledger had it before the answer left.
  expect(charged()).toBe(before + 1);
  expect(gw.server.services.quota.reservedOf(CLIENT)).toEqual({ pages: 0, rendered: 0 });
  await quota('--clear');
}, 60_000);
