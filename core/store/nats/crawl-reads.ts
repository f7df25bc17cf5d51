/**
 * The reads of a crawl on NATS (crawls.ts): the state, the frontier head, hosts, page and skip
 * records. Separate from crawls.ts, which holds the steps that change a crawl, because a read
 * here never decides anything: it sees what committed steps left. `load` is still a writer of
 * sorts, and every step starts with it: a state record whose step is still pending (its node
 * died after the CAS, or the step is being applied right now) gets that step applied again
 * before anything reads the frontier or the seen-set (crawl-steps.ts).
 */
import type { KV } from '@nats-io/kv';
import type { PageResult } from '../../wire.js';
import type { CrawlState, FrontierEntry, HostState, PageRecord, SkipRecord } from '../crawls.js';
import type { Charges } from './charges.js';
import { fromJson, toJson, type Handles } from './connection.js';
import { applyStep, crawlKeys as K, getJson, type StoredCrawl } from './crawl-steps.js';
import { deleteResult, readResult } from './results.js';
import { retrying } from './publish.js';
import { casPut } from './cas.js';
import { listKeys, removeKey } from './key-list.js';

/** What NatsCrawls (crawls.ts) reads with; its steps are written there. */
export abstract class CrawlReads {
  constructor(
    protected readonly h: Handles,
    protected readonly kv: KV,
    private readonly charges: Charges,
  ) {}

  protected getJson<T>(key: string): Promise<T | undefined> {
    return getJson<T>(this.kv, key);
  }

  /** The state with any pending step applied (and cleared when nothing moved meanwhile). */
  protected async load(id: string): Promise<{ state: CrawlState; revision: number } | undefined> {
    const e = await retrying(() => this.kv.get(K.state(id)));
    if (!e || e.operation !== 'PUT') return undefined;
    const { pending, ...state } = fromJson<StoredCrawl>(e.value);
    if (!pending) return { state, revision: e.revision };
    await applyStep(this.kv, this.h, this.charges, id, pending, (key) => deleteResult(this.h, key));
    const revision = await retrying(() => casPut(this.kv, K.state(id), toJson(state), e.revision)).catch(() => e.revision);
    return { state, revision };
  }

  async get(crawlId: string): Promise<CrawlState | undefined> {
    return (await this.load(crawlId))?.state;
  }

  async frontier(crawlId: string, limit: number): Promise<FrontierEntry[]> {
    await this.load(crawlId);
    const keys = await listKeys(this.h.jsm, this.h.names.crawls, K.frontierPrefix(crawlId));
    const out: FrontierEntry[] = [];
    for (let i = 0; i < keys.length && out.length < limit; i += limit) {
      const entries = await Promise.all(keys.slice(i, i + limit).map((k) => this.live(crawlId, k)));
      for (const e of entries) if (e && out.length < limit) out.push(e);
    }
    return out;
  }

  /** A frontier entry, unless it was taken out (its marker is there: an older step wrote it back late). */
  private async live(crawlId: string, key: string): Promise<FrontierEntry | undefined> {
    const entry = await this.getJson<FrontierEntry>(key);
    if (!entry) return undefined;
    if ((await this.getJson<number>(K.gone(crawlId, entry.seq))) === undefined) return entry;
    await removeKey(this.h.jsm, this.h.names.crawls, key).catch(() => {});
    return undefined;
  }

  protected entry(crawlId: string, depth: number, seq: number): Promise<FrontierEntry | undefined> {
    return this.live(crawlId, K.frontier(crawlId, depth, seq));
  }

  async host(crawlId: string, host: string): Promise<HostState | undefined> {
    const [at, robots] = await Promise.all([this.getJson<number>(K.host(crawlId, host)), this.getJson<HostState['robots']>(K.robots(crawlId, host))]);
    if (at === undefined && robots === undefined) return undefined;
    return { lastFetchAt: at ?? 0, ...(robots !== undefined ? { robots } : {}) };
  }

  async pages(crawlId: string, after: number, limit: number, withResults = true): Promise<Array<{ page: PageRecord; result: PageResult | undefined }>> {
    const state = (await this.load(crawlId))?.state;
    if (!state) return [];
    const ns = range(after + 1, Math.min(after + limit, state.counts.done));
    const pages = await Promise.all(ns.map((n) => this.getJson<PageRecord>(K.page(crawlId, n))));
    return Promise.all(
      pages
        .filter((p): p is PageRecord => p !== undefined)
        .map(async (page) => ({ page, result: withResults ? (await readResult(this.h, K.result(crawlId, page.seq)))?.results[0] : undefined })),
    );
  }

  async skips(crawlId: string, after: number, limit: number): Promise<SkipRecord[]> {
    const state = (await this.load(crawlId))?.state;
    if (!state) return [];
    const ns = range(after + 1, Math.min(after + limit, state.counts.skipped_robots + state.counts.failed));
    return (await Promise.all(ns.map((n) => this.getJson<SkipRecord>(K.skip(crawlId, n))))).filter((s): s is SkipRecord => s !== undefined);
  }
}

function range(from: number, to: number): number[] {
  const out: number[] = [];
  for (let n = from; n <= to; n++) out.push(n);
  return out;
}
