/**
 * Sync scrape (spec 2.3): one typed task to the farm, the caller waits. The client going away
 * aborts the task (its browser context is freed); the sync deadline answers 408.
 */
import { GleanerError } from '../../core/errors.js';
import type { ScrapeOutcome, ScrapeTask } from '../../core/wire.js';
import type { Ctx, Handler, Services } from '../context.js';
import { charge } from '../usage.js';

export function scrapeResponse(outcome: ScrapeOutcome, params: Record<string, unknown>, requestId: string): Record<string, unknown> {
  return {
    status: outcome.status,
    results: outcome.results,
    params,
    metadata: { timestamp: Math.floor(Date.now() / 1000), request_id: requestId },
  };
}

/** Runs one task under the account's concurrency limit. */
export async function runAdmitted(ctx: Ctx, svc: Services, task: ScrapeTask): Promise<ScrapeOutcome> {
  const farm = svc.farm;
  if (!farm) throw new GleanerError('SERVICE_UNAVAILABLE');
  const clientId = ctx.account!.clientId;
  if (!svc.admission.acquire(clientId)) throw new GleanerError('TOO_MANY_REQUESTS');
  try {
    return await farm.run(task, ctx.reply.signal);
  } finally {
    svc.admission.release(clientId);
  }
}

export const scrapeSync: Handler = async (ctx, svc) => {
  const task: ScrapeTask = {
    id: ctx.requestId,
    routeId: ctx.route.entitlement!,
    params: ctx.params,
    accountId: ctx.account!.clientId,
    deadline: Date.now() + svc.config.syncTimeoutMs,
  };
  const outcome = await runAdmitted(ctx, svc, task);
  charge(svc, { clientId: task.accountId, routeId: task.routeId, params: task.params, mode: 'realtime', usage: outcome.usage });
  ctx.reply.json(200, scrapeResponse(outcome, ctx.params, ctx.requestId));
};
