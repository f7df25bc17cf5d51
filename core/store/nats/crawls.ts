/**
 * Crawls on NATS (core/store/crawls.ts; README "Crawls"): the `<ns>_crawls` KV bucket.
 *
 * | key | value |
 * |---|---|
 * | `s.<crawl>` | the state (counts, cursors, flags) and the last step's pending writes |
 * | `f.<crawl>.<depth>.<seq>` | frontier entry (zero-padded: key order is crawl order) |
 * | `u.<crawl>.<urlHash>` | seen-set: seq, -1 skipped, -2 dropped twin |
 * | `d.<crawl>.<seq>` | the entry left the frontier (committed, skipped, failed) |
 * | `p.<crawl>.<n>` / `k.<crawl>.<n>` | page records / skip records (n: 1.., contiguous) |
 * | `h.<crawl>.<host>` / `rb.<crawl>.<host>` | last fetch / robots.txt answer |
 *
 * Page results are in the results bucket (`crawl.<crawl>.<seq>`; the object store when large).
 * Each step is one CAS on the state record (crawl-steps.ts carries the rest). Steps are
 * serialised by the CAS: a step first applies the previous step if still pending, so it reads
 * a frontier and seen-set that include every committed step. One engine runs a crawl at a time
 * (the work queue's claim), but its steps overlap (pages in flight), and a step's writes may be
 * applied by two callers at once: a slow apply of an older step (a lease) can write a frontier
 * entry back after a newer step (its commit) removed it. The `d.` marker, written before the
 * removal and never removed while the crawl runs, keeps such an entry out of every read.
 * This module holds the steps; the reads, and `load` that every step starts with, are
 * crawl-reads.ts.
 */
import { urlHash } from '../../crawl/url.js';
import type { WireError } from '../../errors.js';
import { emptyCounts, type CommitOutcome, type CrawlState, type CrawlStore, type Discovered, type DiscoveryLimits, type FrontierEntry, type HostState, type PageDone, type PageRecord, type SkipRecord } from '../crawls.js';
import type { DeliveryKind } from '../jobs.js';
import { isCasConflict, toJson } from './connection.js';
import { CrawlReads } from './crawl-reads.js';
import { crawlKeys as K, cursorOf, type StoredCrawl } from './crawl-steps.js';
import { refuse, seenOf, takeIn, type Draft } from './crawl-intake.js';
import { deleteResult, writeResult } from './results.js';
import { retrying } from './publish.js';
import { casCreate, casPut } from './cas.js';
import { listKeys } from './key-list.js';

const MAX_ROBOTS_TEXT = 512 * 1024;
const DROPPED = -2;

export class NatsCrawls extends CrawlReads implements CrawlStore {
  /** Runs `compute` on the current state until its CAS lands; undefined from `compute`: nothing to write. */
  private async step<T>(id: string, compute: (d: Draft) => Promise<T | undefined>): Promise<T | undefined> {
    for (;;) {
      const current = await this.load(id);
      if (!current) return undefined;
      const draft: Draft = { state: structuredClone(current.state), step: {}, seen: new Map() };
      const value = await compute(draft);
      if (value === undefined) return undefined;
      if (draft.seen.size > 0) draft.step.seen = [...draft.seen];
      draft.state.updatedAt = Date.now();
      try {
        await retrying(() => casPut(this.kv, K.state(id), toJson({ ...draft.state, pending: draft.step } satisfies StoredCrawl), current.revision));
      } catch (err) {
        if (isCasConflict(err)) continue;
        throw err;
      }
      await this.load(id); // applies the step and clears it
      return value;
    }
  }

  async init(crawlId: string, clientId: number): Promise<CrawlState> {
    const now = Date.now();
    const state: CrawlState = { id: crawlId, clientId, counts: emptyCounts(), lastSeq: 0, seeded: false, cancelRequested: false, deliveries: {}, createdAt: now, updatedAt: now };
    try {
      await retrying(() => casCreate(this.kv, K.state(crawlId), toJson(state)));
      return state;
    } catch (err) {
      if (!isCasConflict(err)) throw err;
      return (await this.load(crawlId))!.state;
    }
  }

  async seed(crawlId: string, urls: readonly Discovered[], depth: number, limits: DiscoveryLimits, done = false): Promise<number> {
    return (
      (await this.step(crawlId, async (d) => {
        const added = await takeIn(this.kv, d, urls, depth, undefined, limits);
        if (done) d.state.seeded = true;
        return added;
      })) ?? 0
    );
  }

  private addSkip(d: Draft, entry: FrontierEntry, record: Omit<SkipRecord, 'n' | 'at' | 'url' | 'depth' | 'parent'>): void {
    const n = d.state.counts.skipped_robots + d.state.counts.failed + 1;
    (d.step.skips ??= []).push({ n, url: entry.url, depth: entry.depth, parent: entry.parent ?? null, at: Date.now(), ...record });
    (d.step.drop ??= []).push([entry.depth, entry.seq]);
    d.state.counts.queued--;
  }

  async lease(crawlId: string, seqs: readonly { seq: number; depth: number; host: string }[], now: number, maxLeases: number): Promise<{ leased: FrontierEntry[]; failed: number[] }> {
    const out = await this.step(crawlId, async (d) => {
      const leased: FrontierEntry[] = [];
      const failed: number[] = [];
      const entries = await Promise.all(seqs.map((s) => this.entry(crawlId, s.depth, s.seq)));
      const hosts = new Map<string, number>();
      seqs.forEach((s, i) => {
        const entry = entries[i];
        if (!entry) return;
        if (entry.leases >= maxLeases) {
          this.addSkip(d, entry, { reason: 'failed', error: { title: 'INTERNAL_ERROR', detail: `The page was in flight when the service stopped ${entry.leases} times; it is not fetched again.` } });
          d.state.counts.failed++;
          failed.push(s.seq);
          return;
        }
        const next = { ...entry, leases: entry.leases + 1 };
        (d.step.put ??= []).push(next);
        hosts.set(s.host, Math.max(hosts.get(s.host) ?? 0, now));
        leased.push(next);
      });
      d.step.hosts = [...hosts];
      return { leased, failed };
    });
    return out ?? { leased: [], failed: [] };
  }

  async complete(crawlId: string, done: PageDone, limits: DiscoveryLimits): Promise<CommitOutcome | undefined> {
    return this.step(
      crawlId,
      async (d) => {
        const { state } = d;
        const entry = await this.entry(crawlId, done.depth, done.seq);
        if (!entry) return undefined;
        const now = Date.now();
        (d.step.drop ??= []).push([done.depth, done.seq]);
        state.counts.queued--;
        const from = entry.source === 'start' ? 'start' : 'link';
        let duplicate = false;
        if (done.redirect !== undefined) {
          duplicate = true;
          if (done.redirect !== null) await takeIn(this.kv, d, [{ url: done.redirect, source: from }], entry.depth, entry.parent, limits);
        } else if (done.finalUrl !== undefined) {
          const hash = urlHash(done.finalUrl);
          const owner = await seenOf(this.kv, d, hash);
          if (owner === undefined) d.seen.set(hash, done.seq);
          else if (owner !== done.seq && owner > 0) duplicate = true;
        }
        if (!duplicate && done.canonical !== undefined) {
          const owner = await seenOf(this.kv, d, urlHash(done.canonical));
          if (owner === undefined) duplicate = (await takeIn(this.kv, d, [{ url: done.canonical, source: from }], entry.depth, entry.parent, limits)) > 0;
          else if (owner !== done.seq && owner > 0) duplicate = true;
        }
        let page: PageRecord | undefined;
        let added = 0;
        if (duplicate) {
          state.counts.duplicates++;
          await refuse(this.kv, d, done.refused.map((r) => r.url));
          d.step.unresult = done.seq;
          d.seen.set(urlHash(entry.url), DROPPED);
        } else {
          state.counts.done++;
          page = { n: state.counts.done, seq: done.seq, url: entry.url, depth: entry.depth, parent: entry.parent ?? null, statusCode: done.statusCode, at: now };
          if (done.finalUrl !== undefined) page.finalUrl = done.finalUrl;
          d.step.page = page;
          // Before the CAS: the committed page names a result that is there.
          if (done.result) await writeResult(this.h, K.result(crawlId, done.seq), { results: [done.result] });
          if (done.charge) d.step.charge = [done.seq, done.charge];
          added = await takeIn(this.kv, d, done.links.map((url) => ({ url, source: 'link' as const })), entry.depth + 1, done.finalUrl ?? entry.url, limits);
          await refuse(this.kv, d, done.refused.map((r) => r.url));
          for (const kind of limits.drains) {
            const cursor = cursorOf(state, kind);
            if (cursor.queued) continue;
            (d.step.wake ??= []).push([kind, now + limits.batchMs]);
            state.deliveries[kind] = { ...cursor, queued: true };
          }
        }
        return { ...(page ? { page } : {}), added, state };
      },
    );
  }

  async skip(crawlId: string, at: { seq: number; depth: number }, record: Omit<SkipRecord, 'n' | 'at' | 'url' | 'depth' | 'parent'>): Promise<boolean> {
    const done = await this.step(crawlId, async (d) => {
      const entry = await this.entry(crawlId, at.depth, at.seq);
      if (!entry) return undefined;
      this.addSkip(d, entry, record);
      if (record.reason === 'robots') d.state.counts.skipped_robots++;
      else d.state.counts.failed++;
      return true;
    });
    return done ?? false;
  }

  async setRobots(crawlId: string, host: string, robots: HostState['robots']): Promise<void> {
    const kept = robots && robots.text !== undefined && robots.text.length > MAX_ROBOTS_TEXT ? { ...robots, text: robots.text.slice(0, MAX_ROBOTS_TEXT) } : robots;
    await retrying(() => this.kv.put(K.robots(crawlId, host), toJson(kept ?? null)));
  }

  /** A change of the state alone (no pending writes besides). */
  private async change(crawlId: string, edit: (s: CrawlState) => boolean): Promise<boolean> {
    return (await this.step(crawlId, async (d) => (edit(d.state) ? true : undefined))) ?? false;
  }

  async requestCancel(crawlId: string): Promise<boolean> {
    if (!(await this.load(crawlId))) return false;
    await this.change(crawlId, (s) => ((s.cancelRequested = true), true));
    return true;
  }

  async stop(crawlId: string, reason: WireError): Promise<void> {
    await this.change(crawlId, (s) => !s.stopped && ((s.stopped = reason), true));
  }

  async advance(crawlId: string, kind: DeliveryKind, cursor: number, closed: boolean, againAt?: number): Promise<void> {
    await this.step(
      crawlId,
      async (d) => {
        const prev = cursorOf(d.state, kind);
        d.state.deliveries[kind] = { cursor: Math.max(prev.cursor, cursor), closed: prev.closed || closed, queued: againAt !== undefined };
        if (againAt !== undefined) d.step.wake = [[kind, againAt]];
        return true;
      },
    );
  }

  /** Deletes every key of the crawl under `prefix` (frontier, seen-set, ...) from the bucket for good. */
  private async purge(what: string, crawlId: string): Promise<void> {
    const { jsm, names } = this.h;
    await retrying(() => jsm.streams.purge(`KV_${names.crawls}`, { filter: `$KV.${names.crawls}.${what}.${crawlId}.>` }));
  }

  async settle(crawlId: string): Promise<void> {
    await this.load(crawlId);
    await Promise.all([this.purge('f', crawlId), this.purge('u', crawlId), this.purge('d', crawlId)]);
    await this.change(crawlId, (s) => ((s.counts = { ...s.counts, queued: 0 }), true));
  }

  async remove(crawlId: string): Promise<void> {
    const { jsm, names } = this.h;
    const results = await listKeys(jsm, names.results, `crawl.${crawlId}.>`);
    await Promise.all(results.map((k) => deleteResult(this.h, k).catch(() => {})));
    await Promise.all(['f', 'u', 'd', 'p', 'k', 'h', 'rb'].map((w) => this.purge(w, crawlId)));
    await retrying(() => jsm.streams.purge(`KV_${names.crawls}`, { filter: `$KV.${names.crawls}.${K.state(crawlId)}` }));
  }
}
