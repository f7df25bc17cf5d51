/**
 * `POST /v1/map` (sync): a site's URLs from its sitemaps and its start page's links, without
 * fetching every page (farm/crawl/map.ts). Admitted and charged as one page of the generic route
 * (the start page; robots.txt and sitemap files are not charged), under the sync deadline.
 */
import { GleanerError } from '../../core/errors.js';
import { runMap, type MapRequest } from '../../farm/index.js';
import type { Handler, Services } from '../context.js';
import type { Reply } from '../http.js';
import type { QuotaHold } from '../quota.js';
import { charge } from '../usage.js';

export async function mapSite(svc: Services, params: Record<string, unknown>, clientId: number, requestId: string, at: { reply?: Reply; signal?: AbortSignal }): Promise<Record<string, unknown>> {
  const farm = svc.farm;
  if (!farm) throw new GleanerError('SERVICE_UNAVAILABLE');
  if (!svc.admission.acquire(clientId)) throw new GleanerError('TOO_MANY_REQUESTS');
  const started = Date.now();
  let answer;
  let hold: QuotaHold | undefined;
  try {
    hold = svc.quota.reserve(clientId, { pages: 1, rendered: false }, at.reply);
    const deadline = started + svc.config.syncTimeoutMs;
    const signal = at.signal ?? at.reply?.signal;
    answer = await runMap({ farm, accountId: clientId, location: null, device: 'desktop', deadlineMs: 30_000, until: deadline, ...(signal ? { signal } : {}) }, params as unknown as MapRequest);
  } catch (err) {
    hold?.release();
    throw err;
  } finally {
    svc.admission.release(clientId);
  }
  // Charged before the answer leaves; the page stays held until then (gateway/quota.ts).
  await charge(svc, {
    clientId,
    routeId: 'universal',
    params: { output: ['html'], location: null },
    mode: 'realtime',
    usage: { pages: 1, render: false, requestBytes: 0, responseBytes: 0, elapsedMs: Date.now() - started },
  }).finally(() => hold?.release());
  return {
    urls: answer.urls,
    counts: { urls: answer.urls.length, sitemaps: answer.sitemaps.files, sitemaps_failed: answer.sitemaps.failed },
    ...(answer.startStatus !== undefined ? { status_code: answer.startStatus } : {}),
    params,
    metadata: { timestamp: Math.floor(Date.now() / 1000), request_id: requestId },
  };
}

export const map: Handler = async (ctx, svc) => {
  ctx.reply.json(200, await mapSite(svc, ctx.params, ctx.account!.clientId, ctx.requestId, { reply: ctx.reply }));
};
