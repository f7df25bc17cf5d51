/**
 * Gleaner nodes for the cluster tests, started as an operator would: `gleaner serve` as a
 * process with only the README's environment variables (GLEANER_CLUSTER and the usual
 * settings), on free ports, each with its own data folder. A node can be killed with SIGKILL
 * and started again with the same settings (it rejoins under the same node id).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { gleanerCommand, REPO, runGleaner, startGleaner, type GleanerProcess } from '../helpers/executable.js';
import { freePort } from '../helpers/nats.js';

export const KEY = 'cluster-test-key-0123456789';

export interface Node {
  id: string;
  url: string;
  env: Record<string, string>;
  proc: GleanerProcess;
  /** Output of the node's earlier processes (before a kill). */
  earlier: string[];
}

/** The environment every process of the test cluster shares (nodes and CLI). */
export function clusterEnv(cluster: string, extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), GLEANER_CLUSTER: cluster, ...extra };
}

export async function startNode(id: string, cluster: string, extra: Record<string, string> = {}, attempt = 0): Promise<Node> {
  const port = await freePort();
  const env = clusterEnv(cluster, {
    GLEANER_NODE_ID: id,
    GLEANER_PORT: String(port),
    GLEANER_REALTIME_PORT: String(await freePort()),
    GLEANER_DATA_PORT: String(await freePort()),
    GLEANER_DATA_DIR: mkdtempSync(join(tmpdir(), `gleaner-${id}-`)),
    GLEANER_BOOTSTRAP_API_KEY: KEY,
    GLEANER_WORKERS: '1',
    GLEANER_ALLOW_PRIVATE: '1',
    GLEANER_DELIVERY_BASE_MS: '50',
    GLEANER_DELIVERY_MAX_MS: '200',
    GLEANER_JOB_MAX_STARTS: '2',
    GLEANER_CLUSTER_ACK_WAIT_MS: '4000',
    ...extra,
  });
  try {
    return await restartNode({ id, url: `http://127.0.0.1:${port}`, env, proc: undefined as unknown as GleanerProcess, earlier: [] });
  } catch (err) {
    // The ports were free when picked; a server of another test file (running in parallel) may
    // bind one before the node does. New ports, then.
    if (attempt < 3 && /port is in use/.test(String((err as Error).message))) return startNode(id, cluster, extra, attempt + 1);
    throw err;
  }
}

/** Starts (again) a node with its settings; resolves when it is ready. */
export async function restartNode(node: Node): Promise<Node> {
  if (node.proc) node.earlier.push(node.proc.output());
  node.proc = startGleaner(gleanerCommand(false), ['serve'], { cwd: REPO, env: node.env });
  await node.proc.waitFor((l) => l.msg === 'gleaner ready', 60_000);
  return node;
}

export async function killNode(node: Node): Promise<void> {
  node.proc.child.kill('SIGKILL');
  await node.proc.exited;
}

export function cli(cluster: string, args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return runGleaner(gleanerCommand(false), args, { cwd: REPO, env: clusterEnv(cluster, { GLEANER_DATA_DIR: mkdtempSync(join(tmpdir(), 'gleaner-cli-')) }) });
}

export const auth = (key = KEY) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });

export async function api(node: Node, path: string, init: { method?: string; body?: unknown; key?: string } = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(node.url + path, { method: init.method ?? (init.body ? 'POST' : 'GET'), headers: auth(init.key), body: init.body ? JSON.stringify(init.body) : undefined });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, body };
}

/** Polls until `check` holds, or throws after `ms`. */
export async function until(check: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface FeedEvent {
  type: string;
  job_id: string;
  node?: string;
  at?: number;
}

/** The job feed of one node (admin key), collecting events. */
export async function openFeed(node: Node): Promise<{ events: FeedEvent[]; close(): void }> {
  const ws = new WebSocket(`${node.url.replace('http', 'ws')}/v1/feed?format=json`, { headers: { authorization: `Bearer ${KEY}` } });
  const events: FeedEvent[] = [];
  ws.on('message', (data) => events.push(JSON.parse(String(data)) as FeedEvent));
  await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
  return { events, close: () => ws.close() };
}
