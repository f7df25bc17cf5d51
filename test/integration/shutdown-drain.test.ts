/**
 * SIGTERM drains within the drain deadline, then stops, even with a worker stuck in synchronous
 * work (issue 24 A: a node busy with 1,000,000-deep pages did not stop on SIGTERM). The service
 * runs as an operator runs it, in a process of its own; the job it was running stays queued in
 * LMDB for the next start.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, test } from 'vitest';
import { openStore } from '../../core/store/index.js';
import { startHeavySite, type HeavySite } from '../helpers/heavy-site.js';
import { settledWithin } from '../helpers/deadline.js';
import { until } from '../helpers/wait.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const KEY = 'drain-test-key-0123456789';
let child: ChildProcess | undefined;
let site: HeavySite | undefined;
let dataDir: string | undefined;

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await site?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test('SIGTERM with a job stuck in a huge page: the process exits after the drain deadline, the job stays queued', async () => {
  site = await startHeavySite();
  dataDir = mkdtempSync(join(tmpdir(), 'gleaner-drain-'));
  const drainMs = 3000;
  const proc = spawn(process.execPath, ['--import', 'tsx', join(root, 'gateway/cli.ts'), 'serve'], {
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
      // The drain deadline is the sync deadline; the job's own deadline is far beyond it.
      GLEANER_SYNC_TIMEOUT_MS: String(drainMs),
      GLEANER_JOB_TIMEOUT_MS: '600000',
      GLEANER_TASK_MAX_BYTES: String(2 * 1024 ** 3),
      GLEANER_LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = proc;
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((r) => proc.on('exit', (code) => r(code)));
  const port = await until(() => /"port":(\d+).*"msg":"gleaner ready"/.exec(out)?.[1], 'the service to start', 60_000);

  // Sixty 11 MB pages of 1,000,000 nested divs: minutes of parsing, each page one synchronous step.
  const submit = await fetch(`http://127.0.0.1:${port}/v1/async/scrape/mkt1`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${site.url}/s?k=deep1000000`, pages: 60, output: ['json'] }),
  });
  expect(submit.status).toBe(202);
  const id = ((await submit.json()) as { metadata: { request_id: string } }).metadata.request_id;
  // The worker has the first page: it is parsing it.
  await until(() => site!.hits >= 1, 'the job to fetch its first page', 60_000);

  proc.kill('SIGTERM');
  expect(await settledWithin(exited, `the process to exit after SIGTERM; output:\n${out.slice(-3000)}`, 60_000)).toBe(0);
  expect(out).toContain('drain deadline reached: running jobs aborted, they stay queued for the next start');
  expect(out).toContain('"msg":"gleaner stopped"');

  // Nothing lost: the job is not final, so the next start runs it.
  const store = await openStore({ dataDir });
  try {
    expect(['pending', 'running']).toContain((await store.jobs.get(id))?.status);
  } finally {
    await store.close();
  }
}, 180_000);
