/**
 * Cluster mode (issue #21) against embedded mode, on one machine, in the same run:
 *  - submit: N single-job `POST /v1/async/scrape` (32 connections, spread over the nodes),
 *    each 202 durable (LMDB commit / JetStream publish acknowledged): jobs per second;
 *  - completion: from the first submit until the feed has shown N `done` events: jobs per second.
 * Rows: embedded (1 node, LMDB); cluster 1 node (1 nats-server, R1); cluster 1 node on 3
 * nats-servers (R3); cluster 2 and 3 nodes (1 nats-server). Every Gleaner node is a process
 * (`node bin/gleaner.js serve`, `npm run build` first) with GLEANER_WORKERS=1; pages come from
 * the simulator's `/static`. Several rounds; medians; ratios against embedded of the same round.
 *
 *   node --import tsx bench/cluster.ts [--jobs 1000] [--rounds 3]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'undici';
import WebSocket from 'ws';
import { startService } from './child.js';
import { arg } from './farm/measure.js';
import { gleanerCommand, REPO, startGleaner, type GleanerProcess } from '../test/helpers/executable.js';
import { freePort, startNats, type NatsServers } from '../test/helpers/nats.js';

const KEY = 'bench-cluster-key-0123456789';

interface Row {
  config: string;
  submitPerS: number;
  donePerS: number;
}

async function startNodes(count: number, cluster: string | undefined): Promise<{ urls: string[]; procs: GleanerProcess[]; dirs: string[] }> {
  const urls: string[] = [];
  const procs: GleanerProcess[] = [];
  const dirs: string[] = [];
  for (let i = 0; i < count; i++) {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'gleaner-bench-'));
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? tmpdir(),
      GLEANER_PORT: String(port),
      GLEANER_REALTIME_PORT: String(await freePort()),
      GLEANER_DATA_PORT: String(await freePort()),
      GLEANER_DATA_DIR: dir,
      GLEANER_BOOTSTRAP_API_KEY: KEY,
      GLEANER_WORKERS: '1',
      GLEANER_ALLOW_PRIVATE: '1',
      GLEANER_LOG_LEVEL: 'warn',
      ...(cluster ? { GLEANER_CLUSTER: cluster, GLEANER_NODE_ID: `bench-${i}` } : {}),
    };
    const proc = startGleaner(gleanerCommand(false), ['serve'], { cwd: REPO, env });
    procs.push(proc);
    dirs.push(dir);
    urls.push(`http://127.0.0.1:${port}`);
    // The first node creates the streams; the others bind.
    await waitReady(urls[i]!);
  }
  return { urls, procs, dirs };
}

async function waitReady(url: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    try {
      const res = await fetch(`${url}/readyz`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} never ready`);
}

async function measure(config: string, urls: string[], sim: string, jobs: number): Promise<Row> {
  // The feed of one node shows every node's events (cluster) or its own (embedded).
  const ws = new WebSocket(`${urls[0]!.replace('http', 'ws')}/v1/feed?format=json`, { headers: { authorization: `Bearer ${KEY}` } });
  let done = 0;
  let allDone: () => void = () => {};
  const finished = new Promise<void>((r) => (allDone = r));
  ws.on('message', (data) => {
    const e = JSON.parse(String(data)) as { type: string };
    if (e.type === 'done' || e.type === 'failed') if (++done >= jobs) allDone();
  });
  await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
  const dispatcher = new Agent({ connections: 32, pipelining: 1 });
  const body = JSON.stringify({ url: `${sim}/static` });
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= jobs) return;
      const res = await request(`${urls[i % urls.length]}/v1/async/scrape`, { method: 'POST', dispatcher, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body });
      await res.body.text();
      if (res.statusCode !== 202) throw new Error(`submit answered ${res.statusCode}`);
    }
  };
  await Promise.all(Array.from({ length: 32 }, worker));
  const submitted = performance.now();
  await Promise.race([finished, new Promise((_, reject) => setTimeout(() => reject(new Error(`${config}: ${done}/${jobs} done after 300 s`)), 300_000))]);
  const completed = performance.now();
  ws.close();
  await dispatcher.close();
  return { config, submitPerS: Math.round(jobs / ((submitted - started) / 1000)), donePerS: Math.round(jobs / ((completed - started) / 1000)) };
}

async function runConfig(config: string, nodes: number, natsCount: 0 | 1 | 3, sim: string, jobs: number): Promise<Row> {
  let nats: NatsServers | undefined;
  if (natsCount > 0) nats = await startNats(natsCount as 1 | 3);
  const started = await startNodes(nodes, nats?.cluster);
  try {
    return await measure(config, started.urls, sim, jobs);
  } finally {
    for (const p of started.procs) p.child.kill('SIGKILL');
    await Promise.all(started.procs.map((p) => p.exited));
    for (const d of started.dirs) rmSync(d, { recursive: true, force: true });
    await nats?.stop();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const jobs = arg('jobs', 1000);
  const rounds = arg('rounds', 3);
  const sim = await startService<{ origin: string }>('bench/sim.ts');
  const configs: Array<[string, number, 0 | 1 | 3]> = [
    ['embedded, 1 node (LMDB)', 1, 0],
    ['cluster, 1 node, 1 nats-server (R1)', 1, 1],
    ['cluster, 1 node, 3 nats-servers (R3)', 1, 3],
    ['cluster, 2 nodes, 1 nats-server', 2, 1],
    ['cluster, 3 nodes, 1 nats-server', 3, 1],
  ];
  const results = new Map<string, Row[]>();
  const loads: string[] = [];
  try {
    for (let r = 0; r < rounds; r++) {
      loads.push(readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '));
      for (const [name, nodes, natsCount] of configs) {
        const row = await runConfig(name, nodes, natsCount, sim.info.origin, jobs);
        results.set(name, [...(results.get(name) ?? []), row]);
        process.stderr.write(`round ${r + 1}: ${name}: submit ${row.submitPerS}/s, done ${row.donePerS}/s\n`);
      }
    }
  } finally {
    await sim.stop();
  }
  const base = results.get(configs[0]![0])!;
  // Ratios against embedded within each round, then the median ratio.
  const rows = configs.map(([name]) => {
    const runs = results.get(name)!;
    return {
      config: name,
      'submit jobs/s (median)': median(runs.map((x) => x.submitPerS)),
      'submit vs embedded': median(runs.map((x, i) => x.submitPerS / base[i]!.submitPerS)).toFixed(2),
      'completed jobs/s (median)': median(runs.map((x) => x.donePerS)),
      'completion vs embedded': median(runs.map((x, i) => x.donePerS / base[i]!.donePerS)).toFixed(2),
    };
  });
  console.table(rows);
  console.log(`${jobs} jobs per row, ${rounds} rounds; load average at each round's start: ${loads.join(' | ')}`);
}

await main();
