/**
 * Drives a Crawlee crawler the way the other rows are driven: started once (`keepAlive`), warmed
 * with a few pages (browser launched, pools filled), then metered over exactly the measured
 * pages, then torn down. Latency of a page: Crawlee's pre-navigation hook → handler end.
 */
import { startMeter, statsFrom, type RunStats } from '../farm/measure.js';

/** What the handlers use of a Crawlee request. */
export interface Req {
  uniqueKey: string;
  url: string;
}

export interface Tally {
  /** Call in the pre-navigation hook. */
  start(key: string): void;
  /** Call at the end of the request handler (ok) or in the failed-request handler. */
  end(key: string, ok: boolean): void;
}

export interface Drivable {
  run(): Promise<unknown>;
  addRequests(requests: Array<{ url: string; uniqueKey: string }>): Promise<unknown>;
  teardown(): Promise<void>;
}

export function createTally(): Tally & { latencies: number[]; failures: number; settled: number; waiters: Array<() => void> } {
  const started = new Map<string, number>();
  const t = {
    latencies: [] as number[],
    failures: 0,
    settled: 0,
    waiters: [] as Array<() => void>,
    start(key: string) {
      started.set(key, performance.now());
    },
    end(key: string, ok: boolean) {
      const s = started.get(key);
      if (ok && s !== undefined) t.latencies.push(performance.now() - s);
      else t.failures++;
      t.settled++;
      for (const w of t.waiters.splice(0)) w();
    },
  };
  return t;
}

export async function drive(name: string, concurrency: number, crawler: Drivable, tally: ReturnType<typeof createTally>, urls: readonly string[], warm: readonly string[]): Promise<RunStats> {
  const running = crawler.run();
  const settle = async (n: number) => {
    while (tally.settled < n) await new Promise<void>((r) => tally.waiters.push(r));
  };
  await crawler.addRequests(warm.map((url) => ({ url, uniqueKey: url })));
  await settle(warm.length);
  tally.latencies.length = 0;
  tally.failures = 0;
  const meter = startMeter();
  await crawler.addRequests(urls.map((url) => ({ url, uniqueKey: url })));
  await settle(warm.length + urls.length);
  const m = meter.stop();
  await crawler.teardown();
  await running;
  return statsFrom(name, concurrency, tally.latencies, tally.failures, m);
}
