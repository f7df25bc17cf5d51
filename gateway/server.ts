/**
 * The service: opens the store, binds the Web API listener, starts the farm, and shuts all of
 * it down in order. Lifecycle: `starting` (listener up, answering 503 except health) → `ready`
 * → `draining` (listen socket closed, in-flight requests finish, then farm and store close).
 */
import uWS from 'uWebSockets.js';
import type { us_listen_socket, TemplatedApp } from 'uWebSockets.js';
import type { Config } from '../core/config.js';
import { createLogger, type Logger } from '../core/log.js';
import { compileAll } from '../core/schema/index.js';
import { Store } from '../core/store/index.js';
import { EventBus } from '../core/events.js';
import { createFarm, DEFAULT_LIMITS, Dispatcher, Outbox, parseDeliveryConfig, type Farm } from '../farm/index.js';
import { Admission } from './admission.js';
import { bootstrapCredentials, type BootstrapResult } from './bootstrap.js';
import type { Handler, ServiceState, Services } from './context.js';
import { scrapers, options, openapi } from './handlers/discovery.js';
import { healthz, metrics, readyz } from './handlers/ops.js';
import { scrapeSync } from './handlers/scrape.js';
import { search } from './handlers/search.js';
import { jobGet, submit, submitBatch } from './handlers/jobs.js';
import { mountFeed } from './feed.js';
import { deliveryPayloads } from './payloads.js';
import { charge } from './usage.js';
import { startJobApi } from './jobapi/listener.js';
import { Metrics } from './metrics.js';
import { createPipeline } from './pipeline.js';
import { buildRouteTable, Router, type RouteKind } from './routes.js';
import { GleanerError } from '../core/errors.js';

export interface ServerOptions {
  config: Config;
  logger?: Logger;
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
}

/** A plain GET on the feed (no upgrade headers) reaches the HTTP pipeline. */
const feedWithoutUpgrade: Handler = () => {
  throw new GleanerError('UPGRADE_REQUIRED');
};

function handlerTable(): Record<RouteKind, Handler> {
  return {
    scrape: scrapeSync,
    submit,
    submitBatch,
    search,
    jobGet,
    scrapers,
    options,
    openapi,
    healthz,
    readyz,
    metrics,
    feed: feedWithoutUpgrade,
  };
}

function listen(app: TemplatedApp, host: string, port: number): Promise<us_listen_socket> {
  return new Promise((resolve, reject) =>
    app.listen(host, port, (token) => (token ? resolve(token) : reject(new Error(`cannot listen on ${host}:${port}`)))),
  );
}

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const { config } = opts;
  const log = opts.logger ?? createLogger(config.logLevel);
  const store = Store.open(config.dataDir);
  const bootstrap = await bootstrapCredentials(store, config);
  compileAll();

  let state: ServiceState = 'starting';
  const router = new Router(buildRouteTable());
  const svc: Services = {
    config,
    store,
    farm: undefined,
    dispatcher: undefined,
    events: new EventBus((err) => log.error({ err }, 'job event listener failed')),
    metrics: new Metrics(),
    log,
    router,
    admission: new Admission(config.accountConcurrency),
    state: () => state,
  };
  const app = uWS.App();
  mountFeed(app, svc);
  app.any('/*', createPipeline(svc, handlerTable()));
  const token = await listen(app, config.host, config.port);
  const port = uWS.us_socket_local_port(token as unknown as uWS.us_socket);
  const url = config.publicUrl ?? `http://${config.host}:${port}`;
  const jobApi = await startJobApi(svc);
  if (bootstrap.generated) opts.onGeneratedCredentials?.(bootstrap.generated, url);

  let farm: Farm;
  try {
    farm = await createFarm({ config, logger: log });
  } catch (err) {
    uWS.us_listen_socket_close(token);
    jobApi.close();
    await store.close();
    throw err;
  }
  svc.farm = farm;
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
  });
  const dispatcher = new Dispatcher({
    jobs: store.jobs,
    runner: farm,
    events: svc.events,
    log,
    // Async jobs may hold half of the farm's task slots, so sync requests always find one free;
    // browser work is bounded inside the farm by its context pool, plain fetches are not.
    concurrency: Math.max(1, Math.floor((config.workers * DEFAULT_LIMITS.tasksPerWorker) / 2)),
    jobTimeoutMs: config.jobTimeoutMs,
    retentionMs: config.retentionMs,
    maxStarts: config.jobMaxStarts,
    onFinished: (job, usage) => {
      if (usage && job.status === 'done') {
        const source = typeof job.extra?.source === 'string' ? job.extra.source : undefined;
        charge(svc, { clientId: job.clientId, routeId: job.routeId, params: job.params, mode: 'callback', usage, ...(source ? { source } : {}) });
      }
      outbox.wake();
    },
  });
  svc.dispatcher = dispatcher;
  const recovered = dispatcher.start();
  outbox.start();
  const sweeper = setInterval(() => {
    store.jobs.sweep(Date.now()).then(
      (n) => n > 0 && log.info({ swept: n }, 'expired jobs removed'),
      (err: unknown) => log.error({ err }, 'sweep failed'),
    );
  }, config.sweepIntervalMs);
  sweeper.unref();
  svc.metrics.addGauges(() => {
    const f = farm.stats();
    const d = dispatcher.stats();
    return {
      gleaner_farm_in_flight: f.inFlight,
      gleaner_farm_queued: f.queued,
      gleaner_jobs_running: d.running,
      gleaner_jobs_queued: d.waiting,
      gleaner_admitted_requests: svc.admission.total(),
    };
  });
  state = 'ready';
  log.info({ port, realtime_port: jobApi.realtimePort, data_port: jobApi.dataPort, host: config.host, dataDir: config.dataDir, workers: config.workers, recovered_jobs: recovered }, 'gleaner ready');

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      state = 'draining';
      uWS.us_listen_socket_close(token);
      jobApi.close();
      // Drain: in-flight requests hold admission slots; wait for them (bounded by the sync deadline).
      const until = Date.now() + config.syncTimeoutMs;
      while (svc.admission.total() > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      clearInterval(sweeper);
      // Running jobs finish and are stored; queued ones stay in LMDB for the next start.
      await dispatcher.close();
      await outbox.close();
      await farm.close();
      await store.close();
      log.info('gleaner stopped');
    })());

  return { port, url, realtimePort: jobApi.realtimePort, dataPort: jobApi.dataPort, dataUrl: jobApi.dataUrl, store, farm, services: svc, bootstrap, close };
}
