/**
 * A crawl's deliveries, made by the durable outbox (farm/jobs/outbox.ts) one step per attempt.
 * The outbox entry of a crawl means "something is owed": the step reads the crawl's cursor
 * (CrawlStore, `deliveries[kind]`), delivers the next part, moves the cursor and — when more is
 * owed — queues the next entry in the same store step (`advance`). Retries, backoff, the horizon
 * and dead letters are the outbox's, as for any job.
 *
 * - webhook: with `callback_pages`, `crawl.page` events of up to PAGE_BATCH page references
 *   (never page bodies: those stay behind the API, like every webhook's), in page order, as
 *   pages commit; then, once the crawl is final, one `crawl.done` with its status and counts.
 * - storage: one object per page, `<prefix>/<crawl_id>/pages/<n>.json` (exactly the GET's page
 *   entry), uploaded as pages commit; once the crawl is final, `<prefix>/<crawl_id>/index.json`
 *   listing every page's URL and object key, with the status and counts.
 *
 * At least once: a crash between a send and `advance` sends that part again, with the same
 * `Gleaner-Delivery` id (`<crawl>-pages-<first n>`, `<crawl>-done`) for receivers to dedupe.
 */
import { crawlPage, pageRef } from '../../core/crawl/pages.js';
import type { CrawlState, CrawlStore } from '../../core/store/crawls.js';
import { isFinal, type JobRecord, type OutboxEntry } from '../../core/store/jobs.js';
import { objectKey, parseBucketUrl, postWebhook, uploadResult, type AttemptResult, type BucketCredentials, type StorageType } from '../delivery/index.js';
import { isStorageType } from '../delivery/index.js';

/** Page references in one `crawl.page` event. */
export const PAGE_BATCH = 100;
/** Page objects uploaded in one attempt. */
export const UPLOAD_BATCH = 25;

export interface CrawlDeliveryOptions {
  crawls: CrawlStore;
  /** `<public base>/v1/async/crawl/<id>`. */
  resultsUrl(crawlId: string): string;
}

export interface CrawlAttemptContext {
  secret: string;
  creds: BucketCredentials | undefined;
  signal: AbortSignal;
  timeoutMs: number;
  allowPrivate: boolean;
}

const ok: AttemptResult = { ok: true, status: 200 };

/** The next time for a follow-up entry: now, but never the current entry's own key. */
function againAt(entry: OutboxEntry): number {
  return Math.max(Date.now(), entry.dueAt + 1);
}

export async function attemptCrawlDelivery(entry: OutboxEntry, job: JobRecord, opts: CrawlDeliveryOptions, ctx: CrawlAttemptContext): Promise<AttemptResult> {
  const state = await opts.crawls.get(job.id);
  if (!state) return { ok: false, retry: false, error: 'crawl expired' };
  return entry.kind === 'webhook' ? webhookStep(entry, job, state, opts, ctx) : storageStep(entry, job, state, opts, ctx);
}

function crawlStatus(job: JobRecord): string {
  return job.status === 'pending' ? 'pending' : job.status;
}

async function webhookStep(entry: OutboxEntry, job: JobRecord, state: CrawlState, opts: CrawlDeliveryOptions, ctx: CrawlAttemptContext): Promise<AttemptResult> {
  const url = job.params.callback_url as string;
  const final = isFinal(job.status);
  const cursor = state.deliveries.webhook ?? { cursor: 0, queued: false, closed: false };
  const send = (event: 'crawl.page' | 'crawl.done', body: Record<string, unknown>, id: string): Promise<AttemptResult> =>
    postWebhook(url, JSON.stringify(body), ctx.secret, { event, deliveryId: id, signal: ctx.signal, timeoutMs: ctx.timeoutMs, allowPrivate: ctx.allowPrivate });
  if (job.params.callback_pages === true && cursor.cursor < state.counts.done) {
    const batch = await opts.crawls.pages(job.id, cursor.cursor, PAGE_BATCH, false);
    if (batch.length > 0) {
      const first = batch[0]!.page.n;
      const last = batch[batch.length - 1]!.page.n;
      const res = await send('crawl.page', { event: 'crawl.page', crawl_id: job.id, pages: batch.map((p) => pageRef(p.page)), results_url: `${opts.resultsUrl(job.id)}?after=${first - 1}&limit=${batch.length}` }, `${job.id}-pages-${first}`);
      if (!res.ok) return res;
      const more = last < state.counts.done || (final && !cursor.closed);
      await opts.crawls.advance(job.id, 'webhook', last, false, more ? againAt(entry) : undefined);
      return ok;
    }
  }
  if (!final || cursor.closed) return ok;
  const body: Record<string, unknown> = {
    event: 'crawl.done',
    crawl_id: job.id,
    status: crawlStatus(job),
    finished_at: Math.floor((job.finishedAt ?? job.updatedAt) / 1000),
    counts: state.counts,
    results_url: opts.resultsUrl(job.id),
    ...(job.error && job.status === 'faulted' ? { error: { code: job.error.code, message: job.error.message } } : {}),
  };
  const res = await send('crawl.done', body, `${job.id}-done`);
  if (res.ok) await opts.crawls.advance(job.id, 'webhook', cursor.cursor, true);
  return res;
}

async function storageStep(entry: OutboxEntry, job: JobRecord, state: CrawlState, opts: CrawlDeliveryOptions, ctx: CrawlAttemptContext): Promise<AttemptResult> {
  const storage = job.params.storage as { type: string; url: string };
  const final = isFinal(job.status);
  const cursor = state.deliveries.storage ?? { cursor: 0, queued: false, closed: false };
  const upload = (name: string, body: unknown): Promise<AttemptResult> =>
    uploadResult(storage, JSON.stringify(body), ctx.creds, { jobId: `${job.id}/${name}`, clientId: job.clientId, signal: ctx.signal, timeoutMs: ctx.timeoutMs, allowPrivate: ctx.allowPrivate });
  if (cursor.cursor < state.counts.done) {
    let done = cursor.cursor;
    let failure: AttemptResult | undefined;
    for (const { page, result } of await opts.crawls.pages(job.id, cursor.cursor, UPLOAD_BATCH)) {
      const res = await upload(`pages/${page.n}`, crawlPage(page, result));
      if (!res.ok) {
        failure = res;
        break;
      }
      done = page.n;
    }
    const more = done < state.counts.done || (final && !cursor.closed);
    if (done > cursor.cursor) await opts.crawls.advance(job.id, 'storage', done, false, more && !failure ? againAt(entry) : undefined);
    return failure ?? ok;
  }
  if (!final || cursor.closed) return ok;
  const pages: Array<Record<string, unknown>> = [];
  const type = storage.type;
  for (let after = 0; ; ) {
    const batch = await opts.crawls.pages(job.id, after, 1000, false);
    if (batch.length === 0) break;
    for (const { page } of batch) pages.push({ n: page.n, url: page.url, key: keyOf(storage, type, job.id, page.n) });
    after = batch[batch.length - 1]!.page.n;
  }
  const res = await upload('index', { crawl_id: job.id, status: crawlStatus(job), counts: state.counts, params: job.params, pages });
  if (res.ok) await opts.crawls.advance(job.id, 'storage', cursor.cursor, true);
  return res;
}

/** The object key a page was written under (the index lists it). */
function keyOf(storage: { type: string; url: string }, type: string, crawlId: string, n: number): string {
  if (!isStorageType(type)) return `${crawlId}/pages/${n}.json`;
  const parsed = parseBucketUrl(type as StorageType, storage.url, `${crawlId}/pages/${n}`);
  return parsed.ok ? parsed.target.key : objectKey('', `${crawlId}/pages/${n}`, type as StorageType);
}
