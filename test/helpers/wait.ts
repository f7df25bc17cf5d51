/**
 * Waiting in tests: for a condition, with a deadline that fails the test with a message saying
 * what was awaited (and the last value seen), never for a fixed time. Polls every `everyMs`
 * (20 ms by default); `check` may be async. The deadline is generous on purpose: the machine
 * is shared and a condition that holds arrives long before it.
 */

export interface WaitOptions {
  /** What is awaited, for the failure message ("the job to be running"). */
  what: string;
  /** Give up after this long (ms). Default 30 s. */
  timeoutMs?: number;
  /** Poll interval (ms). Default 20. */
  everyMs?: number;
}

/** Resolves with the first truthy value of `check`; rejects after the deadline naming `what`. */
export async function waitUntil<T>(check: () => T | Promise<T>, opts: WaitOptions): Promise<NonNullable<T>> {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const until = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    last = await check();
    if (last) return last as NonNullable<T>;
    if (Date.now() > until) throw new Error(`waited ${timeoutMs} ms for ${opts.what}; last seen: ${describe(last)}`);
    await new Promise((r) => setTimeout(r, opts.everyMs ?? 20));
  }
}

/** Resolves with `p`'s value, or rejects after `timeoutMs` naming `what` (the promise keeps running). */
export async function settledWithin<T>(p: Promise<T>, opts: Omit<WaitOptions, 'everyMs'>): Promise<T> {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`waited ${timeoutMs} ms for ${opts.what}`)), timeoutMs);
  });
  try {
    return await Promise.race([p, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

function describe(v: unknown): string {
  try {
    const s = JSON.stringify(v);
    return s === undefined ? String(v) : s.length > 300 ? `${s.slice(0, 300)}...` : s;
  } catch {
    return String(v);
  }
}
