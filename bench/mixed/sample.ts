/**
 * What the soak watches on the service, read from outside: its process tree's memory (PSS and
 * RSS), open file descriptors, processes (Chromium's renderers among them), and the farm's own
 * count of browser contexts and pages (`GET /v1/status`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { request } from 'undici';
import { processTree, treePssBytes, treeRssBytes } from '../farm/measure.js';

export interface Sample {
  /** Seconds since the load started. */
  t: number;
  pssMb: number;
  rssMb: number;
  fds: number;
  processes: number;
  renderers: number;
  /** Pids of the farm's browsers (their main processes) alive at the sample. */
  browsers: number[];
  contexts: number;
  pages: number;
  load1: number;
}

function fdsOf(pid: number): number {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return 0; // exited
  }
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return ''; // exited
  }
}

async function farmCounts(gateway: string, key: string): Promise<{ contexts: number; pages: number }> {
  try {
    const res = await request(`${gateway}/v1/status`, { headers: { authorization: `Bearer ${key}` }, headersTimeout: 30_000, bodyTimeout: 30_000 });
    const body = (await res.body.json()) as { farm?: { contexts?: number; pages?: number } };
    return { contexts: body.farm?.contexts ?? -1, pages: body.farm?.pages ?? -1 };
  } catch {
    return { contexts: -1, pages: -1 };
  }
}

const mb = (b: number) => Math.round((b / 1024 / 1024) * 10) / 10;

export async function sample(pid: number, gateway: string, key: string, t: number): Promise<Sample> {
  const tree = processTree(pid);
  const cmds = tree.map(cmdline);
  const counts = await farmCounts(gateway, key);
  return {
    t: Math.round(t),
    pssMb: mb(treePssBytes(pid)),
    rssMb: mb(treeRssBytes(pid)),
    fds: tree.reduce((a, p) => a + fdsOf(p), 0),
    processes: tree.length,
    renderers: cmds.filter((c) => c.includes('--type=renderer')).length,
    // The farm marks its browser's command line (farm/browser/local.ts); children carry no marker.
    browsers: tree.filter((_, i) => cmds[i]!.includes('--gleaner-farm-browser=') && !cmds[i]!.includes('--type=')),
    ...counts,
    load1: Math.round(loadavg()[0]! * 10) / 10,
  };
}

/** Least-squares slope of y over x (per unit of x). */
export function slope(xs: number[], ys: number[]): number {
  const n = xs.length;
  if (n < 2) return NaN;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return den === 0 ? NaN : num / den;
}

export const median = (xs: number[]): number => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]! : NaN);
