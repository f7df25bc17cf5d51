/**
 * Shared measuring for the end-to-end benchmarks: run `total` jobs with `concurrency` in
 * flight, record each latency, and meter the contender's whole process tree from /proc (this
 * process, its threads, and every descendant: browser server, Chromium, a gateway child).
 *
 * Each contender runs in a fresh process (see bench/child.ts), so the tree is exactly its own:
 * the simulator runs in a process of its own and is in no row.
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface RunStats {
  name: string;
  concurrency: number;
  pages: number;
  pagesPerSec: number;
  p50Ms: number;
  p95Ms: number;
  /** CPU (user + system) of the whole tree, Chromium included, per successful page. */
  cpuMsPerPage: number;
  /** Peak of the summed RSS of the tree (shared pages counted once per process: an upper bound). */
  peakRssMb: number;
  /**
   * Peak of the summed PSS of the tree (shared pages split between the processes sharing them:
   * what the tree costs the machine). Sampled every 500 ms: reading smaps_rollup walks page tables.
   */
  peakPssMb: number;
  failures: number;
  /** CPU the meter's own sampling spent per page, taken out of `cpuMsPerPage` (0: it ran elsewhere). */
  meterCpuMsPerPage?: number;
  /**
   * CPU of the simulator's process per page in the same window (it serves every contender, so
   * it bounds what two cores can do: pages/s ≤ cores × 1000 / (cpuMsPerPage + simCpuMsPerPage)).
   */
  simCpuMsPerPage?: number;
}

const HZ = 100; // USER_HZ: /proc times are in clock ticks
const PAGE_BYTES = 4096; // statm counts pages

function statFields(pid: number): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  } catch {
    return undefined; // exited
  }
}

/** Direct children of a process, from every thread (workers fork too). */
export function childrenOf(pid: number): number[] {
  const out: number[] = [];
  let tids: string[] = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      for (const kid of readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim().split(/\s+/)) if (kid) out.push(Number(kid));
    } catch {
      // thread gone
    }
  }
  return out;
}

/** A process and all its descendants (bounded walk). */
export function processTree(root: number = process.pid): number[] {
  const seen = new Set<number>();
  const stack = [root];
  while (stack.length > 0 && seen.size < 1024) {
    const pid = stack.pop()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    stack.push(...childrenOf(pid));
  }
  return [...seen];
}

/**
 * CPU ms of a tree: each live process's own time plus the time of the children it has reaped
 * (cutime/cstime), so a renderer that exited mid-run is still counted, once.
 */
export function treeCpuMs(root: number = process.pid): number {
  let ticks = 0;
  for (const pid of processTree(root)) {
    const f = statFields(pid);
    if (f) ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
  }
  return (ticks * 1000) / HZ;
}

export function treeRssBytes(root: number = process.pid): number {
  return rssOf(processTree(root));
}

/** Summed RSS of the given processes (statm: one short line, cheaper than status). */
function rssOf(pids: readonly number[]): number {
  let total = 0;
  for (const pid of pids) {
    try {
      total += Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * PAGE_BYTES;
    } catch {
      // exited
    }
  }
  return total;
}

/** PSS of a tree (Linux smaps_rollup; 0 where it cannot be read). */
export function treePssBytes(root: number = process.pid): number {
  return pssOf(processTree(root));
}

function pssOf(pids: readonly number[]): number {
  let total = 0;
  for (const pid of pids) {
    try {
      const m = /^Pss:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
      if (m) total += Number(m[1]) * 1024;
    } catch {
      // exited, or no smaps_rollup
    }
  }
  return total;
}

export interface Meter {
  stop(): { wallMs: number; cpuMs: number; peakRssBytes: number; peakPssBytes: number; meterCpuMs: number };
}

/**
 * On-CPU nanoseconds of the calling thread (Linux schedstat; kernel time included). The meter
 * runs on the contender's main thread, so what its own sampling costs is read around each sample
 * and taken out of the tree's CPU: walking a browser's process tree (every thread's `children`
 * file, every process's status) costs milliseconds per sample, which before this was charged to
 * the contender — several CPU-ms per page on the Chromium rows, next to nothing on one-process
 * rows.
 */
function threadCpuNs(): number {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]);
  } catch {
    return 0;
  }
}

/** How often the tree is walked again for new processes (a renderer started, a child forked). */
const TREE_REFRESH_MS = 1000;

/**
 * Starts metering a process tree: CPU from now (less the meter's own sampling), RSS sampled
 * every 100 ms and PSS every 500 ms over the tree found at most a second ago.
 */
export function startMeter(root: number = process.pid): Meter {
  let tree = processTree(root);
  let treeAt = performance.now();
  let overheadNs = 0;
  const sample = (read: (pids: readonly number[]) => number): number => {
    const t = threadCpuNs();
    if (performance.now() - treeAt >= TREE_REFRESH_MS) {
      tree = processTree(root);
      treeAt = performance.now();
    }
    const v = read(tree);
    overheadNs += threadCpuNs() - t;
    return v;
  };
  let peak = rssOf(tree);
  let peakPss = pssOf(tree);
  const sampler = setInterval(() => (peak = Math.max(peak, sample(rssOf))), 100);
  const pssSampler = setInterval(() => (peakPss = Math.max(peakPss, sample(pssOf))), 500);
  const cpu0 = treeCpuMs(root);
  const t0 = performance.now();
  return {
    stop() {
      const wallMs = performance.now() - t0;
      // Only a tree the meter runs in pays for its sampling (bench/jobs.ts meters another process).
      const own = tree.includes(process.pid) ? overheadNs / 1e6 : 0;
      const cpuMs = treeCpuMs(root) - cpu0 - own;
      clearInterval(sampler);
      clearInterval(pssSampler);
      tree = processTree(root);
      peak = Math.max(peak, rssOf(tree));
      peakPss = Math.max(peakPss, pssOf(tree));
      return { wallMs, cpuMs, peakRssBytes: peak, peakPssBytes: peakPss, meterCpuMs: own };
    },
  };
}

/** Quantile of an ascending array (NaN when empty). */
export function quantile(sorted: readonly number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

export function round(n: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/** A row from latencies and a stopped meter. */
export function statsFrom(name: string, concurrency: number, latencies: number[], failures: number, m: ReturnType<Meter['stop']>): RunStats {
  latencies.sort((a, b) => a - b);
  const n = latencies.length;
  return {
    name,
    concurrency,
    pages: n,
    pagesPerSec: round((n / m.wallMs) * 1000),
    p50Ms: round(quantile(latencies, 0.5)),
    p95Ms: round(quantile(latencies, 0.95)),
    cpuMsPerPage: round(m.cpuMs / Math.max(1, n), 2),
    peakRssMb: round(m.peakRssBytes / 1024 / 1024),
    peakPssMb: round(m.peakPssBytes / 1024 / 1024),
    failures,
    meterCpuMsPerPage: round(m.meterCpuMs / Math.max(1, n), 2),
  };
}

/**
 * Runs `total` jobs, `concurrency` at a time, metering the tree of `root` (default: this
 * process) and, when given, the simulator's process (`simPid`) on its own.
 */
export async function measure(
  name: string,
  total: number,
  concurrency: number,
  job: (i: number) => Promise<void>,
  root: number = process.pid,
  simPid?: number,
): Promise<RunStats> {
  const latencies: number[] = [];
  let failures = 0;
  let firstError: unknown;
  const simCpu0 = simPid ? treeCpuMs(simPid) : 0;
  const meter = startMeter(root);
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < total; i = next++) {
      const s = performance.now();
      try {
        await job(i);
        latencies.push(performance.now() - s);
      } catch (err) {
        failures++;
        firstError ??= err;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  if (firstError) console.error(`${name}: ${failures} failures, first: ${(firstError as Error).message ?? String(firstError)}`);
  const stats = statsFrom(name, concurrency, latencies, failures, meter.stop());
  if (simPid) stats.simCpuMsPerPage = round((treeCpuMs(simPid) - simCpu0) / Math.max(1, latencies.length), 2);
  return stats;
}

export function printTable(rows: readonly RunStats[]): void {
  console.table(rows);
}

export function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

export function argString(name: string, fallback = ''): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
}
