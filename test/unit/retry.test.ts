/**
 * The shared in-process retry helper (core/retry.ts): attempts, backoff, Retry-After on 429 and
 * 503, the deadline no wait may cross, and aborts that end a wait at once.
 */
import { describe, expect, test } from 'vitest';
import { RetriesExhausted, backoffMs, honoursRetryAfter, retryAfterMs, sleep, withRetries, type AttemptOutcome } from '../../core/retry.js';
import { until } from '../helpers/wait.js';

/** A scripted attempt: each call takes the next outcome and records when it ran. */
function script<T>(...outcomes: AttemptOutcome<T>[]) {
  const calls: number[] = [];
  const t0 = Date.now();
  const attempt = async (n: number) => {
    calls.push(n);
    (attempt as unknown as { at: number[] }).at.push(Date.now() - t0);
    return outcomes[Math.min(n, outcomes.length - 1)]!;
  };
  (attempt as unknown as { at: number[] }).at = [];
  return { attempt, calls, at: () => (attempt as unknown as { at: number[] }).at };
}

const fail = (reason: string, extra: Partial<Extract<AttemptOutcome<never>, { ok: false }>> = {}): AttemptOutcome<never> => ({ ok: false, retry: true, reason, ...extra });

async function stopped(p: Promise<unknown>): Promise<RetriesExhausted> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(RetriesExhausted);
    return err as RetriesExhausted;
  }
  throw new Error('expected RetriesExhausted');
}

describe('Retry-After', () => {
  test('delta-seconds and HTTP dates; only 429 and 503 honour it', () => {
    const now = Date.parse('Sun, 23 Nov 2026 10:00:00 GMT');
    expect([retryAfterMs('3', now), retryAfterMs(['0'], now), retryAfterMs('Sun, 23 Nov 2026 10:00:05 GMT', now), retryAfterMs('soon', now), retryAfterMs(undefined, now), retryAfterMs('-1', now)]).toEqual([
      3000, 0, 5000, undefined, undefined, undefined,
    ]);
    expect([429, 503, 500, 502, 200].map(honoursRetryAfter)).toEqual([true, true, false, false, false]);
  });
});

describe('backoff', () => {
  test('doubles from the base, is capped, and spreads by the jitter fraction', () => {
    const o = { baseMs: 100, maxMs: 1000, jitter: 0.5 };
    expect([0, 1, 2, 3, 4, 10].map((n) => backoffMs(n, { ...o, random: () => 0.5 }))).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect([backoffMs(1, { ...o, random: () => 0 }), backoffMs(1, { ...o, random: () => 1 })]).toEqual([100, 300]);
    expect(backoffMs(60, { baseMs: 1, random: () => 0.5 })).toBe(2 ** 30);
  });
});

describe('withRetries', () => {
  test('returns the first success; a Retry-After wins over the backoff', async () => {
    const s = script<string>(fail('HTTP 503', { status: 503, retryAfterMs: 0 }), { ok: true, value: 'page' });
    expect(await withRetries({ attempts: 3, baseMs: 60_000 }, s.attempt)).toBe('page');
    expect(s.calls).toEqual([0, 1]);
  });

  test('stops when the attempts are spent, or at once on a final failure', async () => {
    const spent = await stopped(withRetries({ attempts: 3, baseMs: 1 }, script(fail('HTTP 500'), fail('ECONNRESET'), fail('HTTP 502')).attempt));
    expect([spent.why, spent.attempts, spent.last.reason]).toEqual(['attempts', 3, 'HTTP 502']);
    const final = await stopped(withRetries({ attempts: 3, baseMs: 1 }, script({ ok: false, retry: false, reason: 'too many redirects' }).attempt));
    expect([final.why, final.attempts]).toEqual(['final', 1]);
  });

  test('no wait crosses the deadline, and a Retry-After above the cap is not waited for', async () => {
    const late = await stopped(withRetries({ attempts: 5, baseMs: 1, deadline: Date.now() + 500 }, script(fail('HTTP 429', { status: 429, retryAfterMs: 120_000 })).attempt));
    expect([late.why, late.attempts, late.wantedMs]).toEqual(['deadline', 1, 120_000]);
    const capped = await stopped(withRetries({ attempts: 5, baseMs: 1, maxRetryAfterMs: 10_000 }, script(fail('HTTP 503', { status: 503, retryAfterMs: 30_000 })).attempt));
    expect([capped.why, capped.wantedMs]).toEqual(['retry-after', 30_000]);
  });

  test('an abort ends a wait at once with its reason; what an attempt throws passes through', async () => {
    let hook: (() => void) | undefined;
    const abort = { aborted: false, reason: undefined as unknown, onAbort: (fn: () => void) => ((hook = fn), () => (hook = undefined)) };
    const run = withRetries({ attempts: 3, baseMs: 60_000, abort }, script(fail('HTTP 500')).attempt);
    // The first attempt failed and the loop waits its backoff, listening for the abort.
    await until(() => hook !== undefined, 'the retry loop to wait its backoff');
    Object.assign(abort, { aborted: true, reason: new Error('cancelled') });
    hook?.();
    await expect(run).rejects.toThrow('cancelled');
    await expect(withRetries({ attempts: 3, baseMs: 1 }, () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
  });
});

describe('the fetch attempt loop on the helper (farm/worker/attempts.ts)', () => {
  const run = async (results: Array<{ status: number; retryAfterMs?: number } | Error>, deadline?: number) => {
    const { withAttempts } = await import('../../farm/worker/attempts.js');
    const { ProxyRotation } = await import('../../farm/net/proxies.js');
    const { TaskAbort } = await import('../../farm/worker/abort.js');
    const calls: number[] = [];
    const out = withAttempts({ maxAttempts: 3, baseMs: 60_000, abort: new TaskAbort(deadline), rotation: new ProxyRotation(null) }, async (_proxy, n) => {
      calls.push(n);
      const r = results[n]!;
      if (r instanceof Error) throw r;
      return r;
    });
    return { out, calls };
  };

  test("a 503's Retry-After is waited instead of the backoff; a 500's is not a promise", async () => {
    const a = await run([{ status: 503, retryAfterMs: 0 }, { status: 200 }]);
    expect([await a.out, a.calls]).toEqual([{ status: 200 }, [0, 1]]);
  });

  test('a Retry-After above 30 s ends the attempts at once, saying so', async () => {
    const a = await run([{ status: 429, retryAfterMs: 120_000 }]);
    await expect(a.out).rejects.toMatchObject({
      code: 'REQUEST_FAILED_AFTER_MANY_RETRIES',
      message: 'Every attempt to fetch the target failed (last: HTTP 429; the target asked to retry in 120 s).',
      data: { attempts: 1, last: 'HTTP 429' },
    });
    expect(a.calls).toEqual([0]);
  });

  test('a final upstream failure stops at once; other errors pass through', async () => {
    const { GleanerError } = await import('../../core/errors.js');
    const final = await run([new GleanerError('UPSTREAM_FAILED', 'More than 10 redirects.', { final: true })]);
    await expect(final.out).rejects.toMatchObject({ code: 'REQUEST_FAILED_AFTER_MANY_RETRIES', message: 'Every attempt to fetch the target failed (last: More than 10 redirects.).', data: { attempts: 1 } });
    const refused = await run([new GleanerError('TARGET_FORBIDDEN')]);
    await expect(refused.out).rejects.toMatchObject({ code: 'TARGET_FORBIDDEN' });
  });
});
