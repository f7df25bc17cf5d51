/**
 * The Gleaner Web API client: typed by route id from the generated registry types.
 *
 * - sync: `scrape(route, params)`, `search(params)` — the answer in the response;
 * - async: `submit` then `wait` (polling with jittered, growing intervals), or `run` for both;
 * - batch: `submitBatch` then `waitAll`, or `runBatch` for both;
 * - `job(id)` collects one job at any time;
 * - crawls: `map(params)` (sync), `crawl(params)` then `crawlStatus(id)` / `crawlPages(id)`
 *   (every page, following the cursor, while the crawl runs and after), `cancelCrawl(id)`.
 *
 * Every call retries per the spec's retry column (retry.ts). Needs a global `fetch` (Node 18+,
 * browsers) or one passed in the options.
 */
import {
  PATHS,
  type AsyncRoute,
  type BatchParams,
  type BatchRoute,
  type BatchSubmitted,
  type AsyncParams,
  type CrawlPage,
  type CrawlParams,
  type CrawlStatus,
  type CrawlSubmitted,
  type MapParams,
  type MapResponse,
  type JobCollection,
  type JobSubmitted,
  type PageResult,
  type ParsedJson,
  type Problem,
  type Scrapers,
  type ScrapeResponse,
  type SearchParams,
  type SearchResponse,
  type SyncParams,
  type SyncRoute,
} from './generated.js';
import { backoffMs, DEFAULT_RETRY, GleanerApiError, GleanerHttpError, retryable, retryAfterMs, sleep, type RetryPolicy } from './retry.js';

declare const ROUTE: unique symbol;

/**
 * A job id that remembers the route it was submitted to (never present at run time): `wait`,
 * `job` and `waitAll` type the job's `results[].json` by it, with no type argument.
 */
export type JobId<R = unknown> = string & { readonly [ROUTE]: R };

/** The 202 of `submit`, its id typed by the route. */
export type Submitted<R> = Omit<JobSubmitted, 'metadata'> & { metadata: Omit<JobSubmitted['metadata'], 'request_id'> & { request_id: JobId<R> } };
/** The 202 of `submitBatch`, each id typed by the route. */
export type BatchSubmittedTo<R> = Omit<BatchSubmitted, 'data'> & { data: Array<Submitted<R>> };

export interface GleanerOptions {
  /** e.g. `http://127.0.0.1:8080` */
  baseUrl: string;
  apiKey: string;
  retry?: Partial<RetryPolicy>;
  fetch?: typeof fetch;
}

export interface CallOptions {
  /** Abandons the call (and any retry wait). `AbortSignal.timeout(ms)` sets a deadline. */
  signal?: AbortSignal;
}

export interface WaitOptions extends CallOptions {
  /** Give up waiting after this long (ms). Default 10 minutes. */
  timeoutMs?: number;
  /** First polling interval (ms), growing by half each time up to `maxIntervalMs`. Default 500. */
  intervalMs?: number;
  /** Default 5000. */
  maxIntervalMs?: number;
}

/** A page of route `R`: `json` is typed when the route's parser declares its shape. */
export type Page<R> = Omit<PageResult, 'json'> & { json: (R extends keyof ParsedJson ? ParsedJson[R] : unknown) | null };
export type ScrapeResult<R> = Omit<ScrapeResponse, 'results'> & { results: Array<Page<R>> };
export type JobResult<R = unknown> = Omit<JobCollection, 'results'> & { results?: Array<Page<R>> };
export type DoneJob<R = unknown> = JobResult<R> & { status: 'done'; results: Array<Page<R>> };

/** A job that ended `faulted`: `code`, `status` and the detail come from its `error`. */
export class GleanerJobError extends GleanerApiError {
  constructor(readonly job: JobResult) {
    const e = job.error ?? { title: 'INTERNAL_ERROR' as const, status: 500, detail: 'The job faulted without an error record.' };
    super(e.status, { title: e.title, status: e.status, detail: e.detail } as Problem, `job ${job.metadata?.request_id ?? ''} faulted: ${e.title}: ${e.detail}`);
    this.name = 'GleanerJobError';
  }
}

/**
 * The path of a route in a mode. Plain JavaScript callers get no compile-time check, so an
 * unknown route (or one without that mode) is refused here by name, not sent to `.../undefined`.
 */
function pathOf(mode: 'sync' | 'async' | 'batch', route: string): string {
  const paths = PATHS[mode] as Record<string, string>;
  if (typeof route === 'string' && Object.hasOwn(paths, route)) return paths[route] as string;
  const other = (['sync', 'async', 'batch'] as const).filter((m) => Object.hasOwn(PATHS[m], route));
  const hint = other.length > 0 ? `; it has ${other.join(', ')} (use ${other.map((m) => ({ sync: 'scrape', async: 'submit/run', batch: 'submitBatch/runBatch' })[m]).join(' or ')})` : '; routes are listed by GET /v1/scrapers and in PATHS';
  throw new TypeError(`Unknown ${mode} route ${JSON.stringify(route)}${hint}.`);
}

export type BatchOutcome<R> = { id: string; ok: true; job: DoneJob<R> } | { id: string; ok: false; error: Error };

function isProblem(value: unknown): value is Problem {
  return !!value && typeof value === 'object' && typeof (value as Problem).title === 'string' && typeof (value as Problem).status === 'number';
}

export class Gleaner {
  private readonly baseUrl: string;
  private readonly policy: RetryPolicy;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: GleanerOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.policy = { ...DEFAULT_RETRY, ...options.retry };
    this.fetchImpl = options.fetch ?? globalThis.fetch;
    if (!this.fetchImpl) throw new Error('no fetch: pass options.fetch');
  }

  /** Sync scrape of any route with a sync mode (`universal` is `POST /v1/scrape`). */
  scrape<R extends SyncRoute>(route: R, params: SyncParams[R], opts: CallOptions = {}): Promise<ScrapeResult<R>> {
    return this.request('POST', pathOf('sync', route), params, opts);
  }

  search(params: SearchParams, opts: CallOptions = {}): Promise<SearchResponse> {
    return this.request('POST', '/v1/search', params, opts);
  }

  /** Submits one async job; the answer is committed before it returns (202). Its id remembers the route. */
  submit<R extends AsyncRoute>(route: R, params: AsyncParams[R], opts: CallOptions = {}): Promise<Submitted<R>> {
    return this.request('POST', pathOf('async', route), params, opts);
  }

  /** One job per value of the route's `query` or `url` array. */
  submitBatch<R extends BatchRoute>(route: R, params: BatchParams[R], opts: CallOptions = {}): Promise<BatchSubmittedTo<R>> {
    return this.request('POST', pathOf('batch', route), params, opts);
  }

  /** A job's collection document, in any state (typed by the route when the id came from `submit`). */
  job<R>(id: JobId<R>, opts?: CallOptions): Promise<JobResult<R>>;
  job<R = unknown>(id: string, opts?: CallOptions): Promise<JobResult<R>>;
  job<R>(id: string, opts: CallOptions = {}): Promise<JobResult<R>> {
    return this.request('GET', `/v1/async/scrape/${encodeURIComponent(id)}`, undefined, opts);
  }

  /**
   * Polls until the job is done (resolves) or faulted (rejects with GleanerJobError). An id
   * from `submit` types the answer by its route (`wait(job.metadata.request_id)`); a plain id
   * string takes the route as a type argument (`wait<'se1/search'>(id)`) or answers untyped JSON.
   */
  wait<R>(id: JobId<R>, opts?: WaitOptions): Promise<DoneJob<R>>;
  wait<R = unknown>(id: string, opts?: WaitOptions): Promise<DoneJob<R>>;
  async wait<R>(id: string, opts: WaitOptions = {}): Promise<DoneJob<R>> {
    const deadline = Date.now() + (opts.timeoutMs ?? 600_000);
    let interval = opts.intervalMs ?? 500;
    for (;;) {
      const job = await this.job<R>(id, opts);
      if (job.status === 'done') return job as DoneJob<R>;
      if (job.status === 'faulted') throw new GleanerJobError(job);
      if (Date.now() + interval > deadline) throw new Error(`job ${id} still pending after ${opts.timeoutMs ?? 600_000} ms`);
      // Jitter the interval so that many waiting clients do not poll in step.
      await sleep(interval / 2 + Math.random() * (interval / 2), opts.signal);
      interval = Math.min(opts.maxIntervalMs ?? 5000, Math.ceil(interval * 1.5));
    }
  }

  /** submit + wait. */
  async run<R extends AsyncRoute>(route: R, params: AsyncParams[R], opts: WaitOptions = {}): Promise<DoneJob<R>> {
    const job = await this.submit(route, params, opts);
    return this.wait<R>(job.metadata.request_id as string, opts);
  }

  /** Waits for many jobs, `concurrency` polls at a time; one outcome per id, in order. */
  waitAll<R>(ids: ReadonlyArray<JobId<R>>, opts?: WaitOptions & { concurrency?: number }): Promise<Array<BatchOutcome<R>>>;
  waitAll<R = unknown>(ids: readonly string[], opts?: WaitOptions & { concurrency?: number }): Promise<Array<BatchOutcome<R>>>;
  async waitAll<R>(ids: readonly string[], opts: WaitOptions & { concurrency?: number } = {}): Promise<Array<BatchOutcome<R>>> {
    const outcomes: Array<BatchOutcome<R>> = new Array(ids.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < ids.length) {
        const i = next++;
        try {
          outcomes[i] = { id: ids[i], ok: true, job: await this.wait<R>(ids[i], opts) };
        } catch (error) {
          if (opts.signal?.aborted) throw error;
          outcomes[i] = { id: ids[i], ok: false, error: error as Error };
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(ids.length, opts.concurrency ?? 8) }, worker));
    return outcomes;
  }

  /** submitBatch + waitAll. */
  async runBatch<R extends BatchRoute>(route: R, params: BatchParams[R], opts: WaitOptions & { concurrency?: number } = {}): Promise<Array<BatchOutcome<R>>> {
    const submitted = await this.submitBatch(route, params, opts);
    return this.waitAll<R>(submitted.data.map((d) => d.metadata.request_id), opts);
  }

  /** The URLs of a site from its sitemaps and its start page's links (`POST /v1/map`). */
  map(params: MapParams, opts: CallOptions = {}): Promise<MapResponse> {
    return this.request('POST', '/v1/map', params, opts);
  }

  /** Starts a crawl (`POST /v1/async/crawl`); committed before it returns (202). */
  crawl(params: CrawlParams, opts: CallOptions = {}): Promise<CrawlSubmitted> {
    return this.request('POST', '/v1/async/crawl', params, opts);
  }

  /** A crawl's status, counts and one page of results (or of skipped URLs with `view: 'skipped'`). */
  crawlStatus(id: string, query: { cursor?: string; limit?: number; view?: 'results' | 'skipped' } = {}, opts: CallOptions = {}): Promise<CrawlStatus> {
    const q = new URLSearchParams();
    if (query.cursor !== undefined) q.set('cursor', query.cursor);
    if (query.limit !== undefined) q.set('limit', String(query.limit));
    if (query.view !== undefined) q.set('view', query.view);
    const tail = q.size > 0 ? `?${q}` : '';
    return this.request('GET', `/v1/async/crawl/${encodeURIComponent(id)}${tail}`, undefined, opts);
  }

  /** Every page of a crawl as it comes: follows the cursor, polling while the crawl runs, until it is final and read. */
  async *crawlPages(id: string, opts: WaitOptions & { limit?: number } = {}): AsyncGenerator<CrawlPage> {
    let cursor = '0';
    let interval = opts.intervalMs ?? 500;
    for (;;) {
      const page = await this.crawlStatus(id, { cursor, limit: opts.limit ?? 100 }, opts);
      for (const p of page.results ?? []) yield p;
      if (page.next === null || page.next === undefined) return;
      if ((page.results ?? []).length === 0) {
        await sleep(interval / 2 + Math.random() * (interval / 2), opts.signal);
        interval = Math.min(opts.maxIntervalMs ?? 5000, Math.ceil(interval * 1.5));
      } else interval = opts.intervalMs ?? 500;
      cursor = page.next;
    }
  }

  /** Cancels a crawl; the pages fetched so far are kept. */
  cancelCrawl(id: string, opts: CallOptions = {}): Promise<CrawlStatus> {
    return this.request('DELETE', `/v1/async/crawl/${encodeURIComponent(id)}`, undefined, opts);
  }

  scrapers(opts: CallOptions = {}): Promise<Scrapers> {
    return this.request('GET', '/v1/scrapers', undefined, opts);
  }

  private async request<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body: unknown, opts: CallOptions): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.options.apiKey}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const init: RequestInit = { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}), ...(opts.signal ? { signal: opts.signal } : {}) };
    for (let attempt = 0; ; attempt++) {
      const last = attempt + 1 >= this.policy.attempts;
      let res: Response;
      try {
        res = await this.fetchImpl(this.baseUrl + path, init);
      } catch (err) {
        // No answer at all (refused, reset): worth another try, unless the caller gave up.
        if (opts.signal?.aborted || last) throw err;
        await sleep(backoffMs(attempt, this.policy), opts.signal);
        continue;
      }
      const text = await res.text();
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      if (res.ok) return parsed as T;
      const problem = isProblem(parsed) ? parsed : undefined;
      if (last || !retryable(res.status, problem?.title)) throw problem ? new GleanerApiError(res.status, problem) : new GleanerHttpError(res.status, undefined);
      await sleep(backoffMs(attempt, this.policy, retryAfterMs(res.headers.get('retry-after'))), opts.signal);
    }
  }
}
