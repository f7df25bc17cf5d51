/**
 * Web API jobs (spec 2.4, 4.4): submit one, submit a batch, collect one.
 *
 * The 202 leaves only after the job records and queue entries are committed to LMDB.
 * Collection of a failed job answers `status: "faulted"` with `results: []` and an `error`
 * object carrying the problem code (`title`), HTTP status and detail — the spec leaves the
 * failed shape open; this one mirrors the problem documents callers already parse.
 */
import { GleanerError } from '../../core/errors.js';
import { newId, isId } from '../../core/ids.js';
import { problemFromWire } from '../../core/problem.js';
import { routeById } from '../../core/registry/index.js';
import type { JobRecord } from '../../core/store/jobs.js';
import type { Handler, Services } from '../context.js';
import { needOf } from '../quota.js';

function unixSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}

/** A pending job record; both front doors create theirs here. */
export function newJobRecord(
  clientId: number,
  routeId: string,
  params: Record<string, unknown>,
  mode: 'async' | 'batch',
  opts: { batchId?: string; api?: JobRecord['api']; extra?: Record<string, unknown> } = {},
): JobRecord {
  const now = Date.now();
  return {
    id: newId(now),
    clientId,
    routeId,
    mode,
    api: opts.api ?? 'web',
    params,
    status: 'pending',
    createdAt: now,
    updatedAt: now,
    attempts: 0,
    priority: 10,
    deliveries: {},
    ...(opts.batchId ? { batchId: opts.batchId } : {}),
    ...(opts.extra ? { extra: opts.extra } : {}),
  };
}

/**
 * Media routes (`media/video/download`) need ffmpeg on this node: without it they are refused
 * at submit with the start-up check's reason (501), rather than accepted to fail every job.
 */
function requireMediaTools(svc: Services, jobs: readonly JobRecord[]): void {
  const ffmpeg = svc.ffmpeg;
  if (!ffmpeg || ffmpeg.ok || !jobs.some((job) => routeById(job.routeId)?.outputKind === 'media')) return;
  throw new GleanerError('FFMPEG_NOT_AVAILABLE', `Media downloads need ffmpeg and ffprobe on the server: ${ffmpeg.reason}.`);
}

/** Commits (the store's work queue hands the jobs to a runner) and announces; resolves once durable. */
export async function acceptJobs(svc: Services, jobs: JobRecord[]): Promise<void> {
  if (!svc.jobs) throw new GleanerError('SERVICE_UNAVAILABLE');
  requireMediaTools(svc, jobs);
  await svc.store.jobs.enqueue(jobs);
  for (const job of jobs) {
    svc.events.publish({ type: 'accepted', jobId: job.id, clientId: job.clientId, routeId: job.routeId, at: job.createdAt, ...(job.batchId ? { batchId: job.batchId } : {}) });
  }
}

function submitted(job: JobRecord): Record<string, unknown> {
  return { status: 'pending', params: job.params, metadata: { timestamp: unixSeconds(job.createdAt), request_id: job.id } };
}

/**
 * Creates the jobs of one validated async or batch request and returns the 202 body. Shared by
 * the HTTP handlers and the job feed's submit message.
 */
export async function submitJobs(svc: Services, clientId: number, routeId: string, mode: 'async' | 'batch', params: Record<string, unknown>): Promise<Record<string, unknown>> {
  if (mode === 'async') {
    const job = newJobRecord(clientId, routeId, params, 'async');
    await acceptJobs(svc, [job]);
    return submitted(job);
  }
  const route = routeById(routeId);
  if (!route) throw new GleanerError('NOT_FOUND');
  const values = params[route.input] as string[];
  const batchId = newId();
  const jobs = values.map((value) => newJobRecord(clientId, routeId, { ...params, [route.input]: value }, 'batch', { batchId }));
  await acceptJobs(svc, jobs);
  return { data: jobs.map(submitted) };
}

export const submit: Handler = async (ctx, svc) => {
  svc.quota.admit(ctx.account!.clientId, needOf(ctx.params), ctx.reply);
  ctx.reply.json(202, await submitJobs(svc, ctx.account!.clientId, ctx.route.entitlement!, 'async', ctx.params));
};

export const submitBatch: Handler = async (ctx, svc) => {
  const values = ctx.params[routeById(ctx.route.entitlement!)?.input ?? 'url'];
  svc.quota.admit(ctx.account!.clientId, needOf(ctx.params, Array.isArray(values) ? values.length : 1), ctx.reply);
  ctx.reply.json(202, await submitJobs(svc, ctx.account!.clientId, ctx.route.entitlement!, 'batch', ctx.params));
};

/** The Web API collection body of a job (also the webhook's `results` document). */
export async function collectionBody(svc: Services, job: JobRecord): Promise<Record<string, unknown>> {
  const metadata: Record<string, unknown> = {
    request_id: job.id,
    timestamp: unixSeconds(job.createdAt),
    ...(job.finishedAt ? { finished_at: unixSeconds(job.finishedAt) } : {}),
    ...(job.batchId ? { batch_id: job.batchId } : {}),
  };
  const deliveries = Object.keys(job.deliveries).length > 0 ? { deliveries: job.deliveries } : {};
  if (job.status === 'done') {
    const stored = await svc.store.jobs.result(job.id);
    return { status: 'done', status_code: job.upstreamStatus, results: stored?.results ?? [], params: job.params, metadata, ...deliveries };
  }
  if (job.status === 'faulted' && job.error) {
    const problem = problemFromWire(job.error, { requestId: job.id, instance: `/v1/async/scrape/${job.id}` });
    return {
      status: 'faulted',
      results: [],
      error: { title: problem.title, status: problem.status, detail: problem.detail },
      params: job.params,
      metadata,
      ...deliveries,
    };
  }
  return { status: 'pending', results: [], params: job.params, metadata };
}

export const jobGet: Handler = async (ctx, svc) => {
  const id = ctx.param ?? '';
  const job = isId(id) ? await svc.store.jobs.get(id) : undefined;
  // Another account's job is indistinguishable from an unknown one.
  // A crawl is collected at /v1/async/crawl/{id}.
  if (!job || job.clientId !== ctx.account!.clientId || job.api !== 'web' || job.routeId === 'crawl') {
    throw new GleanerError('NOT_FOUND', `No job ${id} (unknown, expired, or not this account's).`);
  }
  ctx.reply.json(200, await collectionBody(svc, job));
};
