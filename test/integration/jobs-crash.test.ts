/**
 * Nothing lost: the service is killed with SIGKILL while a batch runs and its webhooks are
 * owed, then restarted on the same data folder. Every job completes, each result is stored
 * once, and every job's webhook is delivered.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSimulator, type Simulator } from '../sites/server.js';
import { call } from '../helpers/gateway.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { until } from '../helpers/wait.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const KEY = 'crash-test-key-0123456789';
const auth = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

let sim: Simulator;
let hooks: Receiver;
let dataDir: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  [sim, hooks] = await Promise.all([startSimulator(), startReceiver()]);
  dataDir = mkdtempSync(join(tmpdir(), 'gleaner-crash-'));
});
afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await Promise.all([sim?.close(), hooks?.close()]);
  rmSync(dataDir, { recursive: true, force: true });
});

function serve(): Promise<{ child: ChildProcess; base: string; out: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'gateway/cli.ts'), 'serve'], {
    cwd: root,
    env: {
      ...process.env,
      GLEANER_DATA_DIR: dataDir,
      GLEANER_PORT: '0',
      GLEANER_REALTIME_PORT: '0',
      GLEANER_DATA_PORT: '0',
      GLEANER_WORKERS: '1',
      GLEANER_CONTEXTS: '2',
      GLEANER_ALLOW_PRIVATE: '1',
      GLEANER_BOOTSTRAP_API_KEY: KEY,
      GLEANER_DELIVERY_BASE_MS: '50',
      GLEANER_DELIVERY_MAX_MS: '200',
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
      const m = /"port":(\d+).*"msg":"gleaner ready"/.exec(out);
      if (m) {
        clearTimeout(timer);
        ok({ child, base: `http://127.0.0.1:${m[1]}`, out: () => out });
      }
    });
  });
}

async function statusOf(base: string, id: string): Promise<any> {
  return (await call(`${base}/v1/async/scrape/${id}`, { headers: auth })).body;
}

test('kill -9 mid-batch: after restart every job completes once and every webhook arrives', async () => {
  const first = await serve();
  const urls = Array.from({ length: 24 }, (_, i) => `${sim.origin}/slow?ms=250&job=${i}`);
  const submitted = await call(`${first.base}/v1/async/scrape/batch`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ url: urls, callback_url: hooks.url }),
  });
  expect(submitted.status).toBe(202);
  const ids: string[] = submitted.body.data.map((d: any) => d.metadata.request_id);

  // Let some jobs finish and some run, then kill without warning.
  await until(
    async () => (await Promise.all(ids.slice(0, 6).map((id) => statusOf(first.base, id)))).filter((s) => s.status === 'done').length >= 2,
    'two of the first jobs to be done before the kill',
    60_000,
  );
  first.child.kill('SIGKILL');
  await new Promise((r) => first.child.once('exit', r));

  const second = await serve();
  expect(second.out()).toMatch(/"recovered_jobs":\d+/);
  const recovered = Number(/"recovered_jobs":(\d+)/.exec(second.out())![1]);
  expect(recovered).toBeGreaterThan(0);
  expect(recovered).toBeLessThan(24);

  const finals = [];
  for (const id of ids) {
    finals.push(
      await until(async () => {
        const s = await statusOf(second.base, id);
        return s.status !== 'pending' && s;
      }, `job ${id} to finish after the restart`, 60_000),
    );
  }
  expect(finals.map((s) => s.status)).toEqual(ids.map(() => 'done'));
  expect(finals.map((s) => s.results.length)).toEqual(ids.map(() => 1));
  expect(finals.map((s) => s.results[0].metadata.url)).toEqual(urls);

  // Every job's webhook arrives (at least once: a delivery cut by the kill is repeated).
  await until(() => {
    const got = new Set(hooks.requests.map((r) => JSON.parse(r.body.toString()).job_id));
    return ids.every((id) => got.has(id));
  }, "every job's webhook", 30_000);
  const delivered = new Set(hooks.requests.map((r) => JSON.parse(r.body.toString()).job_id));
  expect(ids.filter((id) => !delivered.has(id))).toEqual([]);

  second.child.kill('SIGTERM');
  expect(await new Promise((r) => second.child.once('exit', r))).toBe(0);
}, 120_000);
