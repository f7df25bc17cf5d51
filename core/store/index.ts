/**
 * The store: one interface per domain seam, and the factory that opens the implementation the
 * configuration names. Today that is the embedded LMDB store (lmdb/); the cluster store
 * (NATS JetStream) plugs in here when `GLEANER_CLUSTER` is set. README.md beside this file says
 * who calls what and what each implementation guarantees; test/store-contract/ checks it.
 */
import type { Logger } from '../log.js';
import type { ClusterCheck, ClusterLink } from './cluster.js';
import type { ClusterSettings } from './nats/connection.js';
import type { AccountStore } from './accounts.js';
import type { CrawlStore } from './crawls.js';
import type { DeliveryStore } from './deliveries.js';
import type { FeedEvents } from './feed.js';
import type { IdBlocks } from './ids.js';
import type { JobStore, ResultWriter } from './jobs.js';
import { LmdbStore, openLmdbResultWriter } from './lmdb/index.js';
import type { QuotaStore } from './quotas.js';
import type { UsageLedger } from './usage.js';
import type { WorkQueue } from './work.js';

/** A store format migration applied when the store opened (for the start log). */
export interface MigrationInfo {
  from: number;
  to: number;
  what: string;
}

export interface Store {
  readonly accounts: AccountStore;
  readonly jobs: JobStore;
  /** Crawls' frontiers, seen-sets, page lists and delivery cursors (crawls.ts). */
  readonly crawls: CrawlStore;
  /** How queued jobs reach this node's job runner. */
  readonly work: WorkQueue;
  readonly deliveries: DeliveryStore;
  readonly usage: UsageLedger;
  readonly quotas: QuotaStore;
  /** Durable id blocks: ids stay increasing across restarts and unique across nodes (ids.ts). */
  readonly ids: IdBlocks;
  readonly feed: FeedEvents;
  /** Migrations this open applied (an upgrade from an older store format), for the start log. */
  readonly migrated: readonly MigrationInfo[];
  readonly isOpen: boolean;
  /** Cluster mode only: nodes, sync hand-off, doctor checks (cluster.ts). */
  readonly cluster?: ClusterLink;
  /** Idempotent. Pending writes are durable before it resolves. */
  close(): Promise<void>;
}

/** Where the store is: the part of Config a store is opened from. */
export interface StoreLocation {
  /** The embedded store's folder (`GLEANER_DATA_DIR`); on a cluster node, local disposable state only. */
  dataDir: string;
  /** Set (`GLEANER_CLUSTER`): the cluster store on NATS JetStream (nats/). */
  cluster?: ClusterSettings | undefined;
  /** This node's id in the cluster (heartbeats, connection name). */
  nodeId?: string;
  /** `GLEANER_JOB_MAX_STARTS`: the cluster's work consumer delivers a job this many times + 1. */
  jobMaxStarts?: number;
  /** `GLEANER_RETENTION_MS`: kept by jobs the cluster store faults on its own (poison advisory). */
  retentionMs?: number;
}

export interface StoreOptions {
  /** Where the feed reports a listener that threw. */
  log?: Logger;
}

/**
 * Opens the store the location names. Resolves once every synchronous read is served (the
 * cluster store: its local replicas of accounts, keys, users, quotas and totals are primed).
 */
export async function openStore(location: StoreLocation, opts: StoreOptions = {}): Promise<Store> {
  if (location.cluster) {
    const { NatsStore } = await import('./nats/index.js');
    return NatsStore.open(location.cluster, location, opts);
  }
  return LmdbStore.open(location.dataDir, opts);
}

/** `gleaner doctor` in cluster mode: servers, JetStream, streams and buckets, replicas, nodes (reads only). */
export async function checkCluster(settings: ClusterSettings): Promise<ClusterCheck[]> {
  const { checkCluster: check } = await import('./nats/link.js');
  return check(settings);
}

/** The result writer of a worker thread (ScrapeTask.persist); one per thread. */
export function openResultWriter(location: StoreLocation): ResultWriter {
  const cluster = location.cluster;
  if (cluster) {
    // Loaded on the first write: embedded-mode workers never load the NATS client.
    let writer: Promise<ResultWriter> | undefined;
    return {
      async put(jobId, result) {
        writer ??= import('./nats/index.js').then((m) => m.openNatsResultWriter(cluster));
        await (await writer).put(jobId, result);
      },
    };
  }
  return openLmdbResultWriter(location.dataDir);
}

/** The embedded store's format stamp (`gleaner doctor` reads it without migrating). */
export { CURRENT_FORMAT, readStoreFormat, StoreFormatError } from './lmdb/migrations.js';

export type { AccountStore, CrawlStore, DeliveryStore, FeedEvents, IdBlocks, JobStore, QuotaStore, ResultWriter, UsageLedger, WorkQueue };
