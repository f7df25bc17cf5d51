/**
 * The Job API's two listeners (spec 4.6): realtime (`GLEANER_REALTIME_PORT`, sync queries that
 * hold the connection) and push-pull (`GLEANER_DATA_PORT`, jobs, results, stats). HTTP Basic
 * auth with the account's Job API users on every call; 401 with an empty body otherwise.
 * Errors are the same problem documents as the Web API's (the spec leaves the Job API's error
 * bodies open; one format for both APIs is what clients of both expect).
 */
import uWS from 'uWebSockets.js';
import type { Services } from '../context.js';
import { listen } from '../listener.js';
import { createPipeline, type FrontDoor } from '../pipeline.js';
import { Router, type Routable } from '../routes.js';
import * as h from './handlers.js';
import { BasicLogin } from './login.js';

interface JobApiRoute extends Routable {
  handler: (ctx: h.JobApiCtx, svc: Services) => void | Promise<void>;
  body: boolean;
}

const REALTIME_ROUTES: JobApiRoute[] = [{ method: 'POST', path: '/v1/queries', handler: h.realtime, body: true }];

const DATA_ROUTES: JobApiRoute[] = [
  { method: 'POST', path: '/v1/queries', handler: h.submit, body: true },
  { method: 'POST', path: '/v1/queries/batch', handler: h.submitBatch, body: true },
  { method: 'GET', path: '/v1/queries/', param: 'id', handler: h.status, body: false },
  { method: 'GET', path: '/v1/queries/', param: 'id', suffix: '/results', handler: h.results, body: false },
  { method: 'GET', path: '/v2/stats', handler: h.stats, body: false },
];

function jobApiDoor(label: string, routes: JobApiRoute[], auth: BasicLogin, dataUrl: () => string): FrontDoor<JobApiRoute> {
  return {
    label,
    router: new Router<JobApiRoute>(routes),
    challenge: 'Basic realm="gleaner"',
    // Clients of this API read `message` from error bodies (the reference service's field); the
    // problem document keeps its own fields beside it.
    problemExtras: (doc) => {
      doc.message = doc.detail;
    },
    alwaysOn: () => false,
    readsBody: (route) => route.body,
    // Failed logins are limited per client address too (login.ts).
    remoteAddress: true,
    authenticate: async (_route, info) => {
      const account = await auth.verify(info.authorization, info.remote ?? '');
      return account ? { account } : undefined;
    },
    handle: (request, svc) =>
      request.route.handler(
        { reply: request.reply, account: request.account!, body: request.body, param: request.param, query: request.info.query, requestId: request.requestId, dataUrl: dataUrl() },
        svc,
      ),
  };
}

export interface JobApiListeners {
  realtimePort: number;
  dataPort: number;
  dataUrl: string;
  close(): void;
}

export async function startJobApi(svc: Services): Promise<JobApiListeners> {
  const { config } = svc;
  const auth = new BasicLogin(svc.store.accounts, svc.metrics.logins);
  let dataUrl = '';
  const realtimeApp = uWS.App().any('/*', createPipeline(svc, jobApiDoor('realtime:', REALTIME_ROUTES, auth, () => dataUrl)));
  const dataApp = uWS.App().any('/*', createPipeline(svc, jobApiDoor('data:', DATA_ROUTES, auth, () => dataUrl)));
  const realtime = await listen(realtimeApp, config.host, config.realtimePort, 'Job API realtime, GLEANER_REALTIME_PORT');
  const data = await listen(dataApp, config.host, config.dataPort, 'Job API push-pull, GLEANER_DATA_PORT').catch((err: unknown) => {
    realtime.close();
    throw err;
  });
  dataUrl = config.dataPublicUrl ?? `http://${config.host}:${data.port}`;
  return {
    realtimePort: realtime.port,
    dataPort: data.port,
    dataUrl,
    close: () => {
      realtime.close();
      data.close();
    },
  };
}
