/**
 * Job API handlers (spec 4.6): realtime query, push-pull submit and batch, job status, job
 * results and usage statistics. The same farm, store, dispatcher and ledger as the Web API;
 * only the front door and the object shapes differ.
 */
import { GleanerError, type FieldError } from '../../core/errors.js';
import { newId, isId } from '../../core/ids.js';
import { checkJobApiInput, type JobApiInput } from '../../core/jobapi/schema.js';
import { resolveSource } from '../../core/jobapi/aliases.js';
import { mapQuery, routeOfSource, type MappedQuery } from '../../core/jobapi/map.js';
import type { JobRecord } from '../../core/store/jobs.js';
import type { Account } from '../../core/store/accounts.js';
import { entitled } from '../../core/store/accounts.js';
import type { Services } from '../context.js';
import { requireTarget } from '../runnable.js';
import type { Reply } from '../http.js';
import { quotaReport } from '../quota.js';
import { acceptJobs, newJobRecord, refuseUnboundStorage } from '../handlers/jobs.js';
import { runAdmitted } from '../handlers/scrape.js';
import { jobObject, resultEntries } from './objects.js';
import { parseStatsQuery, statsDocument } from './stats.js';

export interface JobApiCtx {
  reply: Reply;
  account: Account;
  body: unknown;
  param: string | undefined;
  query: string;
  requestId: string;
  dataUrl: string;
}

function invalid(errors: FieldError[]): never {
  throw new GleanerError('VALIDATION_ERROR', undefined, { errors });
}

/** The query with its source alias (GLEANER_SOURCE_ALIASES) resolved; the job echoes the name sent. */
function unaliased(svc: Services, input: JobApiInput): JobApiInput {
  const source = resolveSource(svc.config.sourceAliases, input.source);
  return source === input.source ? input : { ...input, source };
}

function mapOrThrow(svc: Services, account: Account, input: JobApiInput, mode: 'sync' | 'async'): MappedQuery {
  const mapped = mapQuery(unaliased(svc, input), mode);
  if (!mapped.ok) invalid(mapped.errors);
  if (!entitled(account.entitlements, mapped.mapped.route.id)) {
    throw new GleanerError('FORBIDDEN', `This account is not entitled to source ${input.source}.`);
  }
  requireTarget(mapped.mapped.route.id, svc);
  return mapped.mapped;
}

function jobRecord(account: Account, mapped: MappedQuery, input: JobApiInput, warnings: FieldError[], batchId?: string): JobRecord {
  const extra = { source: mapped.source, input: { ...input }, content_encoding: input.content_encoding, ...(warnings.length > 0 ? { warnings } : {}) };
  return newJobRecord(account.clientId, mapped.route.id, mapped.params, batchId ? 'batch' : 'async', { api: 'job', extra, ...(batchId ? { batchId } : {}) });
}

export async function realtime(ctx: JobApiCtx, svc: Services): Promise<void> {
  const checked = checkJobApiInput(ctx.body, false);
  if (!checked.ok) invalid(checked.errors);
  const input = checked.input;
  for (const field of ['callback_url', 'storage_type', 'storage_url'] as const) {
    if (input[field] !== null) invalid([{ pointer: `#/${field}`, detail: `${field} is for the push-pull host, not realtime` }]);
  }
  const mapped = mapOrThrow(svc, ctx.account, input, 'sync');
  const started = Date.now();
  // Spec 8: the realtime connection lives 150 s at most (GLEANER_SYNC_TIMEOUT_MS).
  const outcome = await runAdmitted(
    svc,
    { id: ctx.requestId, routeId: mapped.route.id, params: mapped.params, accountId: ctx.account.clientId, deadline: started + svc.config.syncTimeoutMs },
    { reply: ctx.reply, source: mapped.source },
  );
  const finished = Date.now();
  const job: JobRecord = { ...jobRecord(ctx.account, mapped, input, checked.warnings), id: ctx.requestId, status: 'done', upstreamStatus: outcome.status, createdAt: started, updatedAt: finished, finishedAt: finished };
  ctx.reply.json(200, {
    results: resultEntries(ctx.requestId, outcome.results, started, finished, input.content_encoding === 'base64'),
    job: jobObject(job, ctx.dataUrl),
  });
}

export async function submit(ctx: JobApiCtx, svc: Services): Promise<void> {
  const checked = checkJobApiInput(ctx.body, false);
  if (!checked.ok) invalid(checked.errors);
  const job = jobRecord(ctx.account, mapOrThrow(svc, ctx.account, checked.input, 'async'), checked.input, checked.warnings);
  refuseUnboundStorage(svc, ctx.account.clientId, job.params);
  await acceptJobs(svc, [job], ctx.reply);
  ctx.reply.json(200, jobObject(job, ctx.dataUrl));
}

export async function submitBatch(ctx: JobApiCtx, svc: Services): Promise<void> {
  const body = ctx.body as Record<string, unknown> | null;
  const values = body && typeof body === 'object' ? (body.url ?? body.query) : undefined;
  // The same cap as the Web API's batches (GLEANER_MAX_BATCH, 5,000 by default: spec 8).
  const max = svc.config.maxBatch;
  if (Array.isArray(values) && values.length > max) {
    throw new GleanerError('PAYLOAD_TOO_LARGE', `A batch takes at most ${max} values; got ${values.length}.`, { max });
  }
  const checked = checkJobApiInput(ctx.body, true);
  if (!checked.ok) invalid(checked.errors);
  const route = routeOfSource(unaliased(svc, checked.input).source);
  const key = route?.input ?? (checked.input.url !== undefined ? 'url' : 'query');
  const list = checked.input[key];
  if (!Array.isArray(list)) invalid([{ pointer: `#/${key}`, detail: `a batch needs an array of ${key} values` }]);
  const batchId = newId();
  const jobs: JobRecord[] = [];
  const errors: FieldError[] = [];
  (list as string[]).forEach((value, i) => {
    const single = { ...checked.input, [key]: value } as JobApiInput;
    const mapped = mapQuery(unaliased(svc, single), 'async');
    if (!mapped.ok) {
      for (const e of mapped.errors) errors.push({ pointer: e.pointer === `#/${key}` ? `#/${key}/${i}` : e.pointer, detail: e.detail });
      return;
    }
    if (i === 0 && !entitled(ctx.account.entitlements, mapped.mapped.route.id)) throw new GleanerError('FORBIDDEN');
    jobs.push(jobRecord(ctx.account, mapped.mapped, single, checked.warnings, batchId));
  });
  if (errors.length > 0) invalid([...new Map(errors.map((e) => [e.pointer, e])).values()]);
  refuseUnboundStorage(svc, ctx.account.clientId, jobs[0].params);
  await acceptJobs(svc, jobs, ctx.reply);
  ctx.reply.json(200, { queries: jobs.map((job) => jobObject(job, ctx.dataUrl)) });
}

async function ownJob(ctx: JobApiCtx, svc: Services): Promise<JobRecord> {
  const id = ctx.param ?? '';
  const job = isId(id) ? await svc.store.jobs.get(id) : undefined;
  if (!job || job.api !== 'job' || job.clientId !== ctx.account.clientId) throw new GleanerError('NOT_FOUND', `No job ${id}.`);
  return job;
}

export async function status(ctx: JobApiCtx, svc: Services): Promise<void> {
  ctx.reply.json(200, jobObject(await ownJob(ctx, svc), ctx.dataUrl));
}

export async function results(ctx: JobApiCtx, svc: Services): Promise<void> {
  const job = await ownJob(ctx, svc);
  if (job.status !== 'done') {
    throw new GleanerError('NOT_FOUND', `Job ${job.id} has no results: its status is ${job.status === 'running' ? 'pending' : job.status}.`);
  }
  const stored = await svc.store.jobs.result(job.id);
  ctx.reply.json(200, { results: resultEntries(job.id, stored?.results ?? [], job.createdAt, job.finishedAt ?? job.updatedAt, job.extra?.content_encoding === 'base64') });
}

export async function stats(ctx: JobApiCtx, svc: Services): Promise<void> {
  const query = parseStatsQuery(ctx.query, (s) => routeOfSource(s) !== undefined);
  // Usage against quota beside the ledger's counts (null when the account has no quota).
  ctx.reply.json(200, { ...(await statsDocument(svc.store.usage, ctx.account.clientId, query)), quota: quotaReport(svc.store, svc.quota, ctx.account.clientId) });
}

/** The callback body of a Job API job: the job object with `_links` (spec 6.1). */
export function callbackBody(job: JobRecord, dataUrl: string, retentionMs: number): string {
  return JSON.stringify(jobObject(job, dataUrl, { callback: true, retentionMs }));
}

