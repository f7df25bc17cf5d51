/**
 * Quota admission, on every door that starts work (README "Quotas"): before a request that
 * fetches pages starts, its account's quota (core/store/quotas.ts, read from the store each
 * time so `gleaner accounts set-quota` applies at once) is checked against the charged totals,
 * the pages held by accepted, unfinished work, and this minute's request count. A request that
 * does not fit gets 429 QUOTA_EXCEEDED — final, with the reset time — and is neither counted in
 * the rate nor charged. Accounts without a quota skip all of it.
 *
 * Held pages (so a client cannot pass a limit with work that is accepted but not charged yet):
 * - queued and running jobs: the store holds their pages from `enqueue` to `finish`, durably
 *   (JobStore, QuotaStore.reservedOf);
 * - requests this process admitted and has not finished: a `QuotaHold` from `reserve`, released
 *   when the sync request's charge is recorded (or it failed), or when the async request's jobs
 *   are committed (their pages are then held by the store). Release comes after the durable
 *   step, so a page is briefly counted twice at most, never missed.
 * Admission and the hold are one synchronous step on the main thread: two requests admitted at
 * once cannot both take the last pages.
 *
 * The request rate is counted here, in memory, per whole UTC minute: it is a per-process limit
 * (one service process per store).
 */
import { GleanerError } from '../core/errors.js';
import { evaluateQuota, heldBy, minuteReset, needOf as pagesAsked, rateLimitHeaders, type QuotaNeed } from '../core/quota.js';
import { routeById } from '../core/registry/index.js';
import type { Store } from '../core/store/index.js';
import { noReservation, periodResets, QUOTA_LIMITS, type QuotaLimit, type QuotaReserved } from '../core/store/quotas.js';
import type { Reply } from './http.js';

/**
 * What one request of a route needs: its parameters' pages (core/quota.ts `needOf`), rendered
 * when it asks for `run_js` or its route always renders (the AI assistants' chat pages), as it
 * will be charged.
 */
export function needOf(params: Record<string, unknown>, values = 1, routeId?: string): QuotaNeed {
  const need = pagesAsked(params, values);
  return routeId !== undefined && routeById(routeId)?.family === 'assistant' ? { ...need, rendered: true } : need;
}

const LIMIT_WORDS: Record<string, string> = {
  requests_per_minute: 'requests per minute',
  pages_per_day: 'pages per day',
  pages_per_month: 'pages per month',
  rendered_per_day: 'rendered pages per day',
  rendered_per_month: 'rendered pages per month',
};

/** Pages an admitted request holds until it is charged, failed, or handed to the store as jobs. Release is idempotent. */
export interface QuotaHold {
  release(): void;
}

const NO_HOLD: QuotaHold = { release() {} };

export class QuotaGate {
  /** clientId → [window end (ms), requests admitted in the window]. */
  private readonly windows = new Map<number, [number, number]>();
  /** clientId → pages held by this process's admitted, unfinished requests. */
  private readonly held = new Map<number, QuotaReserved>();

  constructor(private readonly store: Store) {}

  /** Requests admitted in the current minute. */
  requestsThisMinute(clientId: number, now = Date.now()): number {
    const w = this.windows.get(clientId);
    return w && w[0] > now ? w[1] : 0;
  }

  /** Pages held against the account's page limits: its unfinished jobs and this process's requests in flight. */
  reservedOf(clientId: number): QuotaReserved {
    const jobs = this.store.quotas.reservedOf(clientId);
    const here = this.held.get(clientId) ?? noReservation();
    return { pages: jobs.pages + here.pages, rendered: jobs.rendered + here.rendered };
  }

  /**
   * Admits one request and holds its pages, or throws QUOTA_EXCEEDED; either way the tightest
   * limit goes into the reply's `X-RateLimit-*` headers. Call it after every other check that
   * can refuse the request, right before the work starts (a request refused later would have
   * used the rate), and release the hold once the work is charged, failed or queued.
   */
  reserve(clientId: number, need: QuotaNeed, reply: Reply | undefined, now = Date.now()): QuotaHold {
    return this.take(clientId, need, reply, now, true);
  }

  /**
   * Holds more pages for work already admitted (a crawl's next page), or throws QUOTA_EXCEEDED:
   * page limits only, the request rate is not counted again.
   */
  hold(clientId: number, need: QuotaNeed, now = Date.now()): QuotaHold {
    return this.take(clientId, need, undefined, now, false);
  }

  private take(clientId: number, need: QuotaNeed, reply: Reply | undefined, now: number, rate: boolean): QuotaHold {
    const quota = this.store.quotas.quotaOf(clientId);
    if (!quota) return NO_HOLD;
    const used = rate ? this.requestsThisMinute(clientId, now) : 0;
    const verdict = evaluateQuota(rate ? quota : { ...quota, requests_per_minute: null }, this.store.quotas.usageOf(clientId, now), used, need, now, this.reservedOf(clientId));
    if (verdict.tightest) reply?.addHeaders(rateLimitHeaders(verdict.tightest));
    const over = verdict.exceeded;
    if (over) throw quotaExceeded(over, need);
    if (rate && quota.requests_per_minute !== null) {
      if (this.windows.size > 100_000) this.windows.clear();
      this.windows.set(clientId, [minuteReset(now), used + 1]);
    }
    return this.add(clientId, heldBy(need));
  }

  private add(clientId: number, amount: QuotaReserved): QuotaHold {
    this.move(clientId, amount, 1);
    let held = true;
    return {
      release: () => {
        if (!held) return;
        held = false;
        this.move(clientId, amount, -1);
      },
    };
  }

  private move(clientId: number, amount: QuotaReserved, sign: 1 | -1): void {
    const current = this.held.get(clientId) ?? noReservation();
    const next = { pages: current.pages + sign * amount.pages, rendered: current.rendered + sign * amount.rendered };
    if (next.pages > 0 || next.rendered > 0) this.held.set(clientId, next);
    else this.held.delete(clientId);
  }
}

function quotaExceeded(over: ReturnType<typeof evaluateQuota>['exceeded'] & object, need: QuotaNeed): GleanerError {
  const resetAt = new Date(over.reset).toISOString();
  const rate = over.limit === 'requests_per_minute';
  const parts = [`${over.used} ${rate ? 'admitted' : 'charged'}`];
  if (over.reserved > 0) parts.push(`${over.reserved} held by accepted work not finished yet`);
  if (need.pages > 1 || over.reserved > 0) parts.push(`this request needs ${rate ? 1 : need.pages}`);
  return new GleanerError('QUOTA_EXCEEDED', `The account's quota of ${over.max} ${LIMIT_WORDS[over.limit]} is used up (${parts.join(', ')}); it resets at ${resetAt}.`, {
    extensions: { quota: { limit: over.limit, max: over.max, used: over.used, ...(rate ? {} : { reserved: over.reserved }), reset_at: resetAt, reset: Math.ceil(over.reset / 1000) } },
  });
}

export interface LimitReport {
  max: number;
  /** Charged (requests admitted, for the rate). */
  used: number;
  /** Page limits: held by accepted, unfinished work (queued or running jobs, requests in flight). */
  reserved?: number;
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
  const held = gate.reservedOf(clientId);
  const resets = periodResets(now);
  const used: Record<QuotaLimit, [number, number | undefined, number]> = {
    requests_per_minute: [gate.requestsThisMinute(clientId, now), undefined, minuteReset(now)],
    pages_per_day: [usage.pages_day, held.pages, resets.day],
    pages_per_month: [usage.pages_month, held.pages, resets.month],
    rendered_per_day: [usage.rendered_day, held.rendered, resets.day],
    rendered_per_month: [usage.rendered_month, held.rendered, resets.month],
  };
  const report: Partial<Record<QuotaLimit, LimitReport>> = {};
  for (const limit of QUOTA_LIMITS) {
    const max = quota[limit];
    if (max === null) continue;
    const [n, reserved, reset] = used[limit];
    report[limit] = { max, used: n, ...(reserved === undefined ? {} : { reserved }), remaining: Math.max(0, max - n - (reserved ?? 0)), reset_at: new Date(reset).toISOString() };
  }
  return report;
}

/** Prometheus lines: every account with a quota, each limit's maximum, use and pages held. */
export function quotaMetrics(store: Store, gate: QuotaGate, now = Date.now()): string {
  const limits: string[] = ['# HELP gleaner_quota_limit An account quota limit.', '# TYPE gleaner_quota_limit gauge'];
  const used: string[] = ['# HELP gleaner_quota_used Use of an account quota limit in its current period.', '# TYPE gleaner_quota_used gauge'];
  const reserved: string[] = [
    '# HELP gleaner_quota_reserved Pages of a page limit held by accepted work not finished yet (queued or running jobs, requests in flight).',
    '# TYPE gleaner_quota_reserved gauge',
  ];
  for (const { clientId } of store.quotas.listQuotas()) {
    for (const [limit, r] of Object.entries(quotaReport(store, gate, clientId, now) ?? {})) {
      const labels = `client_id="${clientId}",limit="${limit}"`;
      limits.push(`gleaner_quota_limit{${labels}} ${r.max}`);
      used.push(`gleaner_quota_used{${labels}} ${r.used}`);
      if (r.reserved !== undefined) reserved.push(`gleaner_quota_reserved{${labels}} ${r.reserved}`);
    }
  }
  return [...limits, ...used, ...reserved].join('\n') + '\n';
}
