/**
 * The cluster store: every seam of core/store on NATS JetStream (README.md beside
 * core/store/index.ts says what each implementation guarantees; test/store-contract/ checks
 * it). Opened by `openStore` when `GLEANER_CLUSTER` is set. Resolves once the local replicas
 * (accounts, keys, users, quotas, totals) are primed, so synchronous reads are served at once.
 */
import type { NatsConnection } from '@nats-io/transport-node';
import { Kvm } from '@nats-io/kv';
import { Objm } from '@nats-io/obj';
import { jetstream } from '@nats-io/jetstream';
import { GleanerError } from '../../errors.js';
import type { Logger } from '../../log.js';
import type { Store, StoreLocation, StoreOptions, MigrationInfo } from '../index.js';
import { CRAWL_ROUTE_ID } from '../crawls.js';
import { isFinal, type JobResult, type ResultWriter } from '../jobs.js';
import { NatsAccounts, decodeRecord } from './accounts.js';
import { Charges, decodeTotal } from './charges.js';
import { connectCluster, DEFAULT_ACK_WAIT_MS, ensureHandles, namesOf, type ClusterSettings, type Handles } from './connection.js';
import { NatsDeliveries } from './deliveries.js';
import { NatsCrawls } from './crawls.js';
import { NatsFeed } from './feed.js';
import { NatsIds } from './ids.js';
import { NatsJobs } from './jobs.js';
import { writeResult } from './results.js';
import { NatsLink } from './link.js';
import { NatsQuotas } from './quotas.js';
import { openReplica, type Replica } from './replica.js';
import { NatsReservations } from './reserved.js';
import { NatsUsage } from './usage.js';
import { NatsWorkQueue } from './work.js';
import { retrying } from './publish.js';

export type { ClusterSettings };

export class NatsStore implements Store {
  readonly migrated: readonly MigrationInfo[] = [];
  private closed = false;

  private constructor(
    private readonly h: Handles,
    private readonly replicas: Array<Replica<unknown>>,
    readonly accounts: NatsAccounts,
    readonly jobs: NatsJobs,
    readonly work: NatsWorkQueue,
    readonly deliveries: NatsDeliveries,
    readonly usage: NatsUsage,
    readonly quotas: NatsQuotas,
    readonly feed: NatsFeed,
    readonly cluster: NatsLink,
    readonly ids: NatsIds,
    private readonly reservations: NatsReservations,
    readonly crawls: NatsCrawls,
    private readonly charges: Charges,
  ) {}

  static async open(settings: ClusterSettings, location: StoreLocation, opts: StoreOptions = {}): Promise<NatsStore> {
    const nodeId = location.nodeId ?? `gleaner-${process.pid}`;
    const nc = await connectCluster(settings, nodeId);
    try {
      const h = await ensureHandles(nc, settings);
      const log = opts.log;
      // Watches are consumers too: created while streams elect their leaders, they may time out at first.
      const [accountsReplica, totalsReplica, reservations] = await Promise.all([
        retrying(() => openReplica(h.accounts, decodeRecord, log), 60_000),
        retrying(() => openReplica(h.totals, decodeTotal, log), 60_000),
        retrying(() => NatsReservations.open(h, log), 60_000),
      ]);
      const accounts = new NatsAccounts(h.accounts, accountsReplica);
      const charges = new Charges(h.js, h.jsm, h.names, h.usage, h.totals, totalsReplica);
      const crawls = new NatsCrawls(h, h.crawls, charges);
      const jobs = new NatsJobs(h, charges, reservations, (job) => (job.routeId === CRAWL_ROUTE_ID ? crawls.remove(job.id) : Promise.resolve()));
      const retentionMs = location.retentionMs ?? 86_400_000;
      const feed = new NatsFeed(nc, h.names.feedSubject, (err) => log?.error({ err }, 'job event listener failed'));
      const work = new NatsWorkQueue(h, {
        maxStarts: location.jobMaxStarts ?? 3,
        ackWaitMs: settings.ackWaitMs ?? DEFAULT_ACK_WAIT_MS,
        log,
        // Every delivery of the job died: the same verdict as a start refused at the limit.
        onPoison: async (id, running) => {
          const job = await jobs.get(id);
          if (!job) return 'final';
          if (isFinal(job.status)) {
            // Its finisher may have died after the CAS: the charge and webhook are published again
            // (message ids: a step already done is stored once).
            await jobs.repair(id);
            return 'final';
          }
          // Running on a live node (deliveries spent by failover copies), or given back more often than started.
          if (running || job.attempts < (location.jobMaxStarts ?? 3)) return 'requeue';
          const error = new GleanerError('INTERNAL_ERROR', `The job was started ${job.attempts} times and never finished; it is not run again.`, { starts: job.attempts }).toWire();
          const finished = await jobs.finish(id, { ok: false, error }, retentionMs);
          if (finished) {
            log?.error({ job_id: id, client_id: job.clientId, route: job.routeId, starts: job.attempts }, 'job given up after its last delivery (max-deliveries advisory); faulted, not charged');
            feed.publish({ type: 'failed', jobId: id, clientId: job.clientId, routeId: job.routeId, at: Date.now(), error, ...(job.batchId ? { batchId: job.batchId } : {}) });
          }
          return 'faulted';
        },
      });
      jobs.held = (id) => work.holds(id);
      const deliveries = new NatsDeliveries(h, jobs, settings.ackWaitMs ?? DEFAULT_ACK_WAIT_MS);
      const quotas = new NatsQuotas(h.accounts, accountsReplica as Replica<Record<string, unknown>>, totalsReplica, reservations);
      const link = await retrying(() => NatsLink.open(nodeId, h, accounts), 60_000);
      const ids = new NatsIds(h.nodes, h.ids, nodeId);
      charges.startCatchUp(undefined, (err) => log?.warn({ err }, 'cluster: folding the charge stream failed (retried)'));
      return new NatsStore(h, [accountsReplica, totalsReplica], accounts, jobs, work, deliveries, new NatsUsage(h, charges), quotas, feed, link, ids, reservations, crawls, charges);
    } catch (err) {
      await nc.close().catch(() => {});
      throw err;
    }
  }

  get isOpen(): boolean {
    return !this.closed && !this.h.nc.isClosed();
  }

  /** Pending publishes and acks are flushed before the connection closes. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.deliveries.stop();
    this.work.stop();
    this.feed.stop();
    this.cluster.stop();
    await this.ids.close();
    this.reservations.stop();
    this.charges.stop();
    for (const r of this.replicas) r.stop();
    await this.h.nc.drain().catch(() => this.h.nc.close());
  }
}

/**
 * A worker thread's result writer: its own connection, opened on the first write, bound to the
 * results bucket and object store (the main thread created them). Writing from the worker keeps
 * a large result off the main thread, as in embedded mode.
 */
export function openNatsResultWriter(settings: ClusterSettings): ResultWriter {
  let ready: Promise<{ nc: NatsConnection; h: Pick<Handles, 'nc' | 'results' | 'bigResults'> }> | undefined;
  const names = namesOf(settings.namespace);
  return {
    async put(jobId: string, result: JobResult): Promise<void> {
      ready ??= (async () => {
        const nc = await connectCluster(settings, `gleaner-worker-${process.pid}`);
        const js = jetstream(nc, { timeout: 10_000 });
        const [results, bigResults] = await Promise.all([new Kvm(js).open(names.results), new Objm(js).open(names.bigResults)]);
        // The connection lives as long as the thread; it must not keep the thread alive on its own.
        return { nc, h: { nc, results, bigResults } };
      })();
      ready.catch(() => (ready = undefined));
      const { h } = await ready;
      await writeResult(h, jobId, result);
    },
  };
}

export type { Logger };
