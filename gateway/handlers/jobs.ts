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
import { reservationOf, type JobRecord } from '../../core/store/jobs.js';
import type { Handler, Services } from '../context.js';
import type { Reply } from '../http.js';
import { needOf } from '../quota.js';
import { parseDeliveryConfig, storageRefusal, type DeliveryConfig } from '../../farm/index.js';

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
  // Held against the quota while unfinished; stored only where the parameters alone say less (reservationOf).
  const need = needOf(params, 1, routeId);
  const reserve = need.rendered && params.run_js !== true ? { reserve: need } : {};
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
    ...reserve,
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

/**
 * Admits one request's jobs against the account's quota (the whole batch at once), commits them
 * (the store's work queue hands them to a runner) and announces them; resolves once durable.
 * Every door that creates jobs comes through here, so none skips the quota. The request's
 * pages are held here until the commit, then by the store until each job finishes.
 */
export async function acceptJobs(svc: Services, jobs: JobRecord[], reply?: Reply): Promise<void> {
  if (!svc.jobs) throw new GleanerError('SERVICE_UNAVAILABLE');
  requireMediaTools(svc, jobs);
  if (jobs.length === 0) return;
  const held = jobs.map(reservationOf);
  const need = { pages: held.reduce((n, r) => n + r.pages, 0), rendered: held.some((r) => r.rendered > 0) };
  const hold = svc.quota.reserve(jobs[0].clientId, need, reply);
  try {
    await svc.store.jobs.enqueue(jobs);
  } finally {
    hold.release();
  }
  for (const job of jobs) {
    svc.events.publish({ type: 'accepted', jobId: job.id, clientId: job.clientId, routeId: job.routeId, at: job.createdAt, ...(job.batchId ? { batchId: job.batchId } : {}) });
  }
}

function submitted(job: JobRecord): Record<string, unknown> {
  return { status: 'pending', params: job.params, metadata: { timestamp: unixSeconds(job.createdAt), request_id: job.id } };
}

/**
 * Creates the jobs of one validated async or batch request (admitted against the quota in
 * `acceptJobs`) and returns the 202 body. Shared by the HTTP handlers, the job feed's submit
 * message and the MCP tools; `reply` takes the X-RateLimit headers where there is one.
 */
export async function submitJobs(svc: Services, clientId: number, routeId: string, mode: 'async' | 'batch', params: Record<string, unknown>, reply?: Reply): Promise<Record<string, unknown>> {
  if (mode === 'async') {
    const job = newJobRecord(clientId, routeId, params, 'async');
    await acceptJobs(svc, [job], reply);
    return submitted(job);
  }
  const route = routeById(routeId);
  if (!route) throw new GleanerError('NOT_FOUND');
  const values = params[route.input] as string[];
  const batchId = newId();
  const jobs = values.map((value) => newJobRecord(clientId, routeId, { ...params, [route.input]: value }, 'batch', { batchId }));
  await acceptJobs(svc, jobs, reply);
  return { data: jobs.map(submitted) };
}

/** GLEANER_STORAGE parsed once per configuration (a reload replaces `svc.config.storage`). */
const parsedStorage = new WeakMap<object, DeliveryConfig>();

/**
 * 403 when the job's `storage` names a bucket (or prefix) the account's binding in
 * GLEANER_STORAGE does not allow (farm/delivery/binding.ts): before anything is queued,
 * counted or charged. Both APIs call it before admission.
 */
export function refuseUnboundStorage(svc: Services, clientId: number, params: Record<string, unknown>): void {
  if (params.storage === undefined || params.storage === null) return;
  let config = parsedStorage.get(svc.config.storage);
  if (!config) parsedStorage.set(svc.config.storage, (config = parseDeliveryConfig(svc.config.storage)));
  const why = storageRefusal(config, clientId, params.storage);
  if (why) throw new GleanerError('FORBIDDEN', `${why}.`);
}

/**
 * The bucket binding, then `submitJobs` (quota admission of the whole batch at once is in
 * `acceptJobs`): what every front door that creates Web API jobs runs after validation — the
 * HTTP routes and the job feed's submit. `reply` receives the X-RateLimit headers where there
 * is one.
 */
export async function admitAndSubmit(svc: Services, clientId: number, routeId: string, mode: 'async' | 'batch', params: Record<string, unknown>, reply?: Reply): Promise<Record<string, unknown>> {
  refuseUnboundStorage(svc, clientId, params);
  return submitJobs(svc, clientId, routeId, mode, params, reply);
}

/** A batch above the documented maximum (GLEANER_MAX_BATCH) is 413 (spec part 7), checked before validation. */
export function checkBatchSize(body: unknown, max: number): void {
  if (!body || typeof body !== 'object') return;
  const record = body as Record<string, unknown>;
  for (const key of ['query', 'url']) {
    const values = record[key];
    if (Array.isArray(values) && values.length > max) {
      throw new GleanerError('PAYLOAD_TOO_LARGE', `A batch takes at most ${max} values; ${key} has ${values.length}.`, { max });
    }
  }
}

export const submit: Handler = async (ctx, svc) => {
  ctx.reply.json(202, await admitAndSubmit(svc, ctx.account!.clientId, ctx.route.entitlement!, 'async', ctx.params, ctx.reply));
};

export const submitBatch: Handler = async (ctx, svc) => {
  ctx.reply.json(202, await admitAndSubmit(svc, ctx.account!.clientId, ctx.route.entitlement!, 'batch', ctx.params, ctx.reply));
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
