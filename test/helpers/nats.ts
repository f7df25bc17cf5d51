/**
 * Real nats-server processes for tests: one server, or a cluster of three with routes between
 * them, each with JetStream in a temp folder and free ports. `kill(i)` is kill -9 of one;
 * `restart(i)` starts it again on the same ports and store. Needs `nats-server` on PATH or at
 * /usr/sbin/nats-server (Debian's package; CI installs it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const NATS_SERVER = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'].find((p) => existsSync(p)) ?? 'nats-server';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const ok = await new Promise<boolean>((r) => {
      const s = tcpConnect(port, '127.0.0.1');
      s.once('connect', () => (s.destroy(), r(true)));
      s.once('error', () => r(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`nats-server did not listen on ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface NatsServers {
  /** Client URLs, one per server. */
  urls: string[];
  /** `GLEANER_CLUSTER` for all of them. */
  cluster: string;
  kill(i: number): Promise<void>;
  restart(i: number): Promise<void>;
  output(i: number): string;
  stop(): Promise<void>;
}

export async function startNats(count: 1 | 3 = 1): Promise<NatsServers> {
  const dir = mkdtempSync(join(tmpdir(), 'gleaner-nats-'));
  const ports = await Promise.all(Array.from({ length: count }, freePort));
  const routePorts = await Promise.all(Array.from({ length: count }, freePort));
  const children: Array<ChildProcess | undefined> = [];
  const outputs: string[] = [];
  const args = (i: number): string[] => {
    const base = ['-a', '127.0.0.1', '-p', String(ports[i]), '-js', '-sd', join(dir, `s${i}`), '-n', `n${i}`];
    if (count === 1) return base;
    const routes = routePorts.filter((_, j) => j !== i).map((p) => `nats://127.0.0.1:${p}`).join(',');
    return [...base, '--cluster_name', 'gleaner-test', '--cluster', `nats://127.0.0.1:${routePorts[i]}`, '--routes', routes];
  };
  const start = async (i: number) => {
    const child = spawn(NATS_SERVER, args(i), { stdio: ['ignore', 'pipe', 'pipe'] });
    outputs[i] = '';
    child.stdout!.on('data', (d: Buffer) => (outputs[i] += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (outputs[i] += d.toString()));
    children[i] = child;
    await waitForPort(ports[i]!);
  };
  await Promise.all(ports.map((_, i) => start(i)));
  const urls = ports.map((p) => `nats://127.0.0.1:${p}`);
  const kill = async (i: number) => {
    const child = children[i];
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
    children[i] = undefined;
  };
  return {
    urls,
    cluster: urls.join(','),
    kill,
    restart: start,
    output: (i) => outputs[i] ?? '',
    async stop() {
      await Promise.all(children.map((_, i) => kill(i)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
