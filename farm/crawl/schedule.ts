/**
 * Which frontier entries of a crawl start now: one HostGate per host (hosts.ts: spacing and
 * in-flight cap, restored from the store's stamp after a restart), robots.txt (fetched once per
 * host, in the background, while that host's URLs wait; a URL it keeps out is recorded with the
 * decision), and the node's page slots. What cannot start now says when to look again.
 */
import { hostOf } from '../../core/crawl/url.js';
import type { Logger } from '../../core/log.js';
import type { CrawlStore, FrontierEntry } from '../../core/store/crawls.js';
import type { PageSlots } from './engine.js';
import { HostGate } from './hosts.js';
import { robotsFor, type SeedContext } from './seeds.js';

export interface ScheduleDeps {
  store: CrawlStore;
  id: string;
  delayMs: number;
  perHost: number;
  respectRobots: boolean;
  slots: PageSlots;
  log: Logger;
  seedContext(): SeedContext;
  /** Look at the frontier again (robots arrived, a slot freed, a host is ready). */
  wake(): void;
}

export interface Picked {
  /** Entries to start now (their gates and slots are taken). */
  start: FrontierEntry[];
  /** URLs recorded as kept out by robots.txt in this pass. */
  robotsSkips: number;
}

export class Schedule {
  private readonly hosts = new Map<string, HostGate>();

  constructor(private readonly deps: ScheduleDeps) {}

  gate(host: string): HostGate {
    let gate = this.hosts.get(host);
    if (!gate) this.hosts.set(host, (gate = new HostGate(host, this.deps.delayMs, this.deps.perHost)));
    return gate;
  }

  /** Entries that may start now, at most `room`. */
  async pick(waiting: readonly FrontierEntry[], room: number): Promise<Picked> {
    const { store, id, respectRobots, slots } = this.deps;
    const now = Date.now();
    const start: FrontierEntry[] = [];
    // Robots skips are written together (one commit) after the pass.
    const skips: Array<Promise<boolean>> = [];
    for (const entry of waiting) {
      if (start.length >= room) break;
      const host = hostOf(entry.url);
      const gate = this.gate(host);
      if (!gate.loaded) gate.restore((await store.host(id, host))?.lastFetchAt ?? 0);
      if (respectRobots && !gate.robots) {
        this.fetchRobots(gate, entry.url);
        continue;
      }
      const decision = respectRobots ? gate.robots?.check(entry.url) : undefined;
      if (decision) {
        skips.push(store.skip(id, entry, { reason: 'robots', robots: decision }));
        continue;
      }
      if (!gate.ready(now) || !slots.take()) continue;
      gate.take(now);
      start.push(entry);
    }
    const robotsSkips = (await Promise.all(skips)).filter(Boolean).length;
    return { start, robotsSkips };
  }

  private fetchRobots(gate: HostGate, pageUrl: string): void {
    if (gate.robotsPending) return;
    gate.robotsPending = true;
    void robotsFor(this.deps.seedContext(), gate, pageUrl)
      .catch((err: unknown) => this.deps.log.warn({ err, crawl_id: this.deps.id, host: gate.host }, 'robots.txt not read'))
      .finally(() => {
        gate.robotsPending = false;
        this.deps.wake();
      });
  }

  /** Nothing can start now: when to look again (undefined: a page ending or robots arriving will wake it). */
  nextLook(waiting: readonly FrontierEntry[]): number | undefined {
    let soonest = Infinity;
    for (const entry of waiting) {
      const at = this.gate(hostOf(entry.url)).readyAt();
      if (at !== undefined && at < soonest) soonest = at;
    }
    if (this.deps.slots.free() === 0) {
      this.deps.slots.onFree(() => this.deps.wake());
      // Slots held by sync requests free no callback: look again shortly.
      soonest = Math.min(soonest, Date.now() + 50);
    }
    return soonest === Infinity ? undefined : soonest;
  }
}
