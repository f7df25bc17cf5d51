/**
 * A small HTTP load generator on undici's Pool: `connections` keep-alive sockets, each with
 * `pipelining` requests in flight, for a bounded time and count, against loopback only.
 *
 * It runs in its own process (the caller), the server in another, so on two cores each side
 * gets one. When the client's CPU is near 100 % the client, not the server, is the limit:
 * the result says so (`clientCpuPct`), and the server's CPU per request (`serverCpuUsPerReq`,
 * from /proc) is the number that does not depend on the client.
 */
import { Pool } from 'undici';
import { treeCpuMs } from './farm/measure.js';

export interface LoadSpec {
  name: string;
  /** http://127.0.0.1:port — loopback only. */
  origin: string;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Any other status is counted as `unexpected`. */
  expectStatus: number;
  connections: number;
  pipelining?: number;
  durationMs: number;
  warmupMs?: number;
  /** Hard cap on measured requests (default 2,000,000). */
  maxRequests?: number;
  /** The server's pid, to meter its process tree's CPU during the run. */
  serverPid?: number;
}

export interface LoadResult {
  name: string;
  requests: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  unexpected: number;
  errors: number;
  /** CPU of this (client) process during the run, % of one core. */
  clientCpuPct: number;
  /** CPU of the server's process tree per request, µs (NaN without `serverPid`). */
  serverCpuUsPerReq: number;
  serverCpuPct: number;
}

const MAX_DURATION_MS = 60_000;
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/;

export function assertLoopback(origin: string): void {
  const host = new URL(origin).hostname;
  if (!LOOPBACK.test(host)) throw new Error(`load generator: refusing non-loopback target ${origin}`);
}

interface Phase {
  latencies: Float64Array;
  count: number;
  unexpected: number;
  errors: number;
  firstError?: string;
}

async function drive(pool: Pool, spec: LoadSpec, ms: number, cap: number, phase: Phase): Promise<void> {
  const until = performance.now() + ms;
  const lanes = spec.connections * (spec.pipelining ?? 1);
  const lane = async (): Promise<void> => {
    while (performance.now() < until && phase.count + phase.errors < cap) {
      const s = performance.now();
      try {
        const res = await pool.request({ path: spec.path, method: spec.method, headers: spec.headers, body: spec.body });
        await res.body.dump();
        if (res.statusCode !== spec.expectStatus) {
          if (phase.unexpected === 0 && !phase.firstError) phase.firstError = `status ${res.statusCode}`;
          phase.unexpected++;
        }
        if (phase.count < phase.latencies.length) phase.latencies[phase.count] = performance.now() - s;
        phase.count++;
      } catch (err) {
        phase.errors++;
        phase.firstError ??= (err as Error).message;
      }
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
}

/** Warm up, then measure for `durationMs` (bounded), and report throughput and latency. */
export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  assertLoopback(spec.origin);
  const durationMs = Math.min(spec.durationMs, MAX_DURATION_MS);
  const cap = spec.maxRequests ?? 2_000_000;
  const pool = new Pool(spec.origin, { connections: spec.connections, pipelining: spec.pipelining ?? 1, keepAliveTimeout: 30_000 });
  try {
    const warm: Phase = { latencies: new Float64Array(0), count: 0, unexpected: 0, errors: 0 };
    await drive(pool, spec, Math.min(spec.warmupMs ?? 1000, 10_000), cap, warm);
    if (warm.count === 0) throw new Error(`${spec.name}: no answer during warm-up (${warm.firstError ?? 'unknown'})`);

    const phase: Phase = { latencies: new Float64Array(cap), count: 0, unexpected: 0, errors: 0 };
    const server0 = spec.serverPid ? treeCpuMs(spec.serverPid) : NaN;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await drive(pool, spec, durationMs, cap, phase);
    const wall = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const serverMs = spec.serverPid ? treeCpuMs(spec.serverPid) - server0 : NaN;
    if (phase.unexpected + phase.errors > 0) console.error(`${spec.name}: ${phase.unexpected} unexpected, ${phase.errors} errors; first: ${phase.firstError}`);

    const lat = phase.latencies.subarray(0, Math.min(phase.count, cap)).sort();
    const q = (p: number) => (lat.length ? lat[Math.min(lat.length - 1, Math.floor(p * lat.length))]! : NaN);
    return {
      name: spec.name,
      requests: phase.count,
      rps: Math.round((phase.count / wall) * 1000),
      p50Ms: Math.round(q(0.5) * 100) / 100,
      p99Ms: Math.round(q(0.99) * 100) / 100,
      unexpected: phase.unexpected,
      errors: phase.errors,
      clientCpuPct: Math.round(((cpu.user + cpu.system) / 1000 / wall) * 100),
      serverCpuUsPerReq: Math.round((serverMs * 1000) / Math.max(1, phase.count)),
      serverCpuPct: Math.round((serverMs / wall) * 100),
    };
  } finally {
    await pool.close();
  }
}
