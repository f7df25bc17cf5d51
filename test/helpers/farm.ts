/** Small helpers for the farm's integration tests: tasks with ids and deadlines, polling. */
import type { ScrapeTask } from '../../core/wire.js';
import { until } from './wait.js';

let next = 0;

export function task(params: Record<string, unknown>, opts: { routeId?: string; timeoutMs?: number } = {}): ScrapeTask {
  next++;
  return {
    id: `7${String(Date.now()).padStart(14, '0')}${String(next % 10_000).padStart(4, '0')}`,
    routeId: opts.routeId ?? 'universal',
    params,
    accountId: 1,
    deadline: Date.now() + (opts.timeoutMs ?? 30_000),
  };
}

/**
 * How long a farm's first rendered page may take on a loaded CI machine: a cold render thread
 * loading its modules, then launching its browser. Measured from createFarm to the first page
 * reaching the simulator at load average 23 on the 2-core machine: 11–13 s with full Chromium,
 * 10–12 s with the headless shell (scratch run, 2026-11-26; most of it the thread's module
 * loading under tsx). Waits for a condition that needs a cold render thread use this, about
 * three times the measurement; a warm farm meets them in well under a second.
 */
export const COLD_RENDER_MS = 40_000;

/** Resolves once `check` is true (polled every 20 ms), or rejects after `ms` naming `what`. */
export async function waitFor(check: () => boolean | Promise<boolean>, ms = 10_000, what = 'the awaited condition'): Promise<void> {
  await until(check, what, ms, 20);
}

/**
 * Resolves once `check` is true while `run` (the task that makes it true) is still going;
 * rejects at once with the task's outcome if the task ends first, else after `ms`.
 */
export async function whileRunning(run: Promise<unknown>, check: () => boolean, ms = COLD_RENDER_MS): Promise<void> {
  let ended: string | undefined;
  run.then(
    (v) => (ended = `the task ended first: ${JSON.stringify(v).slice(0, 200)}`),
    (e: unknown) => (ended = `the task failed first: ${(e as Error).message}`),
  );
  const until = Date.now() + ms;
  while (!check()) {
    if (ended) throw new Error(`whileRunning: ${ended}`);
    if (Date.now() > until) throw new Error('whileRunning: condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The rejection of a promise as `{code, message}` (or the value, if it resolved). */
export async function failure(p: Promise<unknown>): Promise<{ code: string; message: string } | { resolved: unknown }> {
  try {
    return { resolved: await p };
  } catch (err) {
    const e = err as { code?: string; message?: string };
    return { code: String(e.code), message: String(e.message) };
  }
}

/** The code a promise rejected with. */
export async function codeOf(p: Promise<unknown>): Promise<string> {
  const f = await failure(p);
  return 'code' in f ? f.code : 'resolved';
}
