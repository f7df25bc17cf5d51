/**
 * Issue 16, defect 8: webhook and bucket retries are bounded by a time horizon, not a count; a
 * delivery given up is kept in the dead-letter list, and `gleaner deliveries list|retry` (the
 * real CLI, in a child process on the same LMDB folder while the service runs) lists and
 * redelivers it. Real gateway, webhook receiver and SigV4-checking S3 server.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../../core/config.js';
import { startSimulator, type Simulator } from '../sites/server.js';
import { postJson, startGateway, type TestGateway } from '../helpers/gateway.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { startS3Server, type S3Server } from '../helpers/s3.js';
import { until as untilTruthy } from '../helpers/wait.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const HORIZON_MS = 3000;

let sim: Simulator;
let gw: TestGateway;
let hooks: Receiver;
let s3: S3Server;

beforeAll(async () => {
  [sim, hooks, s3] = await Promise.all([startSimulator(), startReceiver(), startS3Server({ keys: { AKTEST: 'secret-test-key' }, buckets: ['results'] })]);
  gw = await startGateway({
    deliveryHorizonMs: HORIZON_MS,
    deliveryBaseMs: 10,
    deliveryMaxMs: 60,
    storage: { s3: { accessKeyId: 'AKTEST', secretAccessKey: 'secret-test-key', endpoint: s3.endpoint, region: 'us-east-1', buckets: { '*': ['results'] } } },
  });
});
afterAll(async () => {
  await gw?.close();
  await Promise.all([sim?.close(), hooks?.close(), s3?.close()]);
});

/** The real CLI on the service's data folder. */
function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'gateway/cli.ts'), ...args], {
    cwd: root,
    env: { ...process.env, GLEANER_DATA_DIR: gw.dataDir },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The first defined value of `get` (undefined: not yet), with a deadline that fails the test. */
async function until<T>(get: () => T | undefined | Promise<T | undefined>, ms = 15_000, what = 'the awaited delivery state'): Promise<T> {
  return (await untilTruthy(async () => {
    const v = await get();
    return v === undefined ? undefined : { v };
  }, what, ms, 20)).v;
}

const delivery = (id: string, kind: 'webhook' | 'storage', state: string) => async () => {
  const d = (await gw.server.store.jobs.get(id))?.deliveries[kind];
  return d?.state === state ? d : undefined;
};

test('defaults: no count bound, a 24-hour horizon', () => {
  const c = loadConfig({});
  expect([c.deliveryAttempts, c.deliveryHorizonMs, loadConfig({ GLEANER_DELIVERY_HORIZON_MS: '60000' }).deliveryHorizonMs]).toEqual([0, 86_400_000, 60_000]);
});

describe('webhooks', () => {
  test('a receiver down for more attempts than the old budget (8) still gets its delivery within the horizon', async () => {
    hooks.failFirst(12, 503);
    const a = await postJson(gw, '/v1/async/scrape', { url: `${sim.origin}/static?hook=late`, callback_url: hooks.url });
    const id = a.body.metadata.request_id;
    const d = await until(delivery(id, 'webhook', 'delivered'));
    expect([d.attempts, d.lastError]).toEqual([13, undefined]);
    expect((await gw.server.store.deliveries.deadLetters()).filter((l) => l.jobId === id)).toEqual([]);
  });

  test('down past the horizon: failed, kept as a dead letter, listed by the CLI and redelivered by it', async () => {
    hooks.failFirst(10_000, 503);
    const a = await postJson(gw, '/v1/async/scrape', { url: `${sim.origin}/static?hook=dead`, callback_url: hooks.url });
    const id: string = a.body.metadata.request_id;
    const failed = await until(delivery(id, 'webhook', 'failed'));
    const job = (await gw.server.store.jobs.get(id))!;
    // The last attempt is placed at the horizon at the latest, then the delivery is given up.
    expect(failed.lastError).toMatch(/^gave up after \d+ attempts over 3 s \(retry horizon 3 s\); last error: webhook receiver answered HTTP 503/);
    expect(failed.attempts).toBeGreaterThan(8);
    expect(job.expiresAt).toBeGreaterThan((job.finishedAt ?? 0) + 86_400_000);

    const listed = cli('deliveries', 'list');
    expect(listed.status).toBe(0);
    const line = listed.stdout.split('\n').find((l) => l.startsWith(id))!;
    expect(line.split('\t').slice(0, 5)).toEqual([id, 'webhook', 'account=1', 'route=universal', `to=${hooks.url}`]);
    expect(line).toContain(`attempts=${failed.attempts}\terror=gave up after`);
    const json = JSON.parse(cli('deliveries', 'list', '--json').stdout);
    expect(json.find((l: any) => l.jobId === id)).toMatchObject({ jobId: id, kind: 'webhook', clientId: 1, routeId: 'universal', attempts: failed.attempts, target: hooks.url });

    hooks.clear(); // the receiver is back
    const before = hooks.requests.length;
    const retried = cli('deliveries', 'retry', `${id}:webhook`);
    expect([retried.status, retried.stdout]).toEqual([0, `requeued ${id}:webhook\n`]);
    // The running service's outbox finds it (it looks every few seconds when idle).
    const d = await until(delivery(id, 'webhook', 'delivered'));
    expect([d.attempts, hooks.requests.length - before, JSON.parse(hooks.requests.at(-1)!.body.toString()).job_id]).toEqual([1, 1, id]);
    expect(cli('deliveries', 'list').stdout).not.toContain(id);
    // Retrying what is not a dead letter says so.
    const again = cli('deliveries', 'retry', id);
    expect([again.status, again.stdout]).toEqual([1, `no dead letter ${id}\n`]);
  }, 60_000);
});

describe('buckets', () => {
  test('a final refusal is a dead letter at once; retry --all uploads it once the bucket accepts', async () => {
    s3.failNext(1, 403, 'AccessDenied');
    const a = await postJson(gw, '/v1/async/scrape', { url: `${sim.origin}/static?bucket=dead`, storage: { type: 's3', url: 's3://results/dead/' } });
    const id: string = a.body.metadata.request_id;
    const failed = await until(delivery(id, 'storage', 'failed'));
    expect([failed.attempts, failed.lastError]).toEqual([1, expect.stringContaining('403')]);
    expect((await gw.server.store.deliveries.deadLetters()).map((l) => [l.jobId, l.kind]).filter(([j]) => j === id)).toEqual([[id, 'storage']]);

    const retried = cli('deliveries', 'retry', '--all');
    expect(retried.stdout).toContain(`requeued ${id}:storage\n`);
    const object = await until(() => s3.getObject('results', `dead/${id}.json`));
    expect(JSON.parse(object.body.toString()).metadata.request_id).toBe(id);
    expect(await until(delivery(id, 'storage', 'delivered'))).toMatchObject({ state: 'delivered', attempts: 1 });
  }, 60_000);
});
