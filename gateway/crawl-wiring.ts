/**
 * What the crawl engine (farm/crawl/) needs from the gateway's rules: a page's charge — exactly a
 * scrape of that page with the crawl's per-page options, as an async job (`callback`) — and the
 * quota check before each page (pages and rendered pages per day and month; the crawl's request
 * was counted in the rate when it was submitted).
 */
import { GleanerError, type WireError } from '../core/errors.js';
import { evaluateQuota } from '../core/quota.js';
import type { Store } from '../core/store/index.js';
import type { JobRecord } from '../core/store/jobs.js';
import type { UsageEntry } from '../core/store/usage.js';
import type { Usage } from '../core/wire.js';
import { usageEntry } from './usage.js';

export function crawlCharge(job: JobRecord, scrape: Record<string, unknown>, usage: Usage): UsageEntry | undefined {
  return usageEntry({ clientId: job.clientId, routeId: 'universal', params: scrape, mode: 'callback', usage });
}

export function crawlQuota(store: Store, clientId: number, pages: number, rendered: boolean, now = Date.now()): WireError | undefined {
  const quota = store.quotas.quotaOf(clientId);
  if (!quota) return undefined;
  // The request rate does not apply to the pages of an admitted crawl.
  // Other unfinished work of the account holds pages too (its queued jobs; a crawl job holds none).
  const verdict = evaluateQuota({ ...quota, requests_per_minute: null }, store.quotas.usageOf(clientId, now), 0, { pages, rendered }, now, store.quotas.reservedOf(clientId));
  const over = verdict.exceeded;
  if (!over) return undefined;
  const resetAt = new Date(over.reset).toISOString();
  return new GleanerError('QUOTA_EXCEEDED', `The crawl stopped: the account's quota of ${over.max} ${over.limit.replace(/_/g, ' ')} is used up (${over.used} used); it resets at ${resetAt}. The pages fetched before are kept.`, {
    extensions: { quota: { limit: over.limit, max: over.max, used: over.used, reset_at: resetAt } },
  }).toWire();
}
