/**
 * The memory gate: no new browser context while the node (this process, all its threads, and
 * the browser's process tree) uses more than `maxRssBytes`. Readings come from /proc (Linux);
 * elsewhere only this process is counted. A reading is cached briefly: context creation is
 * frequent and the tree walk reads a file per browser process.
 */
import { readFileSync } from 'node:fs';

export class MemoryGate {
  private cached: { at: number; pid: number | undefined; rss: number } | undefined;

  constructor(private readonly maxRssBytes: number) {}

  get enabled(): boolean {
    return this.maxRssBytes > 0;
  }

  rss(browserPid: number | undefined): number {
    const now = Date.now();
    if (this.cached && this.cached.pid === browserPid && now - this.cached.at < 500) return this.cached.rss;
    const rss = process.memoryUsage.rss() + (browserPid ? treeRss(browserPid) : 0);
    this.cached = { at: now, pid: browserPid, rss };
    return rss;
  }

  /** Resolves once there is room (polling), or rejects with the signal's reason. */
  async waitForRoom(browserPid: number | undefined, signal: AbortSignal, onPressure: () => void): Promise<void> {
    if (!this.enabled) return;
    while (this.rss(browserPid) > this.maxRssBytes) {
      onPressure();
      if (signal.aborted) throw signal.reason;
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 200);
        signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
      });
      this.cached = undefined;
    }
  }
}

function vmRss(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

function children(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** RSS of a process and its descendants (shared pages are counted once per process: an upper bound). */
export function treeRss(pid: number): number {
  let total = 0;
  const stack = [pid];
  const seen = new Set<number>();
  while (stack.length > 0 && seen.size < 512) {
    const p = stack.pop() as number;
    if (seen.has(p)) continue;
    seen.add(p);
    total += vmRss(p);
    stack.push(...children(p));
  }
  return total;
}
