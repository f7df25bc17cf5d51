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
import { createFarm, type Farm } from '../farm/index.js';
import { Admission } from './admission.js';
import { bootstrapCredentials, type BootstrapResult } from './bootstrap.js';
import type { Handler, ServiceState, Services } from './context.js';
import { scrapers, options, openapi } from './handlers/discovery.js';
import { healthz, metrics, readyz } from './handlers/ops.js';
import { scrapeSync } from './handlers/scrape.js';
import { Metrics } from './metrics.js';
import { createPipeline } from './pipeline.js';
import { buildRouteTable, Router, type RouteKind } from './routes.js';
import { GleanerError } from '../core/errors.js';

export interface ServerOptions {
  config: Config;
  logger?: Logger;
}

export interface RunningServer {
  /** The bound Web API port (useful with port 0). */
  port: number;
  url: string;
  store: Store;
  farm: Farm;
  services: Services;
  bootstrap: BootstrapResult;
  /** Graceful: stop accepting, drain in-flight requests, close farm and store. */
  close(): Promise<void>;
}

const notYet: Handler = () => {
  throw new GleanerError('SERVICE_UNAVAILABLE', 'This route is not available on this node yet.');
};

function handlerTable(): Record<RouteKind, Handler> {
  return {
    scrape: scrapeSync,
    submit: notYet,
    submitBatch: notYet,
    search: notYet,
    jobGet: notYet,
    scrapers,
    options,
    openapi,
    healthz,
    readyz,
    metrics,
    feed: notYet,
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
    metrics: new Metrics(),
    log,
    router,
    admission: new Admission(config.accountConcurrency),
    state: () => state,
  };
  const app = uWS.App();
  app.any('/*', createPipeline(svc, handlerTable()));
  const token = await listen(app, config.host, config.port);
  const port = uWS.us_socket_local_port(token as unknown as uWS.us_socket);

  let farm: Farm;
  try {
    farm = await createFarm({ config, logger: log });
  } catch (err) {
    uWS.us_listen_socket_close(token);
    await store.close();
    throw err;
  }
  svc.farm = farm;
  svc.metrics.addGauges(() => {
    const s = farm.stats();
    return { gleaner_farm_in_flight: s.inFlight, gleaner_farm_queued: s.queued, gleaner_admitted_requests: svc.admission.total() };
  });
  state = 'ready';
  log.info({ port, host: config.host, dataDir: config.dataDir, workers: config.workers }, 'gleaner ready');

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      state = 'draining';
      uWS.us_listen_socket_close(token);
      // Drain: in-flight requests hold admission slots; wait for them (bounded by the sync deadline).
      const until = Date.now() + config.syncTimeoutMs;
      while (svc.admission.total() > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      await farm.close();
      await store.close();
      log.info('gleaner stopped');
    })());

  return { port, url: `http://${config.host}:${port}`, store, farm, services: svc, bootstrap, close };
}
