/**
 * Quota arithmetic, pure: what one request needs, whether it fits an account's quota, and which
 * limit is the tightest (the one the `X-RateLimit-*` headers describe). The gateway supplies the
 * stored quota, the charged totals and the pages held by unfinished work (core/store/quotas.ts)
 * and its in-memory request count of the minute.
 *
 * A request needs `pages` pages (the values of a batch times `pages` of a paginated route) and
 * one request of the rate; rendered limits apply only to requests that render (`run_js`). A
 * request fits a page limit when charged + held + needed <= max. A request that does not fit
 * is refused whole: a batch is never half-admitted.
 */
import type { PageNeed, Quota, QuotaLimit, QuotaReserved, QuotaUsage } from './store/quotas.js';
import { noReservation, periodResets } from './store/quotas.js';

export type QuotaNeed = PageNeed;

export interface LimitState {
  limit: QuotaLimit;
  max: number;
  /** Charged before this request (requests admitted this minute, for the rate). */
  used: number;
  /** Held by accepted, unfinished work (0 for the request rate). */
  reserved: number;
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

/** What one work request needs: pages (batch values × `pages` of a paginated route) and whether it renders. */
export function needOf(params: Record<string, unknown>, values = 1): QuotaNeed {
  const pages = typeof params.pages === 'number' && params.pages > 0 ? params.pages : 1;
  return { pages: values * pages, rendered: params.run_js === true };
}

/** The pages a need holds while its work is unfinished. */
export function heldBy(need: QuotaNeed): QuotaReserved {
  return { pages: need.pages, rendered: need.rendered ? need.pages : 0 };
}

/** Start of the next request-rate window (whole UTC minutes). */
export function minuteReset(now: number): number {
  return Math.floor(now / 60_000) * 60_000 + 60_000;
}

export function evaluateQuota(
  quota: Quota,
  usage: QuotaUsage,
  requestsThisMinute: number,
  need: QuotaNeed,
  now: number,
  reserved: QuotaReserved = noReservation(),
): QuotaVerdict {
  const resets = periodResets(now);
  const checks: Array<[QuotaLimit, number, number, number, number, boolean]> = [
    // [limit, used, held, amount this request needs, reset, applies]
    ['requests_per_minute', requestsThisMinute, 0, 1, minuteReset(now), true],
    ['pages_per_day', usage.pages_day, reserved.pages, need.pages, resets.day, true],
    ['pages_per_month', usage.pages_month, reserved.pages, need.pages, resets.month, true],
    ['rendered_per_day', usage.rendered_day, reserved.rendered, need.pages, resets.day, need.rendered],
    ['rendered_per_month', usage.rendered_month, reserved.rendered, need.pages, resets.month, need.rendered],
  ];
  let exceeded: LimitState | undefined;
  let tightest: LimitState | undefined;
  for (const [limit, used, held, amount, reset, applies] of checks) {
    const max = quota[limit];
    if (max === null || !applies) continue;
    const fits = used + held + amount <= max;
    const state: LimitState = { limit, max, used, reserved: held, remaining: fits ? max - used - held - amount : Math.max(0, max - used - held), reset };
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
