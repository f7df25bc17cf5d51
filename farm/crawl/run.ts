/**
 * One running crawl on this node: seeds its frontier (start URL, sitemaps), then dispatches
 * frontier entries to the farm as page tasks — breadth first, within the global page slots,
 * the per-host gates (hosts.ts) and robots.txt — and commits each page (CrawlStore.complete)
 * before anything depends on it. Nothing of the crawl lives only here: the frontier, the
 * seen-set, the counts and the host stamps are in the store, so a crawl resumes after kill -9
 * from its last commit. What this holds in memory is bounded by the crawl's concurrency: the
 * pages in flight, a window of the frontier's head, and one gate per host. This class is the
 * pump and the run's end; the crawl's setup and each page from dispatch to commit are its base
 * class (pages.ts).
 *
 * Concurrency hazard: `pump` awaits the store between reading the frontier and dispatching;
 * it runs one at a time (`pumping`), and a wake-up meanwhile sets `again` for one more pass.
 * Pages end during that await too: a read that still lists a page which was in flight when the
 * read began and has ended since is stale, and is made again (else that page would start twice).
 */
import { GleanerError, toWireError, type WireError } from '../../core/errors.js';
import { hostOf } from '../../core/crawl/url.js';
import type { JobOutcome } from '../../core/store/jobs.js';
import { CrawlPages } from './pages.js';
import { seedCrawl } from './seeds.js';

/** Frontier entries read past those in flight, to find one whose host is ready. */
const WINDOW = 256;
/** A page in flight at this many process deaths is failed instead of fetched again. */
export const MAX_LEASES = 3;
/** How often a waiting crawl looks at its stored state (a DELETE on another node). */
const POLL_MS = 1000;
/** Progress events at most this often per crawl. */
const PROGRESS_MS = 1000;

export class CrawlRun extends CrawlPages {
  private pumping = false;
  private again = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private poll: ReturnType<typeof setInterval> | undefined;
  private lastProgress = 0;
  private finished!: (outcome: JobOutcome) => void;
  private interrupted!: (err: Error) => void;
  private readonly done = new Promise<JobOutcome>((resolve, reject) => {
    this.finished = resolve;
    this.interrupted = reject;
  });

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
      // A page in flight when the read starts may be committed before its answer arrives and
      // still be in what was read (the store answers as of some moment during the read): such
      // an answer is stale — the page would start again, and its links are missing — so it is
      // read again.
      const before = new Set(this.inFlight.keys());
      const head = await this.store.frontier(this.id, this.inFlight.size + WINDOW);
      if (head.some((e) => before.has(e.seq) && !this.inFlight.has(e.seq))) continue;
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
  protected end(outcome: JobOutcome): void {
    const abandon = this.signal.aborted || (!outcome.ok && outcome.cancelled === true);
    if (this.ending && !abandon) return;
    this.ending = outcome;
    clearTimeout(this.timer);
    if (abandon) for (const c of this.inFlight.values()) c.abort();
    this.settleIfIdle();
  }

  protected settleIfIdle(): void {
    if (!this.ending || this.inFlight.size > 0) return;
    clearInterval(this.poll);
    clearTimeout(this.timer);
    this.progress(true);
    // Interrupted (shutdown, destroy): the job stays queued and resumes at the next start.
    if (this.signal.aborted) this.interrupted(new GleanerError('SERVICE_UNAVAILABLE', 'The crawl was interrupted; it resumes when the service starts.'));
    else this.finished(this.ending);
  }

  protected progress(force: boolean): void {
    const now = Date.now();
    if (!this.state || (!force && now - this.lastProgress < PROGRESS_MS)) return;
    this.lastProgress = now;
    this.opts.onProgress?.(this.job, { ...this.state.counts });
  }
}
