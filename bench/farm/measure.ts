/**
 * Shared measuring for the farm benchmarks: run `total` jobs with `concurrency` in flight,
 * record each latency, CPU time of this process (all threads) and peak RSS (this process plus
 * an optional browser process tree, from /proc).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { treeRss } from '../../farm/browser/memory.js';

/** Pid of a Chromium child of this process (for a browser launched without a server). */
export function chromiumChild(): number | undefined {
  for (const tid of readdirSync('/proc/self/task')) {
    let kids: string[] = [];
    try {
      kids = readFileSync(`/proc/self/task/${tid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    } catch {
      continue;
    }
    for (const kid of kids) {
      try {
        if (readFileSync(`/proc/${kid}/cmdline`, 'utf8').includes('chrom')) return Number(kid);
      } catch {
        // exited
      }
    }
  }
  return undefined;
}

export interface RunStats {
  name: string;
  pages: number;
  pagesPerSec: number;
  p50Ms: number;
  p95Ms: number;
  cpuMsPerPage: number;
  peakRssMb: number;
  failures: number;
}

/** CPU ms (user + system) a process has used so far, from /proc (0 when unreadable). */
export function procCpuMs(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return 0;
  }
}

/** Parent pid of a process (the farm's browser-server process is the browser's parent). */
export function parentOf(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
  } catch {
    return undefined;
  }
}

/**
 * `extraCpuPid`: a helper process whose CPU belongs to this side of the comparison (the farm's
 * browser-server process; the raw baseline runs its Playwright server in-process).
 */
export async function measure(
  name: string,
  total: number,
  concurrency: number,
  job: (i: number) => Promise<void>,
  browserPid: () => number | undefined = () => undefined,
  extraCpuPid: () => number | undefined = () => undefined,
): Promise<RunStats> {
  const latencies: number[] = [];
  let failures = 0;
  let peak = 0;
  const sample = () => {
    const pid = browserPid();
    peak = Math.max(peak, process.memoryUsage.rss() + (pid ? treeRss(pid) : 0));
  };
  const sampler = setInterval(sample, 100);
  const cpu0 = process.cpuUsage();
  const extra0 = procCpuMs(extraCpuPid());
  const t0 = performance.now();
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < total; i = next++) {
      const s = performance.now();
      try {
        await job(i);
        latencies.push(performance.now() - s);
      } catch {
        failures++;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const extraMs = procCpuMs(extraCpuPid()) - extra0;
  sample();
  clearInterval(sampler);
  latencies.sort((a, b) => a - b);
  const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? NaN;
  return {
    name,
    pages: latencies.length,
    pagesPerSec: round((latencies.length / wall) * 1000),
    p50Ms: round(q(0.5)),
    p95Ms: round(q(0.95)),
    cpuMsPerPage: round(((cpu.user + cpu.system) / 1000 + extraMs) / Math.max(1, latencies.length)),
    peakRssMb: round(peak / 1024 / 1024),
    failures,
  };
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

/** Chromium's own CPU is in neither side's `cpuMsPerPage`. */
export function printTable(rows: RunStats[]): void {
  console.table(rows);
}

export function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}
