/**
 * The service's wiring: opens the store, binds the Web API listener (with the job feed) and the
 * Job API listeners, starts the farm, the job runner and the delivery outbox, and hands back
 * its `close()`. Lifecycle: `starting` (listeners up, answering 503 except health) → `ready` →
 * `draining` (shutdown.ts). Retention sweeping, gauges and shutdown live in their own modules.
 */
import { mkdirSync } from 'node:fs';
import uWS from 'uWebSockets.js';
import type { Config } from '../core/config.js';
import { bindIdBlocks } from '../core/ids.js';
import { createLogger, type Logger } from '../core/log.js';
import { routeById } from '../core/registry/index.js';
import { warmValidators } from '../core/schema/index.js';
import { openStore, type Store } from '../core/store/index.js';
import { checkFfmpeg, createFarm, CrawlEngine, DEFAULT_LIMITS, JobRunner, Outbox, parseDeliveryConfig, type Farm } from '../farm/index.js';
import { CRAWL_ROUTE_ID } from '../core/store/crawls.js';
import { crawlCharge, crawlQuota } from './crawl-wiring.js';
import { Admission } from './admission.js';
import { bootstrapCredentials, type BootstrapResult } from './bootstrap.js';
import type { ServiceState, Services } from './context.js';
import { mountFeed } from './feed.js';
import { registerGauges } from './gauges.js';
import { startJobApi, type JobApiListeners } from './jobapi/listener.js';
import { lockDataDir } from './instance-lock.js';
import { listen, type Listener } from './listener.js';
import { Metrics } from './metrics.js';
import { QuotaGate } from './quota.js';
import { applyReload, type ReloadableFiles } from './reload.js';
import { deliveryPayloads } from './payloads.js';
import { createPipeline } from './pipeline.js';
import { buildRouteTable, Router } from './routes.js';
import { shutdownSequence } from './shutdown.js';
import { startSweeper } from './sweeper.js';
import { charged, chargeInput, usageEntry } from './usage.js';
import { webApiDoor } from './webapi.js';
import { Activity } from './console/activity.js';
import type { ClusterLink } from '../core/store/cluster.js';
import { farmCapacity, routedFarm, serveHandOffs, startHeartbeat } from './cluster.js';

export interface ServerOptions {
  config: Config;
  logger?: Logger;
  /** Trusted host name → address for the farm (FarmOptions.hosts): tests give the simulator's site names. */
  hosts?: Record<string, string>;
  /** Called once with credentials generated for a fresh store, before the service is ready. */
  onGeneratedCredentials?: (generated: NonNullable<BootstrapResult['generated']>, url: string) => void;
}

export interface RunningServer {
  /** The bound Web API port (useful with port 0). */
  port: number;
  url: string;
  /** Job API listeners. */
  realtimePort: number;
  dataPort: number;
  dataUrl: string;
  store: Store;
  farm: Farm;
  services: Services;
  bootstrap: BootstrapResult;
  /** Graceful: stop accepting, drain in-flight requests, close farm and store. */
  close(): Promise<void>;
  /** New targets, proxies and storage without dropping requests (reload.ts); resolves when the old workers drained. */
  reload(files: ReloadableFiles): Promise<void>;
}

/** The job runner and the outbox: async jobs run on the farm, then their deliveries leave. A gateway-only node runs no jobs. */
function startJobs(svc: Services, farm: Farm, url: string, jobApi: JobApiListeners): { jobs: JobRunner; outbox: Outbox; recovered: number } {
  const { config, store, log } = svc;
  const outbox = new Outbox({
    jobs: store.jobs,
    deliveries: store.deliveries,
    retentionMs: config.retentionMs,
    accounts: store.accounts,
    events: svc.events,
    log,
    payloads: deliveryPayloads(svc, url, jobApi.dataUrl),
    delivery: parseDeliveryConfig(config.storage),
    policy: {
      maxAttempts: config.deliveryAttempts,
      horizonMs: config.deliveryHorizonMs,
      baseMs: config.deliveryBaseMs,
      maxMs: config.deliveryMaxMs,
      jitter: 'full',
      maxRetryAfterMs: config.deliveryMaxMs,
    },
    allowPrivate: config.allowPrivate,
    crawls: { crawls: store.crawls, resultsUrl: (id) => `${url.replace(/\/+$/, '')}/v1/async/crawl/${id}` },
  });
  const asyncSlots = Math.max(1, Math.floor((config.workers * DEFAULT_LIMITS.tasksPerWorker) / 2));
  const crawls = new CrawlEngine({
    crawls: store.crawls,
    farm,
    log,
    pageTimeoutMs: Math.min(config.jobTimeoutMs, 120_000),
    // Crawl pages together hold at most the async jobs' share of the farm's task slots.
    concurrency: asyncSlots,
    chargeOf: (job, scrape, usage) => crawlCharge(job, scrape, usage),
    quotaCheck: (clientId, pages, rendered) => crawlQuota(store, clientId, pages, rendered),
    onPage: (job, usage) => charged(svc, { clientId: job.clientId, routeId: 'universal', params: job.params, mode: 'callback', usage }),
    onProgress: (job, counts) =>
      svc.events.publish({ type: 'progress', jobId: job.id, clientId: job.clientId, routeId: job.routeId, at: Date.now(), progress: { ...counts } }),
  });
  svc.crawls = crawls;
  const jobs = new JobRunner({
    jobs: store.jobs,
    queue: store.work,
    runner: farm,
    events: svc.events,
    log,
    // Async jobs may hold half of the farm's task slots, so sync requests always find one free;
    // browser work is bounded inside the farm by its context pool, plain fetches are not.
    concurrency: asyncSlots,
    jobTimeoutMs: config.jobTimeoutMs,
    retentionMs: config.retentionMs,
    maxStarts: config.jobMaxStarts,
    ...(store.cluster ? { node: store.cluster.nodeId } : {}),
    ...(config.cluster?.ackWaitMs ? { progressMs: Math.min(10_000, Math.floor(config.cluster.ackWaitMs / 3)) } : {}),
    // Crawls hold a job slot for their whole run: at most a quarter of the slots, so scrape jobs still run.
    routeCap: (routeId) => (routeId === CRAWL_ROUTE_ID ? Math.max(1, Math.floor(asyncSlots / 4)) : routeById(routeId)?.family === 'assistant' ? config.assistantConcurrency : 0),
    longJobs: { owns: (routeId) => routeId === CRAWL_ROUTE_ID, run: (job, signal) => crawls.run(job, signal) },
    // Charged by JobStore.finish, with the job's final state: once, never for a faulted job.
    chargeOf: (job, usage) => usageEntry(chargeInput(job, usage)),
    onFinished: (job, usage) => {
      // Assistant failures name their kind (core/targets/assistants/plan.ts); others count as `other`.
      if (job.status === 'faulted' && routeById(job.routeId)?.family === 'assistant') {
        // A job stopped by its deadline is an answer that never completed, whichever timer fired first.
        const kind = job.error?.data?.failure ?? (job.error?.code === 'REQUEST_FAILED_SCRAPE_TIMEOUT' ? 'incomplete' : 'other');
        svc.metrics.assistantFailure(job.routeId, typeof kind === 'string' ? kind : 'other');
      }
      if (usage && job.status === 'done') charged(svc, chargeInput(job, usage));
      outbox.wake();
    },
  });
  svc.jobs = jobs;
  const recovered = config.role === 'gateway' ? 0 : jobs.start();
  outbox.start();
  return { jobs, outbox, recovered };
}

/** Cluster mode: serve hand-offs with this node's farm, announce the node. Returns the stop function. */
function joinCluster(svc: Services, link: ClusterLink, localFarm: Farm | undefined, jobs: JobRunner, url: string): () => void {
  const { config } = svc;
  const stopServing = localFarm ? serveHandOffs(link, localFarm) : () => {};
  const stopBeat = startHeartbeat(
    link,
    {
      role: config.role,
      url,
      capacity: localFarm ? farmCapacity(config.workers) : 0,
      load: () => {
        const f = localFarm?.stats();
        return { in_flight: f?.inFlight ?? 0, queued: f?.queued ?? 0, jobs_running: jobs.stats().running };
      },
    },
    svc.log,
  );
  return () => {
    stopServing();
    stopBeat();
  };
}

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const { config } = opts;
  const log = opts.logger ?? createLogger(config.logLevel);
  // One service per data directory (instance-lock.ts): taken before the store recovers any job.
  mkdirSync(config.dataDir, { recursive: true });
  const lock = lockDataDir(config.dataDir);
  let store: Store;
  let bootstrap: BootstrapResult;
  let unbindIds = (): void => {};
  try {
    store = await openStore(config, { log });
  } catch (err) {
    lock.release();
    throw err;
  }
  try {
    // Ids are issued inside blocks the store recorded: increasing across restarts (core/ids.ts);
    // in cluster mode each block also carries this node's slot, so two nodes' ids never collide.
    unbindIds = await bindIdBlocks(store.ids);
    for (const m of store.migrated) log.info({ from: m.from, to: m.to, what: m.what }, 'store migrated to a newer format');
    bootstrap = await bootstrapCredentials(store, config);
    if (bootstrap.missing) log.warn('the cluster has no account: set GLEANER_BOOTSTRAP_API_KEY (and GLEANER_BOOTSTRAP_USER) on the nodes, or run `gleaner keys create` with GLEANER_CLUSTER set');
  } catch (err) {
    unbindIds();
    await store.close();
    lock.release();
    throw err;
  }

  let state: ServiceState = 'starting';
  const router = new Router(buildRouteTable());
  const svc: Services = {
    config,
    store,
    farm: undefined,
    jobs: undefined,
    events: store.feed,
    metrics: new Metrics(),
    log,
    router,
    admission: new Admission(config.accountConcurrency),
    quota: new QuotaGate(store),
    state: () => state,
    activity: new Activity(),
  };
  svc.events.subscribe((event) => svc.activity.jobEvent(event));
  const app = uWS.App();
  mountFeed(app, svc);
  app.any('/*', createPipeline(svc, webApiDoor(svc, router)));
  let web: Listener;
  try {
    web = await listen(app, config.host, config.port, 'Web API, GLEANER_PORT');
  } catch (err) {
    await store.close();
    lock.release();
    throw err;
  }
  const url = config.publicUrl ?? `http://${config.host}:${web.port}`;
  let jobApi: JobApiListeners | undefined;
  let farm: Farm;
  let localFarm: Farm | undefined;
  try {
    jobApi = await startJobApi(svc);
    if (bootstrap.generated) opts.onGeneratedCredentials?.(bootstrap.generated, url);
    const [created, ffmpeg] = await Promise.all([config.role === 'gateway' ? undefined : createFarm({ config, logger: log, ...(opts.hosts ? { hosts: opts.hosts } : {}) }), checkFfmpeg(config.ffmpeg)]);
    localFarm = created;
    // Cluster mode: sync requests run here when there is room, else on another farm node (cluster.ts).
    farm = store.cluster ? routedFarm(created, store.cluster, farmCapacity(config.workers)) : created!;
    svc.ffmpeg = ffmpeg;
    if (!ffmpeg.ok) log.warn({ reason: ffmpeg.reason }, 'media downloads are off: ffmpeg is not usable');
  } catch (err) {
    web.close();
    jobApi?.close();
    unbindIds();
    await store.close();
    lock.release();
    throw err;
  }
  svc.farm = farm;
  const { jobs, outbox, recovered } = startJobs(svc, localFarm ?? farm, url, jobApi);
  const stopCluster = store.cluster ? joinCluster(svc, store.cluster, localFarm, jobs, url) : () => {};
  const sweeper = startSweeper(store, config.sweepIntervalMs, log);
  registerGauges(svc, farm, jobs);
  state = 'ready';
  // The request validators compile while the service already answers (a request compiles its own first).
  warmValidators().then(
    (n) => log.debug({ validators: n }, 'request validators compiled'),
    (err: unknown) => log.error({ err }, 'compiling the request validators failed'),
  );
  log.info(
    { port: web.port, realtime_port: jobApi.realtimePort, data_port: jobApi.dataPort, host: config.host, dataDir: config.dataDir, workers: config.workers, recovered_jobs: recovered, ...(store.cluster ? { node: store.cluster.nodeId, role: config.role } : {}) },
    'gleaner ready',
  );

  const shutdown = shutdownSequence({
    setDraining: () => (state = 'draining'),
    listeners: [web, jobApi],
    admission: svc.admission,
    drainMs: config.syncTimeoutMs,
    sweeper,
    jobs,
    outbox,
    farm,
    store,
    lock,
    log,
  });
  const close = async (): Promise<void> => {
    stopCluster();
    await shutdown();
    unbindIds();
  };
  const reload = (files: ReloadableFiles) => applyReload(svc, farm, outbox, files);
  return { port: web.port, url, realtimePort: jobApi.realtimePort, dataPort: jobApi.dataPort, dataUrl: jobApi.dataUrl, store, farm, services: svc, bootstrap, close, reload };
}
