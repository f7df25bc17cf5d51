/**
 * Quota admission, on both APIs (README "Quotas"): before a request that fetches pages starts,
 * its account's quota (core/store/quotas.ts, read from LMDB each time so `gleaner accounts
 * set-quota` applies at once) is checked against the charged totals and this minute's request
 * count. A request that does not fit gets 429 QUOTA_EXCEEDED — final, with the reset time —
 * and is neither counted in the rate nor charged. Accounts without a quota skip all of it.
 *
 * The request rate is counted here, in memory, per whole UTC minute: it is a per-process
 * limit (one service process per store). Page totals only move when pages are charged, so
 * requests admitted together may together pass a page limit by what they fetch.
 */
import { GleanerError } from '../core/errors.js';
import { evaluateQuota, minuteReset, rateLimitHeaders, type QuotaNeed } from '../core/quota.js';
import type { Store } from '../core/store/index.js';
import { periodResets, QUOTA_LIMITS, type QuotaLimit } from '../core/store/quotas.js';
import type { Reply } from './http.js';

const LIMIT_WORDS: Record<string, string> = {
  requests_per_minute: 'requests per minute',
  pages_per_day: 'pages per day',
  pages_per_month: 'pages per month',
  rendered_per_day: 'rendered pages per day',
  rendered_per_month: 'rendered pages per month',
};

/** What one work request needs: pages (batch values × pages per value) and whether it renders. */
export function needOf(params: Record<string, unknown>, values = 1): QuotaNeed {
  const pages = typeof params.pages === 'number' && params.pages > 0 ? params.pages : 1;
  return { pages: values * pages, rendered: params.run_js === true };
}

export class QuotaGate {
  /** clientId → [window end (ms), requests admitted in the window]. */
  private readonly windows = new Map<number, [number, number]>();

  constructor(private readonly store: Store) {}

  /** Requests admitted in the current minute. */
  requestsThisMinute(clientId: number, now = Date.now()): number {
    const w = this.windows.get(clientId);
    return w && w[0] > now ? w[1] : 0;
  }

  /**
   * Admits one request or throws QUOTA_EXCEEDED; either way the tightest limit goes into the
   * reply's `X-RateLimit-*` headers. Call it after every other check that can refuse the
   * request, right before the work starts: a request refused later would have used the rate.
   */
  admit(clientId: number, need: QuotaNeed, reply: Reply | undefined, now = Date.now()): void {
    const quota = this.store.quotas.quotaOf(clientId);
    if (!quota) return;
    const used = this.requestsThisMinute(clientId, now);
    const verdict = evaluateQuota(quota, this.store.quotas.usageOf(clientId, now), used, need, now);
    if (verdict.tightest) reply?.addHeaders(rateLimitHeaders(verdict.tightest));
    const over = verdict.exceeded;
    if (over) {
      const resetAt = new Date(over.reset).toISOString();
      throw new GleanerError(
        'QUOTA_EXCEEDED',
        `The account's quota of ${over.max} ${LIMIT_WORDS[over.limit]} is used up (${over.used} used${need.pages > 1 ? `, this request needs ${over.limit === 'requests_per_minute' ? 1 : need.pages}` : ''}); it resets at ${resetAt}.`,
        { extensions: { quota: { limit: over.limit, max: over.max, used: over.used, reset_at: resetAt, reset: Math.ceil(over.reset / 1000) } } },
      );
    }
    if (quota.requests_per_minute !== null) {
      if (this.windows.size > 100_000) this.windows.clear();
      this.windows.set(clientId, [minuteReset(now), used + 1]);
    }
  }
}

export interface LimitReport {
  max: number;
  used: number;
  remaining: number;
  reset_at: string;
}

/**
 * Usage against quota, one entry per limit the account has (`/v2/stats` `quota`, `/metrics`);
 * null without a quota.
 */
export function quotaReport(store: Store, gate: QuotaGate, clientId: number, now = Date.now()): Partial<Record<QuotaLimit, LimitReport>> | null {
  const quota = store.quotas.quotaOf(clientId);
  if (!quota) return null;
  const usage = store.quotas.usageOf(clientId, now);
  const resets = periodResets(now);
  const used: Record<QuotaLimit, [number, number]> = {
    requests_per_minute: [gate.requestsThisMinute(clientId, now), minuteReset(now)],
    pages_per_day: [usage.pages_day, resets.day],
    pages_per_month: [usage.pages_month, resets.month],
    rendered_per_day: [usage.rendered_day, resets.day],
    rendered_per_month: [usage.rendered_month, resets.month],
  };
  const report: Partial<Record<QuotaLimit, LimitReport>> = {};
  for (const limit of QUOTA_LIMITS) {
    const max = quota[limit];
    if (max === null) continue;
    const [n, reset] = used[limit];
    report[limit] = { max, used: n, remaining: Math.max(0, max - n), reset_at: new Date(reset).toISOString() };
  }
  return report;
}

/** Prometheus lines: every account with a quota, each limit's maximum and use. */
export function quotaMetrics(store: Store, gate: QuotaGate, now = Date.now()): string {
  const limits: string[] = ['# HELP gleaner_quota_limit An account quota limit.', '# TYPE gleaner_quota_limit gauge'];
  const used: string[] = ['# HELP gleaner_quota_used Use of an account quota limit in its current period.', '# TYPE gleaner_quota_used gauge'];
  for (const { clientId } of store.quotas.listQuotas()) {
    for (const [limit, r] of Object.entries(quotaReport(store, gate, clientId, now) ?? {})) {
      const labels = `client_id="${clientId}",limit="${limit}"`;
      limits.push(`gleaner_quota_limit{${labels}} ${r.max}`);
      used.push(`gleaner_quota_used{${labels}} ${r.used}`);
    }
  }
  return [...limits, ...used].join('\n') + '\n';
}
