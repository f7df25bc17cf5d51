/**
 * Gateway front door against bare uWS (issue: foundation). Two servers in processes of their
 * own — the service (bench/gateway.ts --serve) and bench/hello.ts — and one load generator in
 * this process, same connections, same duration, alternating so that machine load drifts
 * across both sides alike:
 *   - GET /hello              vs GET /v1/scrapers          (auth, router, a 14 KB JSON answer)
 *   - POST /hello (body read) vs POST /v1/scrape, invalid  (auth, body, parse, ajv, problem doc)
 * Target: each validated path keeps at least half of the bare throughput.
 *
 *   node --import tsx bench/gateway.ts [--seconds 5] [--connections 32]
 *   node --import tsx bench/gateway.ts --serve [--workers 1] [--contexts 2] [--config JSON]   (the service alone)
 *
 * The service logs at `info` (the `npm start` default) to /dev/null: the per-request log line is
 * part of its cost. BENCH_GATEWAY_LOG=silent measures without it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../core/config.js';
import { isMain, onStop, startService, tell, type Service } from './child.js';
import { arg, argString } from './farm/measure.js';
import { runLoad, type LoadResult, type LoadSpec } from './load.js';
import { ratio, type Section } from './report.js';

export interface GatewayInfo {
  url: string;
  key: string;
  dataDir: string;
}

/** Starts the real service in a child process (LMDB in a temp dir, bootstrap key). */
export async function startGatewayService(workers: number, extra: string[] = []): Promise<Service<GatewayInfo>> {
  // `--dist`: the compiled service in plain node (serve-dist.mjs), as `npm start` runs it: no
  // tsx and no test helpers in its main isolate, so its memory is a deployed node's.
  const dist = extra.includes('--dist');
  const script = dist ? 'bench/serve-dist.mjs' : 'bench/gateway.ts';
  const args = dist ? ['--workers', String(workers), ...distArgs(extra)] : ['--serve', '--workers', String(workers), ...extra];
  const svc = await startService<GatewayInfo>(script, args, {
    TEST_LOG_LEVEL: process.env.BENCH_GATEWAY_LOG ?? 'info',
  });
  const stop = svc.stop;
  // A killed child cannot remove its temp dir: do it here either way.
  return { ...svc, stop: async (graceMs) => (await stop(graceMs), rmSync(svc.info.dataDir, { recursive: true, force: true })) };
}

/** serve-dist.mjs takes every setting as `--config` JSON: `--contexts N` joins it. */
function distArgs(extra: string[]): string[] {
  const at = (name: string) => extra.indexOf(name);
  const config: Record<string, unknown> = at('--config') >= 0 ? (JSON.parse(extra[at('--config') + 1]!) as Record<string, unknown>) : {};
  if (at('--contexts') >= 0) config.contextsPerWorker = Number(extra[at('--contexts') + 1]);
  return ['--config', JSON.stringify(config)];
}

export const INVALID_SCRAPE_BODY = JSON.stringify({ url: 'not a url', output: ['pdf'], render_wait: -1 });

export interface GatewayOptions {
  seconds: number;
  connections: number;
}

export async function runGatewayBench(opts: GatewayOptions): Promise<Section> {
  const hello = await startService<{ url: string }>('bench/hello.ts');
  const gw = await startGatewayService(1);
  const auth = { authorization: `Bearer ${gw.info.key}` };
  const common = { connections: opts.connections, durationMs: opts.seconds * 1000, warmupMs: 1000 };
  const pairs: Array<[LoadSpec, LoadSpec]> = [
    [
      { ...common, name: 'bare uWS GET /hello', origin: hello.info.url, method: 'GET', path: '/hello', expectStatus: 200, serverPid: hello.pid },
      { ...common, name: 'gateway GET /v1/scrapers', origin: gw.info.url, method: 'GET', path: '/v1/scrapers', headers: auth, expectStatus: 200, serverPid: gw.pid },
    ],
    [
      { ...common, name: 'bare uWS POST /hello', origin: hello.info.url, method: 'POST', path: '/hello', headers: { 'content-type': 'application/json' }, body: INVALID_SCRAPE_BODY, expectStatus: 200, serverPid: hello.pid },
      { ...common, name: 'gateway POST /v1/scrape (invalid → 400)', origin: gw.info.url, method: 'POST', path: '/v1/scrape', headers: { ...auth, 'content-type': 'application/json' }, body: INVALID_SCRAPE_BODY, expectStatus: 400, serverPid: gw.pid },
    ],
  ];
  const rows: Record<string, unknown>[] = [];
  const notes: string[] = [];
  try {
    for (const [bare, ours] of pairs) {
      const b = await runLoad(bare);
      const o = await runLoad(ours);
      rows.push(row(b, 1), row(o, o.rps / b.rps));
      const r = o.rps / b.rps;
      notes.push(`${ours.name}: ${ratio(r)} of bare throughput (target ≥ 0.50: ${r >= 0.5 ? 'met' : 'NOT met'}); server CPU per request ${ratio(o.serverCpuUsPerReq / b.serverCpuUsPerReq)} of bare.`);
      if (b.clientCpuPct >= 90) notes.push(`${bare.name}: the load generator was at ${b.clientCpuPct}% CPU, so the bare number is client-bound (an underestimate) and the ratio an overestimate; compare server CPU per request.`);
    }
  } finally {
    await Promise.all([hello.stop(), gw.stop()]);
  }
  return {
    id: 'gateway',
    title: `Gateway front door vs bare uWS (${opts.connections} connections, ${opts.seconds} s each, loopback)`,
    tables: [{ rows }],
    notes,
  };
}

function row(r: LoadResult, vsBare: number): Record<string, unknown> {
  return {
    target: r.name,
    'req/s': r.rps,
    'p50 ms': r.p50Ms,
    'p99 ms': r.p99Ms,
    'vs bare': ratio(vsBare),
    'server CPU µs/req': r.serverCpuUsPerReq,
    'server CPU %': r.serverCpuPct,
    'client CPU %': r.clientCpuPct,
    'bad answers': r.unexpected + r.errors,
  };
}

/** The service from dist/, set up as test/helpers/gateway.ts sets it up from source. */
async function startCompiled(overrides: Partial<Config>): Promise<{ url: string; key: string; dataDir: string; close(): Promise<void> }> {
  const { TEST_KEY } = await import('../test/helpers/gateway.js');
  // Computed specifiers: dist/ has no type declarations; its modules are the sources' own.
  const from = (path: string) => `../dist/${path}`;
  const { loadConfig } = (await import(from('core/config.js'))) as typeof import('../core/config.js');
  const { createLogger } = (await import(from('core/log.js'))) as typeof import('../core/log.js');
  const { startServer } = (await import(from('gateway/server.js'))) as typeof import('../gateway/server.js');
  const dataDir = mkdtempSync(join(tmpdir(), 'gleaner-bench-'));
  const config = loadConfig({}, { host: '127.0.0.1', port: 0, realtimePort: 0, dataPort: 0, dataDir, bootstrapApiKey: TEST_KEY, allowPrivate: true, logLevel: 'silent', ...overrides });
  const server = await startServer({ config, logger: createLogger(process.env.TEST_LOG_LEVEL ?? 'silent') });
  return { url: server.url, key: TEST_KEY, dataDir, close: async () => (await server.close(), rmSync(dataDir, { recursive: true, force: true })) };
}

async function serve(): Promise<void> {
  // Imported here, not at the top: row processes import this module only to start the service.
  const { startGateway } = await import('../test/helpers/gateway.js');
  const overrides: Partial<Config> = { workers: arg('workers', 1) };
  if (process.argv.includes('--contexts')) overrides.contextsPerWorker = arg('contexts', 2);
  // Any other setting, as JSON (`{"targets": {...}, "browserIdleMs": 5000}`): the per-family and soak benches.
  const more = argString('config');
  if (more) Object.assign(overrides, JSON.parse(more) as Partial<Config>);
  // `--dist`: the compiled service (`npm run build` first), as `npm start` runs it; from source
  // every worker thread also loads tsx and transpiles the farm (~15 MB and a slower start each).
  const gw = process.argv.includes('--dist') ? await startCompiled(overrides) : await startGateway(overrides);
  onStop(() => gw.close());
  const info: GatewayInfo = { url: gw.url, key: gw.key, dataDir: gw.dataDir };
  if (process.send) await tell({ type: 'ready', info });
  else console.log(`gateway listening on ${gw.url} (key ${gw.key}, data in ${gw.dataDir})`);
}

if (isMain(import.meta)) {
  if (process.argv.includes('--serve')) await serve();
  else {
    const { printSection } = await import('./report.js');
    printSection(await runGatewayBench({ seconds: arg('seconds', 5), connections: arg('connections', 32) }));
  }
}
