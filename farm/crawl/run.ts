/**
 * One running crawl on this node: seeds its frontier (start URL, sitemaps), then dispatches
 * frontier entries to the farm as page tasks — breadth first, within the global page slots,
 * the per-host gates (hosts.ts) and robots.txt — and commits each page (CrawlStore.complete)
 * before anything depends on it. Nothing of the crawl lives only here: the frontier, the
 * seen-set, the counts and the host stamps are in the store, so a crawl resumes after kill -9
 * from its last commit. What this holds in memory is bounded by the crawl's concurrency: the
 * pages in flight, a window of the frontier's head, and one gate per host.
 *
 * Concurrency hazard: `pump` awaits the store between reading the frontier and dispatching;
 * it runs one at a time (`pumping`), and a wake-up meanwhile sets `again` for one more pass.
 */
import { GleanerError, toWireError, type WireError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { CrawlRules } from '../../core/crawl/scope.js';
import { hostOf, normaliseUrl } from '../../core/crawl/url.js';
import type { CrawlState, CrawlStore, DiscoveryLimits, FrontierEntry } from '../../core/store/crawls.js';
import type { DeliveryKind, JobOutcome, JobRecord } from '../../core/store/jobs.js';
import type { ScrapeOutcome, ScrapeTask } from '../../core/wire.js';
import type { FetchContext } from './fetch-part.js';
import type { HostGate } from './hosts.js';
import { Schedule } from './schedule.js';
import type { CrawlEngineOptions, PageSlots } from './engine.js';
import { crawlParams, type CrawlParams } from './params.js';
import { seedCrawl, type SeedContext } from './seeds.js';

/** Frontier entries read past those in flight, to find one whose host is ready. */
const WINDOW = 256;
/** A page in flight at this many process deaths is failed instead of fetched again. */
export const MAX_LEASES = 3;
/** How often a waiting crawl looks at its stored state (a DELETE on another node). */
const POLL_MS = 1000;
/** Progress events at most this often per crawl. */
const PROGRESS_MS = 1000;
/** A page batch gathers this long before its delivery is due. */
const BATCH_MS = 2000;

export class CrawlRun {
  readonly id: string;
  readonly clientId: number;
  readonly params: CrawlParams;
  private readonly rules: CrawlRules;
  private readonly limits: DiscoveryLimits;
  private readonly schedule: Schedule;
  /** seq → controller of the page task in flight. */
  private readonly inFlight = new Map<number, AbortController>();
  /** Depth of each page in flight (seq → depth): the level the crawl is on (`level`). */
  private readonly depths = new Map<number, number>();
  /** Pages dispatched whose charge is not committed yet (the quota check counts them as used). */
  private uncharged = 0;
  /** Page commits in progress. */
  private committing = 0;
  private state: CrawlState | undefined;
  private pumping = false;
  private again = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private poll: ReturnType<typeof setInterval> | undefined;
  private lastProgress = 0;
  private ending: JobOutcome | undefined;
  private firstError: WireError | undefined;
  private startStatus: number | undefined;
  private finished!: (outcome: JobOutcome) => void;
  private interrupted!: (err: Error) => void;
  private readonly done = new Promise<JobOutcome>((resolve, reject) => {
    this.finished = resolve;
    this.interrupted = reject;
  });

  constructor(
    private readonly job: JobRecord,
    private readonly opts: CrawlEngineOptions,
    private readonly slots: PageSlots,
    private readonly signal: AbortSignal,
  ) {
    this.id = job.id;
    this.clientId = job.clientId;
    this.params = crawlParams(job.params);
    const start = normaliseUrl(this.params.url, undefined, { ignoreQuery: this.params.ignore_query_parameters }) ?? this.params.url;
    this.rules = { start, allowSubdomains: this.params.allow_subdomains, allowExternal: this.params.allow_external, ignoreQuery: this.params.ignore_query_parameters, include: this.params.include_paths, exclude: this.params.exclude_paths };
    const drains: DeliveryKind[] = [];
    if (this.params.callback_url && this.params.callback_pages) drains.push('webhook');
    if (this.params.storage) drains.push('storage');
    this.limits = { maxDepth: this.params.max_depth, maxDiscovered: Math.min(1_000_000, Math.max(10_000, this.params.limit * 10)), drains, batchMs: BATCH_MS };
    this.schedule = new Schedule({
      store: opts.crawls,
      id: this.id,
      delayMs: this.params.delay_ms,
      perHost: this.params.max_concurrency_per_host,
      respectRobots: this.params.respect_robots,
      slots,
      log: opts.log,
      seedContext: () => this.seedContext(),
      wake: () => this.wake(),
    });
  }

  private get store(): CrawlStore {
    return this.opts.crawls;
  }

  counts(): CrawlState['counts'] | undefined {
    return this.state?.counts;
  }

  /** Runs to the end: done (frontier empty or limit reached), faulted, or cancelled. */
  async run(): Promise<JobOutcome> {
    this.state = await this.store.init(this.id, this.clientId);
    if (this.state.cancelRequested) return this.cancelled();
    this.signal.addEventListener('abort', () => this.end({ ok: false, error: { code: 'SERVICE_UNAVAILABLE', message: 'interrupted' } }), { once: true });
    this.poll = setInterval(() => void this.refresh(), POLL_MS);
    this.poll.unref();
    try {
      if (!this.state.seeded) {
        await seedCrawl(this.seedContext(), this.params.sitemap, this.schedule.gate(hostOf(this.rules.start)));
        this.state = (await this.store.get(this.id)) ?? this.state;
      }
    } catch (err) {
      if (!this.ending) this.end({ ok: false, error: toWireError(err) });
    }
    this.wake();
    return this.done;
  }

  /** Stops now (DELETE on this node): pages in flight are abandoned (they stay in the frontier), then it ends `cancelled`. */
  cancel(): void {
    this.end({ ok: false, cancelled: true, error: { code: 'NOT_FOUND', message: 'The crawl was cancelled.' } });
  }

  private cancelled(): JobOutcome {
    return { ok: false, cancelled: true, error: { code: 'NOT_FOUND', message: 'The crawl was cancelled.' } };
  }

  private fetchContext(signal?: AbortSignal): FetchContext {
    return { farm: this.opts.farm, accountId: this.clientId, location: this.params.scrape.location, device: this.params.scrape.device, deadlineMs: this.opts.pageTimeoutMs, ...(signal ? { signal } : {}) };
  }

  private seedContext(): SeedContext {
    return { store: this.store, id: this.id, rules: this.rules, limits: this.limits, fetch: this.fetchContext(this.signal), wanted: () => !this.ending && !this.signal.aborted };
  }

  private async refresh(): Promise<void> {
    if (this.ending) return;
    const state = await this.store.get(this.id);
    if (state?.cancelRequested) this.cancel();
  }

  wake(): void {
    if (this.ending) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    this.pumpOnce()
      .catch((err: unknown) => this.end({ ok: false, error: toWireError(err) }))
      .finally(() => {
        this.pumping = false;
        if (this.again && !this.ending) {
          this.again = false;
          this.wake();
        }
      });
  }

  private roomLeft(): number {
    const counts = this.state!.counts;
    return this.params.limit - counts.done - this.inFlight.size;
  }

  private async pumpOnce(): Promise<void> {
    clearTimeout(this.timer);
    for (;;) {
      if (this.ending) return;
      if (this.roomLeft() <= 0) {
        if (this.inFlight.size === 0) this.end(this.success());
        return;
      }
      const head = await this.store.frontier(this.id, this.inFlight.size + WINDOW);
      const queued = head.filter((e) => !this.inFlight.has(e.seq));
      if (queued.length === 0) {
        if (this.inFlight.size === 0) this.end(this.success());
        return;
      }
      // Level by level: no page deeper than one in flight starts, so every URL is taken in first
      // from a page of the least depth that links it (a deeper page committed first would give it
      // a greater depth, and max_depth would drop it). Pages in flight end and wake the pump.
      const level = this.level(queued[0]!.depth);
      const waiting = queued.filter((e) => e.depth === level);
      if (waiting.length === 0) return;
      const quota = this.opts.quotaCheck(this.clientId, this.uncharged + 1, this.params.scrape.run_js === true);
      // A commit in progress may or may not show in the stored usage yet: decide after it.
      if (quota && this.committing > 0) return;
      if (quota) {
        await this.store.stop(this.id, quota);
        this.firstError = quota;
        this.stopWhenIdle(quota);
        return;
      }
      const { start: picked, robotsSkips } = await this.schedule.pick(waiting, Math.min(this.roomLeft(), this.slots.free()));
      if (robotsSkips > 0) {
        this.state!.counts.skipped_robots += robotsSkips;
        this.state!.counts.queued -= robotsSkips;
        if (picked.length === 0) continue; // skips were recorded: read the frontier anew
      }
      if (picked.length === 0) {
        const at = this.schedule.nextLook(waiting);
        if (at !== undefined) this.timer = setTimeout(() => this.wake(), Math.max(1, at - Date.now()));
        return;
      }
      // The lease (a dispatch counted, the host stamped) is written as the fetches start, in the
      // commit batch of the pages ending meanwhile: waiting for its fsync first would add one
      // to every page's latency. An entry in flight at MAX_LEASES crashes is failed by it instead.
      const poisoned = picked.filter((e) => e.leases >= MAX_LEASES);
      for (const e of picked) if (e.leases < MAX_LEASES) this.dispatch(e);
      for (const e of poisoned) {
        this.schedule.gate(hostOf(e.url)).release(false);
        this.slots.release();
      }
      const { failed } = await this.store.lease(this.id, picked.map((e) => ({ seq: e.seq, depth: e.depth, host: hostOf(e.url) })), Date.now(), MAX_LEASES);
      if (failed.length > 0) this.state = (await this.store.get(this.id)) ?? this.state;
    }
  }

  /** The least depth among the pages in flight and the frontier's head (`headDepth`). */
  private level(headDepth: number): number {
    let least = headDepth;
    for (const d of this.depths.values()) if (d < least) least = d;
    return least;
  }

  private dispatch(entry: FrontierEntry): void {
    const controller = new AbortController();
    this.inFlight.set(entry.seq, controller);
    this.depths.set(entry.seq, entry.depth);
    this.uncharged++;
    let charged = false;
    const settled = (): void => {
      if (!charged) this.uncharged--;
      charged = true;
    };
    const task: ScrapeTask = {
      id: newId(),
      routeId: 'universal',
      params: { ...this.params.scrape, url: entry.url },
      accountId: this.clientId,
      deadline: Date.now() + this.opts.pageTimeoutMs,
      crawl: { kind: 'page', crawlId: this.id, seq: entry.seq, rules: this.rules, respectRobots: this.params.respect_robots },
    };
    const gate = this.schedule.gate(hostOf(entry.url));
    this.opts.farm
      .run(task, controller.signal)
      .then(
        (outcome) => this.commit(entry, outcome, gate, settled).finally(settled),
        (err: unknown) => {
          settled();
          return this.fail(entry, toWireError(err), gate, controller.signal.aborted);
        },
      )
      .catch((err: unknown) => this.end({ ok: false, error: toWireError(err) }))
      .finally(() => {
        this.inFlight.delete(entry.seq);
        this.depths.delete(entry.seq);
        this.slots.release();
        if (this.ending) this.settleIfIdle();
        else this.wake();
      });
  }

  /** `settle`: the page's charge is committed (or it has none): the quota check stops counting it. */
  private async commit(entry: FrontierEntry, outcome: ScrapeOutcome, gate: HostGate, settle: () => void): Promise<void> {
    gate.release(false, outcome.crawl?.startedAt);
    if (this.ending?.ok === false && this.ending.cancelled === true) return settle();
    const found = outcome.crawl ?? {};
    const follow = this.params.sitemap !== 'only';
    const kept = !found.redirected && outcome.results.length > 0;
    const charge = kept ? this.opts.chargeOf(this.job, this.params.scrape, outcome.usage) : undefined;
    this.committing++;
    const out = await this.store.complete(
      this.id,
      {
        seq: entry.seq,
        depth: entry.depth,
        statusCode: outcome.status,
        links: follow ? (found.links ?? []) : [],
        refused: follow || found.redirected ? (found.refused ?? []) : [],
        ...(found.redirected ? { redirect: found.redirect ?? null } : {}),
        ...(found.finalUrl !== undefined ? { finalUrl: found.finalUrl } : {}),
        ...(found.canonical !== undefined ? { canonical: found.canonical } : {}),
        ...(charge ? { charge } : {}),
        ...(outcome.results[0] ? { result: outcome.results[0] } : {}),
      },
      this.limits,
    ).finally(() => {
      this.committing--;
      settle();
    });
    if (!out) return;
    this.state = out.state;
    if (entry.source === 'start') this.startStatus = outcome.status;
    if (out.page && charge) this.opts.onPage?.(this.job, outcome.usage);
    if (out.state.cancelRequested) this.cancel();
    this.progress(false);
  }

  private async fail(entry: FrontierEntry, error: WireError, gate: HostGate, aborted: boolean): Promise<void> {
    gate.release(/HTTP (429|503)\b/.test(error.message));
    // Abandoned (cancel, shutdown): the entry stays in the frontier for the next run.
    if (aborted || this.ending) return;
    if (entry.source === 'start') this.firstError ??= error;
    const title = error.code === 'UPSTREAM_FAILED' ? 'REQUEST_FAILED_AFTER_MANY_RETRIES' : error.code;
    if (await this.store.skip(this.id, entry, { reason: 'failed', error: { title, detail: error.message } })) {
      this.state!.counts.failed++;
      this.state!.counts.queued--;
    }
    this.progress(false);
  }

  /** A quota stop: no new page starts; those in flight are committed, then the crawl ends faulted. */
  private stopWhenIdle(error: WireError): void {
    this.ending ??= { ok: false, error };
    this.settleIfIdle();
  }

  private success(): JobOutcome {
    const counts = this.state!.counts;
    // The start page failed and nothing was fetched: the site did not answer.
    if (counts.done === 0 && this.firstError) return { ok: false, error: this.firstError };
    return { ok: true, upstreamStatus: this.startStatus ?? 200, results: undefined };
  }

  /**
   * Ends the run with `outcome` once no page is in flight. The first end wins, except a cancel
   * or an interruption, which abandon the pages in flight (they stay in the frontier) at once.
   */
  private end(outcome: JobOutcome): void {
    const abandon = this.signal.aborted || (!outcome.ok && outcome.cancelled === true);
    if (this.ending && !abandon) return;
    this.ending = outcome;
    clearTimeout(this.timer);
    if (abandon) for (const c of this.inFlight.values()) c.abort();
    this.settleIfIdle();
  }

  private settleIfIdle(): void {
    if (!this.ending || this.inFlight.size > 0) return;
    clearInterval(this.poll);
    clearTimeout(this.timer);
    this.progress(true);
    // Interrupted (shutdown, destroy): the job stays queued and resumes at the next start.
    if (this.signal.aborted) this.interrupted(new GleanerError('SERVICE_UNAVAILABLE', 'The crawl was interrupted; it resumes when the service starts.'));
    else this.finished(this.ending);
  }

  private progress(force: boolean): void {
    const now = Date.now();
    if (!this.state || (!force && now - this.lastProgress < PROGRESS_MS)) return;
    this.lastProgress = now;
    this.opts.onProgress?.(this.job, { ...this.state.counts });
  }
}
