/**
 * Retry timing for deliveries: exponential backoff with full jitter. Full jitter (a uniform
 * delay between 0 and the exponential ceiling) spreads a burst of failed deliveries — a
 * receiver that was down for a minute and has a thousand callbacks queued — instead of
 * bringing them all back at the same instant.
 *
 * Pure functions: the outbox stores `attempts` and `nextAt` on each entry and asks here when to
 * try next. `random` is injectable so tests are deterministic.
 */
import type { AttemptResult } from './types.js';

export interface BackoffOptions {
  /** Ceiling of the delay after the first failed attempt (ms). */
  baseMs: number;
  /** Largest ceiling (ms); the exponential stops growing here. */
  maxMs: number;
  /** `full`: uniform in [0, ceiling]; `none`: exactly the ceiling (tests, diagnostics). */
  jitter: 'full' | 'none';
}

export interface RetryPolicy extends BackoffOptions {
  /** Attempts in all, the first included; 0: no count bound (the horizon bounds the retries). */
  maxAttempts: number;
  /**
   * Retries stop this long (ms) after the delivery was first due (or an operator retried it):
   * a receiver down for less than the horizon gets its delivery; the last attempt is placed at
   * the horizon at the latest. Then the delivery is `failed` and goes to the dead-letter list.
   */
  horizonMs: number;
  /** A receiver's `Retry-After` is honoured up to this (ms), so it cannot park a delivery for days. */
  maxRetryAfterMs: number;
}

/**
 * Defaults: no count bound, a 24-hour horizon; ceilings 30 s, 1, 2, 4, 8, 16, then 30 min
 * between attempts, so a receiver that comes back is served within about 30 minutes.
 */
export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  maxAttempts: 0,
  horizonMs: 24 * 60 * 60_000,
  baseMs: 30_000,
  maxMs: 30 * 60_000,
  jitter: 'full',
  maxRetryAfterMs: 60 * 60_000,
});

/** A policy for tests: the same shape in milliseconds. */
export function fastRetryPolicy(overrides: Partial<RetryPolicy> = {}): RetryPolicy {
  return { maxAttempts: 4, horizonMs: 60_000, baseMs: 5, maxMs: 40, jitter: 'full', maxRetryAfterMs: 50, ...overrides };
}

/**
 * The delay (ms) before the next attempt, given how many attempts have failed so far
 * (`attempt` >= 1). Ceiling = min(maxMs, baseMs * 2^(attempt-1)); with full jitter the delay
 * is floor(random() * (ceiling + 1)), so 0..ceiling inclusive.
 */
export function nextAttemptDelay(attempt: number, options: BackoffOptions, random: () => number = Math.random): number {
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError(`attempt must be an integer >= 1, got ${attempt}`);
  // Cap the exponent first: 2 ** 1000 is finite but 2 ** 1100 is not.
  const ceiling = Math.min(options.maxMs, options.baseMs * 2 ** Math.min(attempt - 1, 52));
  if (options.jitter === 'none') return ceiling;
  const r = random();
  return Math.min(ceiling, Math.floor(Math.max(0, r) * (ceiling + 1)));
}

/** What the outbox does after a failed attempt. */
export type RetryDecision = { retry: true; delayMs: number } | { retry: false; reason: string };

/**
 * Combines an attempt's outcome with the policy: final failures, exhausted attempts and a
 * spent horizon stop; otherwise wait the backoff delay, or the receiver's `Retry-After` when
 * that is longer (capped by `maxRetryAfterMs`), but never past the horizon. `elapsedMs` is the
 * time since the series of attempts began.
 */
export function decideRetry(
  attemptsMade: number,
  result: AttemptResult,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
  random: () => number = Math.random,
  elapsedMs = 0,
): RetryDecision {
  if (result.ok) return { retry: false, reason: 'delivered' };
  if (!result.retry) return { retry: false, reason: result.error };
  if (policy.maxAttempts > 0 && attemptsMade >= policy.maxAttempts) {
    return { retry: false, reason: `gave up after ${attemptsMade} attempts; last error: ${result.error}` };
  }
  const left = policy.horizonMs - elapsedMs;
  if (left <= 0) {
    return { retry: false, reason: `gave up after ${attemptsMade} attempts over ${duration(elapsedMs)} (retry horizon ${duration(policy.horizonMs)}); last error: ${result.error}` };
  }
  const backoff = nextAttemptDelay(attemptsMade, policy, random);
  const asked = result.retryAfterMs === undefined ? 0 : Math.min(result.retryAfterMs, policy.maxRetryAfterMs);
  return { retry: true, delayMs: Math.min(left, Math.max(backoff, asked)) };
}

/** `36 s`, `12 min`, `24 h` */
function duration(ms: number): string {
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 2 * 3_600_000) return `${Math.round(ms / 60_000)} min`;
  return `${Math.round(ms / 3_600_000)} h`;
}
