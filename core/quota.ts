/**
 * Quota arithmetic, pure: whether one request fits an account's quota, and which limit is the
 * tightest (the one the `X-RateLimit-*` headers describe). The gateway supplies the stored
 * quota and totals (core/store/quotas.ts) and its in-memory request count of the minute.
 *
 * A request needs `pages` pages (the values of a batch times `pages` of a paginated route) and
 * one request of the rate; rendered limits apply only to requests that render (`run_js`). A
 * request that does not fit is refused whole: a batch is never half-admitted.
 */
import type { Quota, QuotaLimit, QuotaUsage } from './store/quotas.js';
import { periodResets } from './store/quotas.js';

export interface QuotaNeed {
  pages: number;
  rendered: boolean;
}

export interface LimitState {
  limit: QuotaLimit;
  max: number;
  /** Used before this request. */
  used: number;
  /** Left after this request (0 when it does not fit). */
  remaining: number;
  /** Unix ms when the limit's period starts over. */
  reset: number;
}

export interface QuotaVerdict {
  ok: boolean;
  /** The first limit the request does not fit (when `ok` is false). */
  exceeded: LimitState | undefined;
  /** The applicable limit with the least left: what the response headers report. */
  tightest: LimitState | undefined;
}

/** Start of the next request-rate window (whole UTC minutes). */
export function minuteReset(now: number): number {
  return Math.floor(now / 60_000) * 60_000 + 60_000;
}

export function evaluateQuota(quota: Quota, usage: QuotaUsage, requestsThisMinute: number, need: QuotaNeed, now: number): QuotaVerdict {
  const resets = periodResets(now);
  const checks: Array<[QuotaLimit, number, number, number, boolean]> = [
    // [limit, used, amount this request needs, reset, applies]
    ['requests_per_minute', requestsThisMinute, 1, minuteReset(now), true],
    ['pages_per_day', usage.pages_day, need.pages, resets.day, true],
    ['pages_per_month', usage.pages_month, need.pages, resets.month, true],
    ['rendered_per_day', usage.rendered_day, need.pages, resets.day, need.rendered],
    ['rendered_per_month', usage.rendered_month, need.pages, resets.month, need.rendered],
  ];
  let exceeded: LimitState | undefined;
  let tightest: LimitState | undefined;
  for (const [limit, used, amount, reset, applies] of checks) {
    const max = quota[limit];
    if (max === null || !applies) continue;
    const fits = used + amount <= max;
    const state: LimitState = { limit, max, used, remaining: fits ? max - used - amount : Math.max(0, max - used), reset };
    if (!fits && !exceeded) exceeded = state;
    if (!tightest || state.remaining < tightest.remaining || (state.remaining === tightest.remaining && state.reset > tightest.reset)) tightest = state;
  }
  return { ok: exceeded === undefined, exceeded, tightest: exceeded ?? tightest };
}

/** The `X-RateLimit-*` headers of one limit (reset in Unix seconds, as most clients expect). */
export function rateLimitHeaders(state: LimitState): Record<string, string> {
  return {
    'x-ratelimit-limit': String(state.max),
    'x-ratelimit-remaining': String(state.remaining),
    'x-ratelimit-reset': String(Math.ceil(state.reset / 1000)),
    'x-ratelimit-resource': state.limit,
  };
}
