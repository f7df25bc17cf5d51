/**
 * What the store must keep across a process that dies (issue 24 items 5, C and 13), with the
 * service in a child process killed by SIGKILL and restarted on the same data folder:
 * - a done async job is charged exactly once: its charge is stored in the same step as its
 *   final state, so no kill leaves a done job uncharged or charges a rerun twice;
 * - queued jobs' pages are still held against the quota after the restart;
 * - ids keep increasing across a restart even when the clock stepped back, and the job an id
 *   named before is never written over.
 * The test reads the store beside the service, as the CLI does (LMDB serves many processes).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { JobRecord } from '../../core/store/jobs.js';
import { LmdbStore } from '../../core/store/lmdb/index.js';
import { waitFor } from '../helpers/farm.js';
import { call } from '../helpers/gateway.js';
import { startSimulator, type Simulator } from '../sites/server.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const KEY = 'store-crash-key-0123456789';
const auth = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
const CLIENT = 1;

let sim: Simulator;
const children = new Set<ChildProcess>();
const dirs: string[] = [];
const stores: LmdbStore[] = [];

beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  for (const s of stores) await s.close();
  await sim?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gleaner-store-crash-'));
  dirs.push(dir);
  return dir;
}

function openBeside(dir: string): LmdbStore {
  const store = LmdbStore.open(dir);
  stores.push(store);
  return store;
}

interface Service {
  child: ChildProcess;
  base: string;
}

function serve(dir: string, env: Record<string, string> = {}): Promise<Service> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', pathToFileURL(join(root, 'test/helpers/clock-shift.mjs')).href, join(root, 'gateway/cli.ts'), 'serve'], {
    cwd: root,
    env: {
      ...process.env,
      GLEANER_DATA_DIR: dir,
      GLEANER_PORT: '0',
      GLEANER_REALTIME_PORT: '0',
      GLEANER_DATA_PORT: '0',
      GLEANER_WORKERS: '1',
      GLEANER_ALLOW_PRIVATE: '1',
      GLEANER_BOOTSTRAP_API_KEY: KEY,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let out = '';
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`the service did not start:\n${out}`)), 60_000);
    const onData = (d: Buffer): void => {
      out += d.toString();
      const m = /"port":(\d+).*"msg":"gleaner ready"/.exec(out);
      if (m) {
        clearTimeout(timer);
        ok({ child, base: `http://127.0.0.1:${m[1]}` });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => fail(new Error(`the service exited (${code}):\n${out}`)));
  });
}

async function kill(service: Service): Promise<void> {
  const exited = new Promise((r) => service.child.once('exit', r));
  service.child.kill('SIGKILL');
  await exited;
}

function jobsOf(store: LmdbStore): JobRecord[] {
  return [...store.dbs.jobs.getRange()].map((e) => e.value as JobRecord);
}

async function chargedPages(store: LmdbStore): Promise<number> {
  return (await store.usage.rows(CLIENT)).reduce((n, r) => n + r.counters.all_count, 0);
}

test('kill -9 again and again while jobs finish: every done job is charged exactly once', async () => {
  const dir = dataDir();
  const N = 200;
  let service = await serve(dir);
  const store = openBeside(dir);
  const urls = Array.from({ length: N }, (_, i) => `${sim.origin}/static?charge=${i}`);
  const submitted = await call(`${service.base}/v1/async/scrape/batch`, { method: 'POST', headers: auth, body: JSON.stringify({ url: urls }) });
  expect(submitted.status).toBe(202);
  const done = (): number => jobsOf(store).filter((j) => j.status === 'done').length;
  // Killed while jobs are finishing (some between the worker's result and the finish), restarted each time.
  for (const at of [20, 60, 100, 140]) {
    await waitFor(() => done() >= at, 120_000);
    await kill(service);
    service = await serve(dir);
  }
  await waitFor(() => done() === N, 180_000);
  const jobs = jobsOf(store);
  expect(jobs.map((j) => j.status)).toEqual(urls.map(() => 'done'));
  // One page each: the ledger, the quota totals and the done jobs agree exactly.
  expect(await chargedPages(store)).toBe(N);
  expect(store.quotas.usageOf(CLIENT).pages_day).toBe(N);
  expect(store.quotas.reservedOf(CLIENT)).toEqual({ pages: 0, rendered: 0 });
  for (const job of jobs) expect((await store.jobs.result(job.id))?.results.length).toBe(1);
  await kill(service);
}, 600_000);

test('pages of jobs still queued when the process died are held against the quota after the restart', async () => {
  const dir = dataDir();
  let service = await serve(dir);
  const store = openBeside(dir);
  await store.quotas.setQuota(CLIENT, { pages_per_day: 3 });
  const urls = [1, 2, 3].map((i) => `${sim.origin}/slow?ms=6000&held=${i}`);
  const submitted = await call(`${service.base}/v1/async/scrape/batch`, { method: 'POST', headers: auth, body: JSON.stringify({ url: urls }) });
  expect(submitted.status).toBe(202);
  const ids: string[] = submitted.body.data.map((d: any) => d.metadata.request_id);
  await waitFor(() => jobsOf(store).filter((j) => j.status === 'running').length === 3, 60_000);
  await kill(service);
  service = await serve(dir);
  const refused = await call(`${service.base}/v1/async/scrape`, { method: 'POST', headers: auth, body: JSON.stringify({ url: `${sim.origin}/static?after=restart` }) });
  expect([refused.status, refused.body.title, refused.body.quota.used, refused.body.quota.reserved]).toEqual([429, 'QUOTA_EXCEEDED', 0, 3]);
  await waitFor(async () => (await Promise.all(ids.map((id) => store.jobs.get(id)))).every((j) => j?.status === 'done'), 120_000);
  expect([store.quotas.usageOf(CLIENT).pages_day, await chargedPages(store)]).toEqual([3, 3]);
  expect(store.quotas.reservedOf(CLIENT)).toEqual({ pages: 0, rendered: 0 });
  const still = await call(`${service.base}/v1/async/scrape`, { method: 'POST', headers: auth, body: JSON.stringify({ url: `${sim.origin}/static?after=done` }) });
  expect([still.status, still.body.quota.used, still.body.quota.reserved]).toEqual([429, 3, 0]);
  expect(sim.hits.get('/static?after=restart') ?? 0).toBe(0);
  await kill(service);
}, 300_000);

test('ids keep increasing across a restart with the clock stepped back an hour; the earlier jobs stay as they were', async () => {
  const dir = dataDir();
  const store = openBeside(dir);
  const submit = async (service: Service, tag: string): Promise<string> => {
    const a = await call(`${service.base}/v1/async/scrape`, { method: 'POST', headers: auth, body: JSON.stringify({ url: `${sim.origin}/static?id=${tag}` }) });
    expect(a.status).toBe(202);
    return a.body.metadata.request_id;
  };
  let service = await serve(dir);
  const before = [await submit(service, 'a1'), await submit(service, 'a2')];
  await waitFor(async () => (await store.jobs.get(before[1]!))?.status === 'done', 60_000);
  await kill(service);
  service = await serve(dir, { TEST_CLOCK_SHIFT_MS: String(-3_600_000) });
  // (Only this process's main thread runs an hour back, so these jobs may fail their deadline in
  // the worker: what matters here is their ids and records.)
  const after = [await submit(service, 'b1'), await submit(service, 'b2')];
  const all = [...before, ...after];
  expect(all.every((id) => /^\d{19}$/.test(id))).toBe(true);
  // Increasing as numbers (and as strings: same length).
  expect(all.map(BigInt)).toEqual([...all.map(BigInt)].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)));
  expect(new Set(all).size).toBe(4);
  expect(BigInt(after[0]!)).toBeGreaterThan(BigInt(before[1]!));
  const urls = await Promise.all(all.map(async (id) => (await store.jobs.get(id))?.params.url));
  expect(urls).toEqual(['a1', 'a2', 'b1', 'b2'].map((t) => `${sim.origin}/static?id=${t}`));
  await kill(service);
}, 300_000);
