/**
 * Per-host politeness of one crawl: at most `maxInFlight` fetches open on a host, and at least
 * `delayMs` between the starts of two of them (raised to the host's robots.txt Crawl-delay).
 * A host that answers 429 or 503 through every retry of a page is slowed: its delay doubles (up
 * to MAX_BACKOFF_MS) and comes back down by a quarter with each page it serves.
 *
 * The last start is also in the store (CrawlStore.lease stamps it), and a gate that meets a host
 * for the first time after a restart starts from that stamp: politeness holds across restarts.
 * Robots rules are kept per host here (parsed once) and their fetch result in the store.
 */
import type { RobotsRules } from '../../core/crawl/robots.js';

export const MAX_BACKOFF_MS = 60_000;

export class HostGate {
  inFlight = 0;
  /** Earliest start of the next fetch (Unix ms). */
  nextAt = 0;
  /** The delay in force (configured, Crawl-delay, backoff). */
  delayMs: number;
  robots: RobotsRules | undefined;
  /** robots.txt is being fetched; URLs of the host wait for it. */
  robotsPending = false;
  /** The store's stamp was read (first use after a start). */
  loaded = false;

  constructor(
    readonly host: string,
    private readonly baseDelayMs: number,
    private readonly maxInFlight: number,
  ) {
    this.delayMs = baseDelayMs;
  }

  /** The last start recorded before this process met the host (a restart keeps the spacing). */
  restore(lastFetchAt: number): void {
    this.loaded = true;
    this.nextAt = Math.max(this.nextAt, lastFetchAt + this.delayMs);
  }

  setRobots(rules: RobotsRules): void {
    this.robots = rules;
    if (rules.crawlDelayMs !== undefined && rules.crawlDelayMs > this.delayMs) {
      this.nextAt += rules.crawlDelayMs - this.delayMs;
      this.delayMs = rules.crawlDelayMs;
    }
  }

  /** The floor of the delay: configured, or the robots.txt Crawl-delay when higher. */
  private floor(): number {
    return Math.max(this.baseDelayMs, this.robots?.crawlDelayMs ?? 0);
  }

  ready(now: number): boolean {
    return this.inFlight < this.maxInFlight && now >= this.nextAt;
  }

  /** When a fetch could start, if only time stands in the way (undefined: a slot must free first). */
  readyAt(): number | undefined {
    return this.inFlight < this.maxInFlight ? this.nextAt : undefined;
  }

  take(now: number): void {
    this.inFlight++;
    this.nextAt = Math.max(now, this.nextAt) + this.delayMs;
  }

  /**
   * A fetch ended; `throttled`: the host answered 429/503 through every retry. `startedAt`: when
   * the worker really began it (a dispatch may wait for a worker on a loaded node): the next
   * start is spaced from there, so the spacing holds at the site, not only at dispatch.
   */
  release(throttled: boolean, startedAt?: number): void {
    if (startedAt !== undefined) this.nextAt = Math.max(this.nextAt, startedAt + this.delayMs);
    this.inFlight = Math.max(0, this.inFlight - 1);
    const floor = this.floor();
    if (throttled) this.delayMs = Math.min(MAX_BACKOFF_MS, Math.max(1000, this.delayMs * 2));
    else if (this.delayMs > floor) this.delayMs = Math.max(floor, Math.round(this.delayMs * 0.75));
  }
}
