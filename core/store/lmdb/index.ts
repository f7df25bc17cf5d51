/**
 * The embedded store: one LMDB environment in `GLEANER_DATA_DIR`, one named database per
 * record kind. Values are msgpack (lmdb-js's default encoding, backed by msgpackr).
 *
 * LMDB reads are memory-mapped and cheap (a few microseconds), and they see other processes'
 * commits (the offline `gleaner keys` CLI) at once — which is why auth reads keys from here on
 * every request instead of keeping a cache that a revoke in another process could not reach.
 */
import { mkdirSync } from 'node:fs';
import { open, type Database, type Key, type RootDatabase } from 'lmdb';
import { EventBus } from '../../events.js';
import type { StoreOptions, Store } from '../index.js';
import type { JobResult, ResultWriter } from '../jobs.js';
import { CRAWL_ROUTE_ID } from '../crawls.js';
import { LmdbAccounts } from './accounts.js';
import { LmdbCrawls, openCrawlDatabases } from './crawls.js';
import { LmdbDeliveries } from './deliveries.js';
import { LmdbIds } from './ids.js';
import { LmdbJobs } from './jobs.js';
import { migrate, type Migration } from './migrations.js';
import { LmdbQuotas } from './quotas.js';
import { LmdbUsage } from './usage.js';
import { LmdbWorkQueue } from './work.js';

export interface StoreDatabases {
  root: RootDatabase;
  /** Counters and flags: `seq:<name>` → number. */
  meta: Database<unknown, string>;
  accounts: Database<unknown, number>;
  keys: Database<unknown, string>;
  users: Database<unknown, string>;
  jobs: Database<unknown, string>;
  results: Database<unknown, string>;
  /** [priority, jobId] → clientId */
  queue: Database<unknown, Key>;
  /** [dueAt, jobId, kind] → attempt */
  outbox: Database<unknown, Key>;
  /** [jobId, kind] → DeadLetter: deliveries that failed for good, until an operator retries them */
  deadletters: Database<unknown, Key>;
  /** [expiresAt, jobId] → null */
  expiry: Database<unknown, Key>;
  /** [clientId, day, product, source, parsed] → counters */
  usage: Database<unknown, Key>;
  /** clientId → quota (quotas.ts) */
  quotas: Database<unknown, number>;
  /** [clientId, day | month, 'pages' | 'rendered'] → charged pages (quotas.ts) */
  totals: Database<unknown, Key>;
  /** [clientId, 'pages' | 'rendered'] → pages held by queued and running jobs (quotas.ts) */
  reserved: Database<unknown, Key>;
}

/**
 * The LMDB environment in `dataDir`, with the options every opener must share (the service,
 * the CLI in another process, the farm's workers writing async results in other threads).
 */
export function openRoot(dataDir: string): RootDatabase {
  mkdirSync(dataDir, { recursive: true });
  // noSync off: every commit is durable before its promise resolves (an accepted job must
  // survive kill -9). Many small commits are batched by lmdb-js into one fsync.
  return open({ path: dataDir, maxDbs: 32, mapSize: 2 ** 34, commitDelay: 0 });
}

/**
 * Results written by a worker thread (ScrapeTask.persist). lmdb-js shares the environment
 * between the threads of a process and serialises their writes; the handle opens on the first
 * write.
 */
export function openLmdbResultWriter(dataDir: string): ResultWriter {
  let results: Database<unknown, string> | undefined;
  return {
    async put(jobId: string, result: JobResult): Promise<void> {
      results ??= openRoot(dataDir).openDB({ name: 'results' });
      await results.put(jobId, result);
    },
  };
}

export class LmdbStore implements Store {
  readonly dbs: StoreDatabases;
  readonly accounts: LmdbAccounts;
  readonly jobs: LmdbJobs;
  readonly crawls: LmdbCrawls;
  readonly work: LmdbWorkQueue;
  readonly deliveries: LmdbDeliveries;
  readonly usage: LmdbUsage;
  readonly quotas: LmdbQuotas;
  readonly ids: LmdbIds;
  readonly feed: EventBus;
  readonly migrated: readonly Migration[];
  private closed = false;

  private constructor(dbs: StoreDatabases, migrated: readonly Migration[], opts: StoreOptions) {
    this.dbs = dbs;
    this.accounts = new LmdbAccounts(dbs);
    this.work = new LmdbWorkQueue(dbs);
    this.crawls = new LmdbCrawls(dbs, openCrawlDatabases(dbs.root));
    this.jobs = new LmdbJobs(
      dbs,
      (jobs) => this.work.enqueued(jobs),
      (job) => job.routeId === CRAWL_ROUTE_ID && this.crawls.removeIn(job.id),
    );
    this.deliveries = new LmdbDeliveries(dbs);
    this.usage = new LmdbUsage(dbs);
    this.quotas = new LmdbQuotas(dbs);
    this.ids = new LmdbIds(dbs);
    this.feed = new EventBus((err) => opts.log?.error({ err }, 'job event listener failed'));
    this.migrated = migrated;
  }

  static open(dataDir: string, opts: StoreOptions = {}): LmdbStore {
    const root = openRoot(dataDir);
    const dbs: StoreDatabases = {
      root,
      meta: root.openDB({ name: 'meta' }),
      accounts: root.openDB({ name: 'accounts' }),
      keys: root.openDB({ name: 'keys' }),
      users: root.openDB({ name: 'users' }),
      jobs: root.openDB({ name: 'jobs' }),
      results: root.openDB({ name: 'results' }),
      queue: root.openDB({ name: 'queue' }),
      outbox: root.openDB({ name: 'outbox' }),
      deadletters: root.openDB({ name: 'deadletters' }),
      expiry: root.openDB({ name: 'expiry' }),
      usage: root.openDB({ name: 'usage' }),
      quotas: root.openDB({ name: 'quotas' }),
      totals: root.openDB({ name: 'totals' }),
      reserved: root.openDB({ name: 'reserved' }),
    };
    // A store of an older format is brought up to date before anything reads it (migrations.ts).
    let migrated: Migration[];
    try {
      migrated = migrate(dbs);
    } catch (err) {
      root.close();
      throw err;
    }
    return new LmdbStore(dbs, migrated, opts);
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.dbs.root.close();
  }
}
