/**
 * Issue 16, defect 6: a poison job. A job whose run ends with the process (here: kill -9 while
 * it runs, every time) is counted at each start; after GLEANER_JOB_MAX_STARTS starts it is not
 * run again but ends `faulted` with INTERNAL_ERROR, is not charged, and is logged with its id.
 * The real service in a child process, LMDB in a temp folder, the simulator as the target.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { loadConfig } from '../../core/config.js';
import { startSimulator, type Simulator } from '../sites/server.js';
import { call } from '../helpers/gateway.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const KEY = 'poison-test-key-0123456789';
const USER = 'poison:poison-password';
const auth = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

let sim: Simulator;
let dataDir: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  sim = await startSimulator();
  dataDir = mkdtempSync(join(tmpdir(), 'gleaner-poison-'));
});
afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await sim?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function serve(): Promise<{ child: ChildProcess; base: string; data: string; out: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'gateway/cli.ts'), 'serve'], {
    cwd: root,
    env: {
      ...process.env,
      GLEANER_DATA_DIR: dataDir,
      GLEANER_PORT: '0',
      GLEANER_REALTIME_PORT: '0',
      GLEANER_DATA_PORT: '0',
      GLEANER_WORKERS: '1',
      GLEANER_ALLOW_PRIVATE: '1',
      GLEANER_BOOTSTRAP_API_KEY: KEY,
      GLEANER_BOOTSTRAP_USER: USER,
      GLEANER_JOB_MAX_STARTS: '2',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`no start:\n${out}`)), 30_000);
    child.stdout!.on('data', () => {
      const m = /"port":(\d+),"realtime_port":\d+,"data_port":(\d+).*"msg":"gleaner ready"/.exec(out);
      if (m) {
        clearTimeout(timer);
        ok({ child, base: `http://127.0.0.1:${m[1]}`, data: `http://127.0.0.1:${m[2]}`, out: () => out });
      }
    });
  });
}

async function killed(child: ChildProcess): Promise<void> {
  child.kill('SIGKILL');
  await new Promise((r) => child.once('exit', r));
}

test('the default is 3 starts', () => {
  expect([loadConfig({}).jobMaxStarts, loadConfig({ GLEANER_JOB_MAX_STARTS: '5' }).jobMaxStarts]).toEqual([3, 5]);
});

test('a job that takes the process down is given up after GLEANER_JOB_MAX_STARTS starts: faulted, INTERNAL_ERROR, not charged, logged', async () => {
  const path = '/slow?ms=60000&k=poison';
  let svc = await serve();
  const submitted = await call(`${svc.base}/v1/async/scrape`, { method: 'POST', headers: auth, body: JSON.stringify({ url: `${sim.origin}${path}` }) });
  expect(submitted.status).toBe(202);
  const id: string = submitted.body.metadata.request_id;

  // Two starts, each ended by kill -9 while the job holds the page.
  for (let start = 1; start <= 2; start++) {
    for (let i = 0; (sim.hits.get(path) ?? 0) < start; i++) {
      if (i > 600) throw new Error(`start ${start} never reached the target`);
      await new Promise((r) => setTimeout(r, 50));
    }
    await killed(svc.child);
    svc = await serve();
  }

  // The third start does not run it: faulted at once, with the documented internal error.
  let job: any;
  for (let i = 0; i < 200; i++) {
    job = (await call(`${svc.base}/v1/async/scrape/${id}`, { headers: auth })).body;
    if (job.status !== 'pending') break;
    await new Promise((r) => setTimeout(r, 50));
  }
  // GET says why (the webhook and the log are not the only place that does).
  expect([job.status, job.error]).toEqual([
    'faulted',
    {
      title: 'INTERNAL_ERROR',
      status: 500,
      detail: 'The job was started 2 times and never finished: each run ended with the service process (GLEANER_JOB_MAX_STARTS is 2), so it is not run again and not charged.',
    },
  ]);
  expect(sim.hits.get(path)).toBe(2);
  // Logs are written in batches: give the line a moment to arrive.
  for (let i = 0; i < 100 && !svc.out().includes('"job given up'); i++) await new Promise((r) => setTimeout(r, 50));
  const log = svc
    .out()
    .split('\n')
    .filter((l) => l.includes('"job given up'))
    .map((l) => JSON.parse(l));
  expect(log.map((l) => [l.level, l.job_id, l.starts])).toEqual([[50, id, 2]]);
  // Not charged: the ledger is empty.
  const stats = await call(`${svc.data}/v2/stats`, { headers: { authorization: `Basic ${Buffer.from(USER).toString('base64')}` } });
  expect(stats.body.data.products.map((p: any) => p.all_count)).toEqual(stats.body.data.products.map(() => 0));

  svc.child.kill('SIGTERM');
  expect(await new Promise((r) => svc.child.once('exit', r))).toBe(0);
}, 120_000);
