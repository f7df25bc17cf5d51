/**
 * Crawls (README "Crawl and map"): `POST /v1/async/crawl` submits one (a durable job, route
 * `crawl`, run by the node's crawl engine), `GET /v1/async/crawl/{id}` reads its status, counts
 * and pages by cursor, `DELETE` cancels it. Another account's crawl, an unknown id, a scrape job's
 * id or one past retention is 404.
 *
 * Pagination: `?cursor=<next>&limit=<1..1000>` (default 100). `next` is the cursor of the next
 * page of results: present while the crawl runs (poll with it for pages still to come) or while
 * pages remain; null once the crawl is final and every page was read. A page of results also
 * stops early at about 8 MB of bodies. `?view=skipped` lists the URLs robots.txt kept out (each
 * with its decision) and the pages that failed, with their own cursor.
 */
import { crawlPage } from '../../core/crawl/pages.js';
import { GleanerError } from '../../core/errors.js';
import { isId } from '../../core/ids.js';
import { problemFromWire } from '../../core/problem.js';
import { CRAWL_ROUTE_ID } from '../../core/store/crawls.js';
import { isFinal, type JobRecord } from '../../core/store/jobs.js';
import type { Handler, Services } from '../context.js';
import { acceptJobs, newJobRecord } from './jobs.js';

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;
/** A results page stops adding pages past this many characters of bodies. */
const MAX_BODY_CHARS = 8 * 1024 * 1024;
/** DELETE waits this long for the crawl to stop before answering. */
const CANCEL_WAIT_MS = 5000;

function seconds(ms: number): number {
  return Math.floor(ms / 1000);
}

/** The caller's crawl job, or NOT_FOUND. */
async function crawlJob(svc: Services, id: string, clientId: number): Promise<JobRecord> {
  const job = isId(id) ? await svc.store.jobs.get(id) : undefined;
  if (!job || job.clientId !== clientId || job.routeId !== CRAWL_ROUTE_ID) {
    throw new GleanerError('NOT_FOUND', `No crawl ${id} (unknown, expired, or not this account's).`);
  }
  return job;
}

function intParam(query: URLSearchParams, name: string, dflt: number, min: number, max: number): number {
  const raw = query.get(name);
  if (raw === null) return dflt;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max) {
    throw new GleanerError('VALIDATION_ERROR', undefined, { errors: [{ pointer: `#/${name}`, detail: `must be an integer from ${min} to ${max}` }] });
  }
  return n;
}

/** The crawl's status body with one page of results (or of skipped URLs). */
export async function crawlBody(svc: Services, job: JobRecord, query: URLSearchParams, withList = true): Promise<Record<string, unknown>> {
  const cursor = intParam(query, 'cursor', 0, 0, Number.MAX_SAFE_INTEGER);
  const limit = intParam(query, 'limit', DEFAULT_LIMIT, 1, MAX_LIMIT);
  const view = query.get('view') ?? 'results';
  if (view !== 'results' && view !== 'skipped') {
    throw new GleanerError('VALIDATION_ERROR', undefined, { errors: [{ pointer: '#/view', detail: 'must be results or skipped' }] });
  }
  const state = await svc.store.crawls.get(job.id);
  const counts = state?.counts ?? null;
  const final = isFinal(job.status);
  const body: Record<string, unknown> = {
    id: job.id,
    status: job.status,
    url: job.params.url,
    counts,
  };
  if (!withList) {
    // DELETE answers the status and counts only.
  } else if (view === 'results') {
    const results: unknown[] = [];
    let chars = 0;
    let last = cursor;
    for (const { page, result } of await svc.store.crawls.pages(job.id, cursor, limit)) {
      const entry = crawlPage(page, result);
      chars += (entry.html?.length ?? 0) + (entry.markdown?.length ?? 0) + (entry.screenshot?.length ?? 0);
      if (results.length > 0 && chars > MAX_BODY_CHARS) break;
      results.push(entry);
      last = page.n;
    }
    const more = !final || last < (counts?.done ?? 0);
    Object.assign(body, { results, next: more ? String(last) : null });
  } else {
    const skipped = await svc.store.crawls.skips(job.id, cursor, limit);
    const last = skipped.length > 0 ? skipped[skipped.length - 1]!.n : cursor;
    const total = (counts?.skipped_robots ?? 0) + (counts?.failed ?? 0);
    Object.assign(body, { skipped, next: !final || last < total ? String(last) : null });
  }
  const error = job.status === 'faulted' ? job.error : (state?.stopped ?? undefined);
  if (error) {
    const problem = problemFromWire(error, { requestId: job.id, instance: `/v1/async/crawl/${job.id}` });
    body.error = { title: problem.title, status: problem.status, detail: problem.detail };
  }
  body.params = job.params;
  body.metadata = {
    request_id: job.id,
    timestamp: seconds(job.createdAt),
    ...(job.finishedAt ? { finished_at: seconds(job.finishedAt) } : {}),
  };
  if (Object.keys(job.deliveries).length > 0) body.deliveries = job.deliveries;
  return body;
}

/** Creates a crawl job from validated params; returns the 202 body. */
export async function submitCrawl(svc: Services, clientId: number, params: Record<string, unknown>): Promise<Record<string, unknown>> {
  const scrape = params.scrape as { location?: unknown };
  const location = typeof scrape.location === 'string' ? scrape.location.toLowerCase() : undefined;
  if (location && !svc.config.proxies[location]?.length) {
    throw new GleanerError('LOCATION_UNAVAILABLE', `No proxy pool serves the location ${JSON.stringify(scrape.location)}.`);
  }
  // A crawl holds no pages as a job: each page is checked against the quota as it is taken
  // (gateway/crawl-wiring.ts), counting the account's other held work.
  const job: JobRecord = { ...newJobRecord(clientId, CRAWL_ROUTE_ID, params, 'async'), reserve: { pages: 0, rendered: false } };
  await acceptJobs(svc, [job]);
  return { id: job.id, status: 'pending', url: params.url, params: job.params, metadata: { timestamp: seconds(job.createdAt), request_id: job.id } };
}

export const crawlSubmit: Handler = async (ctx, svc) => {
  const scrape = ctx.params.scrape as { run_js?: unknown };
  // The request is admitted against the rate and the first page; once stored, the crawl job
  // holds its own reservation (reservationOf) and each page after it is held as it is taken.
  const hold = svc.quota.reserve(ctx.account!.clientId, { pages: 1, rendered: scrape.run_js === true }, ctx.reply);
  try {
    ctx.reply.json(202, await submitCrawl(svc, ctx.account!.clientId, ctx.params));
  } finally {
    hold.release();
  }
};

export const crawlGet: Handler = async (ctx, svc) => {
  const job = await crawlJob(svc, ctx.param ?? '', ctx.account!.clientId);
  ctx.reply.json(200, await crawlBody(svc, job, new URLSearchParams(ctx.info.query)));
};

/**
 * Cancels a crawl: the stop is stored first (a node running it elsewhere sees it within a
 * second), then a crawl running here stops at once and a crawl not started yet is finished
 * `cancelled`. Pages fetched so far are kept. A final crawl is answered as it is.
 */
export async function cancelCrawl(svc: Services, job: JobRecord): Promise<JobRecord> {
  if (isFinal(job.status)) return job;
  await svc.store.crawls.init(job.id, job.clientId);
  await svc.store.crawls.requestCancel(job.id);
  const engine = svc.crawls;
  if (engine?.cancel(job.id)) {
    // The run abandons its pages in flight and the job runner stores the end.
  } else if (job.status === 'pending') {
    const finished = await svc.store.jobs.finish(job.id, { ok: false, cancelled: true, error: { code: 'NOT_FOUND', message: 'The crawl was cancelled.' } }, svc.config.retentionMs);
    if (finished) svc.events.publish({ type: 'cancelled', jobId: job.id, clientId: job.clientId, routeId: job.routeId, at: Date.now() });
  }
  const until = Date.now() + CANCEL_WAIT_MS;
  for (;;) {
    const now = (await svc.store.jobs.get(job.id)) ?? job;
    if (isFinal(now.status) || Date.now() > until) return now;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export const crawlCancel: Handler = async (ctx, svc) => {
  const job = await crawlJob(svc, ctx.param ?? '', ctx.account!.clientId);
  const after = await cancelCrawl(svc, job);
  ctx.reply.json(200, await crawlBody(svc, after, new URLSearchParams(), false));
};
