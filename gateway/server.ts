/**
 * The service's wiring: opens the store, binds the Web API listener (with the job feed) and the
 * Job API listeners, starts the farm, the job runner and the delivery outbox, and hands back
 * its `close()`. Lifecycle: `starting` (listeners up, answering 503 except health) → `ready` →
 * `draining` (shutdown.ts). Retention sweeping, gauges, shutdown and the job runner's wiring
 * (jobs-wiring.ts) live in their own modules.
 */
import { mkdirSync } from 'node:fs';
import uWS from 'uWebSockets.js';
import type { Config } from '../core/config.js';
import { bindIdBlocks } from '../core/ids.js';
import { createLogger, type Logger } from '../core/log.js';
import { warmValidators } from '../core/schema/index.js';
import { openStore, type Store } from '../core/store/index.js';
import { checkFfmpeg, createFarm, type Farm, type JobRunner } from '../farm/index.js';
import { Admission } from './admission.js';
import { bootstrapCredentials, type BootstrapResult } from './bootstrap.js';
import type { ServiceState, Services } from './context.js';
import { mountFeed } from './feed.js';
import { registerGauges } from './gauges.js';
import { startJobApi, type JobApiListeners } from './jobapi/listener.js';
import { startJobs } from './jobs-wiring.js';
import { lockDataDir } from './instance-lock.js';
import { listen, type Listener } from './listener.js';
import { Metrics } from './metrics.js';
import { QuotaGate } from './quota.js';
import { applyReload, type ReloadableFiles } from './reload.js';
import { createPipeline } from './pipeline.js';
import { buildRouteTable, Router } from './routes.js';
import { shutdownSequence } from './shutdown.js';
import { startSweeper } from './sweeper.js';
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
