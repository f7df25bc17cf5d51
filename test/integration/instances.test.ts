/**
 * Issue 24 E: one service per port and per data directory. A second service on a taken port
 * (uWS would share it through SO_REUSEPORT) or on a data directory a live service holds
 * refuses to start with a clear message; a lock left by `kill -9` does not block a restart; the
 * offline CLI keeps working while the service runs. Real processes, real sockets, LMDB in temp
 * folders.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DataDirInUseError, LOCK_FILE } from '../../gateway/instance-lock.js';
import { ListenError } from '../../gateway/listener.js';
import { call, startGateway, type TestGateway } from '../helpers/gateway.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const KEY = 'instances-test-key-0123456789';
const temp: string[] = [];
const children: ChildProcess[] = [];

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gleaner-instances-'));
  temp.push(dir);
  return dir;
}

afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  for (const dir of temp) rmSync(dir, { recursive: true, force: true });
});

describe('in one process', () => {
  let first: TestGateway;
  beforeAll(async () => {
    first = await startGateway();
  });
  afterAll(async () => first?.close());

  test('a taken port (any of the three) refuses to start and names the port; the first keeps all its traffic', async () => {
    const ports = { port: first.server.port, realtimePort: first.server.realtimePort, dataPort: first.server.dataPort };
    for (const [name, what] of [['port', 'Web API, GLEANER_PORT'], ['realtimePort', 'Job API realtime, GLEANER_REALTIME_PORT'], ['dataPort', 'Job API push-pull, GLEANER_DATA_PORT']] as const) {
      const taken = ports[name];
      const err = await startGateway({ [name]: taken }).then(
        async (second) => {
          await second.close();
          return undefined;
        },
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ListenError);
      expect((err as Error).message).toBe(
        `cannot listen on 127.0.0.1:${taken} (${what}): the port is in use (another gleaner service, or another program: \`ss -ltnp\` shows which)`,
      );
    }
    // Every connection still reaches the first service.
    for (let i = 0; i < 20; i++) expect((await call(`${first.url}/healthz`)).status).toBe(200);
  });

  test('a port held by another program is refused the same way', async () => {
    const other: Server = createServer();
    await new Promise<void>((ok) => other.listen(0, '127.0.0.1', ok));
    const port = (other.address() as { port: number }).port;
    try {
      await expect(startGateway({ port })).rejects.toThrow(`cannot listen on 127.0.0.1:${port} (Web API, GLEANER_PORT): the port is in use`);
    } finally {
      other.close();
    }
  });

  test('a data directory in use by a live service is refused, naming its pid; released on close', async () => {
    const dir = tempDir();
    const a = await startGateway({ dataDir: dir });
    const err = await startGateway({ dataDir: dir }).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(DataDirInUseError);
    expect((err as Error).message).toBe(
      `the data directory ${dir} is in use by another gleaner service (pid ${process.pid}); stop it first, or give this one another GLEANER_DATA_DIR`,
    );
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')).pid).toBe(process.pid);
    await a.server.close();
    // Closed: the lock is gone and a new service starts on the same folder.
    const b = await startGateway({ dataDir: dir });
    expect((await call(`${b.url}/healthz`)).status).toBe(200);
    await b.server.close();
  });

  test('a lock whose pid is alive but started at another time (pid reused) is stale', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: process.pid, started: 1 }));
    const gw = await startGateway({ dataDir: dir });
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')).started).not.toBe(1);
    await gw.server.close();
  });
});

/** `gleaner <args>` from source, as jobs-crash.test.ts runs it. */
function gleaner(args: string[], env: Record<string, string>): { child: ChildProcess; out: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'gateway/cli.ts'), ...args], {
    cwd: root,
    env: { ...process.env, GLEANER_PORT: '0', GLEANER_REALTIME_PORT: '0', GLEANER_DATA_PORT: '0', GLEANER_WORKERS: '1', GLEANER_BOOTSTRAP_API_KEY: KEY, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return { child, out: () => out, exited };
}

/** Resolves with the Web API port once the service logs "gleaner ready"; fails with its output otherwise. */
function ready(p: ReturnType<typeof gleaner>): Promise<number> {
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`no "gleaner ready" in 30 s:\n${p.out()}`)), 30_000);
    const check = (): void => {
      const m = /"port":(\d+).*"msg":"gleaner ready"/.exec(p.out());
      if (m) {
        clearTimeout(timer);
        ok(Number(m[1]));
      }
    };
    p.child.stdout!.on('data', check);
    void p.exited.then((code) => {
      clearTimeout(timer);
      fail(new Error(`gleaner exited with ${code}:\n${p.out()}`));
    });
  });
}

test('across processes: a second serve is refused, the CLI works meanwhile, kill -9 leaves no blocking lock', async () => {
  const dataDir = tempDir();
  const first = gleaner(['serve'], { GLEANER_DATA_DIR: dataDir });
  const port = await ready(first);

  const second = gleaner(['serve'], { GLEANER_DATA_DIR: dataDir });
  expect(await second.exited).toBe(1);
  expect(second.out()).toContain(`gleaner: the data directory ${dataDir} is in use by another gleaner service (pid ${first.child.pid})`);

  // The offline CLI writes into the store while the service runs, and the service sees it.
  const created = gleaner(['keys', 'create', '--label', 'while-running'], { GLEANER_DATA_DIR: dataDir });
  expect(await created.exited).toBe(0);
  const key = /^(glk_\S+)$/m.exec(created.out())?.[1];
  expect(key).toBeDefined();
  expect((await call(`http://127.0.0.1:${port}/v1/scrapers`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);

  first.child.kill('SIGKILL');
  await first.exited;
  // The lock file is still there, naming a dead process: the restart takes it over.
  expect(JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8')).pid).toBe(first.child.pid);
  const restarted = gleaner(['serve'], { GLEANER_DATA_DIR: dataDir });
  const again = await ready(restarted);
  expect((await call(`http://127.0.0.1:${again}/healthz`)).status).toBe(200);
  restarted.child.kill('SIGTERM');
  expect(await restarted.exited).toBe(0);
}, 120_000);
