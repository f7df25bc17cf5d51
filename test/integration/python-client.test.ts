/**
 * The Python client test (test/clients/jobapi_client.py: requests + aiohttp, realtime and
 * push-pull, error paths) against a live gateway and the simulator. It needs a python3 that
 * can import both modules: `python3` first, then Debian's `/usr/bin/python3` (`apt-get install
 * python3-requests python3-aiohttp`, as .ci/run does). Without one the test is skipped and its
 * name says why.
 */
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSimulator, type Simulator } from '../sites/server.js';
import { startGateway, TEST_PASSWORD, TEST_USER, type TestGateway } from '../helpers/gateway.js';

const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), '..', 'clients', 'jobapi_client.py');

function findPython(): { python?: string; reason: string } {
  const tried: string[] = [];
  for (const candidate of ['python3', '/usr/bin/python3']) {
    const r = spawnSync(candidate, ['-c', 'import requests, aiohttp'], { encoding: 'utf8' });
    if (r.status === 0) return { python: candidate, reason: '' };
    const missing = /No module named '([^']+)'/.exec(r.stderr ?? '')?.[1];
    tried.push(`${candidate}: ${r.error ? 'not found' : missing ? `no module ${missing}` : `exit ${r.status}`}`);
  }
  return { reason: tried.join('; ') };
}

const { python, reason } = findPython();
// (spawnSync above is fine: no gateway is running yet. The client itself runs with spawn.)
let sim: Simulator;
let gw: TestGateway;

beforeAll(async () => {
  if (!python) return;
  sim = await startSimulator();
  gw = await startGateway();
});
afterAll(async () => {
  await gw?.close();
  await sim?.close();
});

/** Runs the client asynchronously: the gateway answering it lives on this thread's event loop. */
function runClient(env: Record<string, string>): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(python!, [SCRIPT], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stderr });
    });
  });
}

test.skipIf(!python)(`python client (requests + aiohttp) works with only its base URLs changed${python ? '' : ` — skipped: ${reason}`}`, async () => {
  const run = await runClient({
      ...process.env,
    GLEANER_REALTIME_URL: `http://127.0.0.1:${gw.server.realtimePort}`,
    GLEANER_DATA_URL: `http://127.0.0.1:${gw.server.dataPort}`,
    GLEANER_USER: TEST_USER,
    GLEANER_PASSWORD: TEST_PASSWORD,
    SITE_URL: sim.origin,
    // Loopback only: no proxy from the environment.
    NO_PROXY: '*',
  });
  // unittest reports on stderr; show it whole when something failed.
  expect(run.stderr, run.stderr).toMatch(/\nOK\s*$/);
  expect(run.stderr).toMatch(/Ran 8 tests/);
  expect(run.status).toBe(0);
}, 150_000);
