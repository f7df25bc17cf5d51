import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_POLICY, decideRetry, fastRetryPolicy, nextAttemptDelay } from '../../farm/delivery/index.js';

const seq = (...values: number[]) => {
  let i = 0;
  return () => values[i++ % values.length]!;
};

describe('nextAttemptDelay', () => {
  it('doubles from baseMs up to maxMs without jitter', () => {
    const o = { baseMs: 100, maxMs: 1000, jitter: 'none' as const };
    expect([1, 2, 3, 4, 5, 6, 60, 5000].map((a) => nextAttemptDelay(a, o))).toEqual([100, 200, 400, 800, 1000, 1000, 1000, 1000]);
  });

  it('full jitter is uniform in [0, ceiling] and deterministic under an injected random', () => {
    const o = { baseMs: 100, maxMs: 1000, jitter: 'full' as const };
    const random = seq(0, 0.5, 0.999999, 0.25);
    expect([3, 3, 3, 5].map((a) => nextAttemptDelay(a, o, random))).toEqual([0, 200, 400, 250]);
  });

  it('rejects attempt < 1', () => {
    expect(() => nextAttemptDelay(0, DEFAULT_RETRY_POLICY)).toThrow(RangeError);
  });

  it('default policy: no count bound, a 24-hour horizon; ceilings grow to 30 minutes', () => {
    const ceilings = [1, 2, 3, 4, 5, 6, 7, 8].map((a) => nextAttemptDelay(a, { ...DEFAULT_RETRY_POLICY, jitter: 'none' }));
    expect(ceilings).toEqual([30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 1_800_000, 1_800_000]);
    expect([DEFAULT_RETRY_POLICY.maxAttempts, DEFAULT_RETRY_POLICY.horizonMs]).toEqual([0, 86_400_000]);
  });
});

describe('decideRetry', () => {
  const policy = fastRetryPolicy({ jitter: 'none' });
  const fail = { ok: false as const, retry: true, error: 'webhook receiver answered HTTP 503', status: 503 };

  it('retries a retryable failure with the backoff delay', () => {
    expect(decideRetry(1, fail, policy)).toEqual({ retry: true, delayMs: 5 });
    expect(decideRetry(3, fail, policy)).toEqual({ retry: true, delayMs: 20 });
  });

  it('waits for Retry-After when longer, capped by maxRetryAfterMs', () => {
    expect(decideRetry(1, { ...fail, retryAfterMs: 30 }, policy)).toEqual({ retry: true, delayMs: 30 });
    expect(decideRetry(1, { ...fail, retryAfterMs: 10_000 }, policy)).toEqual({ retry: true, delayMs: 50 });
  });

  it('stops on final failures, success, and after maxAttempts', () => {
    expect(decideRetry(1, { ok: false, retry: false, error: 'webhook receiver answered HTTP 404', status: 404 }, policy)).toEqual({
      retry: false,
      reason: 'webhook receiver answered HTTP 404',
    });
    expect(decideRetry(1, { ok: true, status: 200 }, policy)).toEqual({ retry: false, reason: 'delivered' });
    expect(decideRetry(4, fail, policy)).toEqual({
      retry: false,
      reason: 'gave up after 4 attempts; last error: webhook receiver answered HTTP 503',
    });
  });

  it('with no count bound, retries until the horizon; the last wait ends at the horizon', () => {
    const open = { ...policy, maxAttempts: 0, horizonMs: 86_400_000, baseMs: 30_000, maxMs: 1_800_000 };
    expect(decideRetry(40, fail, open, Math.random, 3_600_000)).toEqual({ retry: true, delayMs: 1_800_000 });
    expect(decideRetry(60, fail, open, Math.random, 86_400_000 - 1000)).toEqual({ retry: true, delayMs: 1000 });
    expect(decideRetry(61, fail, open, Math.random, 86_400_000)).toEqual({
      retry: false,
      reason: 'gave up after 61 attempts over 24 h (retry horizon 24 h); last error: webhook receiver answered HTTP 503',
    });
  });
});
