/**
 * The pages of one running crawl (the base of CrawlRun, run.ts): the crawl's setup from its
 * params (scope rules, discovery limits, the host schedule), and each page from dispatch to
 * commit — the page task on the farm, its commit to the store (CrawlStore.complete) or, when it
 * failed, its skip — with the bookkeeping the pump reads meanwhile (pages in flight, their
 * depths, charges not yet committed).
 *
 * Separate from run.ts, which decides which pages start and when the crawl ends. A base class
 * rather than a helper object because both halves read and write the same crawl state (the
 * stored counts, how the run is ending, the start page's status or error) on one event loop;
 * what the pages need of the run is the abstract hooks at the end.
 *
 * Concurrency hazard: a commit awaits the store while the pump runs; `uncharged` and
 * `committing` are what the pump's quota check reads meanwhile, and `state` is replaced by
 * whichever store answer lands last (each is the store's state after that commit).
 */
import { toWireError, type WireError } from '../../core/errors.js';
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
import type { SeedContext } from './seeds.js';

/** A page batch gathers this long before its delivery is due. */
const BATCH_MS = 2000;

export abstract class CrawlPages {
  readonly id: string;
  readonly clientId: number;
  readonly params: CrawlParams;
  protected readonly rules: CrawlRules;
  protected readonly limits: DiscoveryLimits;
  protected readonly schedule: Schedule;
  /** seq → controller of the page task in flight. */
  protected readonly inFlight = new Map<number, AbortController>();
  /** Depth of each page in flight (seq → depth): the level the crawl is on (`level`). */
  protected readonly depths = new Map<number, number>();
  /** Pages dispatched whose charge is not committed yet (the quota check counts them as used). */
  protected uncharged = 0;
  /** Page commits in progress. */
  protected committing = 0;
  protected state: CrawlState | undefined;
  protected ending: JobOutcome | undefined;
  protected firstError: WireError | undefined;
  protected startStatus: number | undefined;

  constructor(
    protected readonly job: JobRecord,
    protected readonly opts: CrawlEngineOptions,
    protected readonly slots: PageSlots,
    protected readonly signal: AbortSignal,
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

  protected get store(): CrawlStore {
    return this.opts.crawls;
  }

  counts(): CrawlState['counts'] | undefined {
    return this.state?.counts;
  }

  protected fetchContext(signal?: AbortSignal): FetchContext {
    return { farm: this.opts.farm, accountId: this.clientId, location: this.params.scrape.location, device: this.params.scrape.device, deadlineMs: this.opts.pageTimeoutMs, ...(signal ? { signal } : {}) };
  }

  protected seedContext(): SeedContext {
    return { store: this.store, id: this.id, rules: this.rules, limits: this.limits, fetch: this.fetchContext(this.signal), wanted: () => !this.ending && !this.signal.aborted };
  }

  /** The least depth among the pages in flight and the frontier's head (`headDepth`). */
  protected level(headDepth: number): number {
    let least = headDepth;
    for (const d of this.depths.values()) if (d < least) least = d;
    return least;
  }

  protected dispatch(entry: FrontierEntry): void {
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

  /** Looks for pages to start (the pump, run.ts). */
  abstract wake(): void;
  /** Stops now: pages in flight are abandoned. */
  abstract cancel(): void;
  protected abstract end(outcome: JobOutcome): void;
  protected abstract settleIfIdle(): void;
  protected abstract progress(force: boolean): void;
}
