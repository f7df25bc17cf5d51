/** Small helpers for the farm's integration tests: tasks with ids and deadlines, polling. */
import type { ScrapeTask } from '../../core/wire.js';

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

/** Resolves once `check` is true (polled every 20 ms), or rejects after `ms`. */
export async function waitFor(check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('waitFor: condition not met in time');
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
