/**
 * Sync scrape (spec 2.3): one typed task to the farm, the caller waits. The client going away
 * aborts the task (its browser context is freed); the sync deadline answers 408.
 */
import { GleanerError } from '../../core/errors.js';
import type { ScrapeOutcome, ScrapeTask } from '../../core/wire.js';
import type { Handler, Services } from '../context.js';
import type { Reply } from '../http.js';
import { needOf, type QuotaHold } from '../quota.js';
import { charge } from '../usage.js';

export function scrapeResponse(outcome: ScrapeOutcome, params: Record<string, unknown>, requestId: string): Record<string, unknown> {
  return {
    status: outcome.status,
    results: outcome.results,
    params,
    metadata: { timestamp: Math.floor(Date.now() / 1000), request_id: requestId },
  };
}

/**
 * `scrapeResponse` as the answer's bytes. Results the worker serialised (ScrapeTask.encode,
 * buffers transferred from its thread) are placed as they are: a 100 MB answer is not cloned
 * into this thread's heap nor stringified here.
 */
export function scrapeBody(outcome: ScrapeOutcome, params: Record<string, unknown>, requestId: string): string | Buffer {
  const doc = scrapeResponse(outcome, params, requestId);
  if (!outcome.encoded) return JSON.stringify(doc);
  const head = Buffer.from(`{"status":${JSON.stringify(doc.status)},"results":[`);
  const tail = Buffer.from(`],"params":${JSON.stringify(doc.params)},"metadata":${JSON.stringify(doc.metadata)}}`);
  const comma = Buffer.from(',');
  return Buffer.concat([head, ...outcome.encoded.flatMap((page, i) => (i === 0 ? [page] : [comma, page])), tail]);
}

/**
 * Runs one sync task under the account's concurrency limit, then its quota, and charges it
 * (both APIs' sync paths and the MCP tools): the concurrency 429 (retry) comes first, so a
 * request it refuses does not use the rate. The request's pages are held from admission until
 * its charge is durable (or it failed); the charge is recorded before this resolves, so before
 * the answer leaves. Over HTTP the reply carries the quota headers and its abort signal; the
 * MCP tools pass only a signal. `source`: the Job API's source name, charged under it.
 */
export async function runAdmitted(svc: Services, task: ScrapeTask, at: { reply?: Reply; signal?: AbortSignal; source?: string }): Promise<ScrapeOutcome> {
  const farm = svc.farm;
  if (!farm) throw new GleanerError('SERVICE_UNAVAILABLE');
  if (!svc.admission.acquire(task.accountId)) throw new GleanerError('TOO_MANY_REQUESTS');
  let hold: QuotaHold | undefined;
  try {
    hold = svc.quota.reserve(task.accountId, needOf(task.params, 1, task.routeId), at.reply);
    const outcome = await farm.run(task, at.signal ?? at.reply?.signal);
    const source = at.source ? { source: at.source } : {};
    await charge(svc, { clientId: task.accountId, routeId: task.routeId, params: task.params, mode: 'realtime', usage: outcome.usage, ...source });
    return outcome;
  } finally {
    hold?.release();
    svc.admission.release(task.accountId);
  }
}

export const scrapeSync: Handler = async (ctx, svc) => {
  const task: ScrapeTask = {
    id: ctx.requestId,
    routeId: ctx.route.entitlement!,
    params: ctx.params,
    accountId: ctx.account!.clientId,
    deadline: Date.now() + svc.config.syncTimeoutMs,
    encode: true,
  };
  const outcome = await runAdmitted(svc, task, { reply: ctx.reply });
  ctx.reply.send(200, { 'content-type': 'application/json' }, scrapeBody(outcome, ctx.params, ctx.requestId));
};
