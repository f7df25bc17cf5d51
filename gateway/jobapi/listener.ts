/**
 * The Job API's two listeners (spec 4.6): realtime (`GLEANER_REALTIME_PORT`, sync queries that
 * hold the connection) and push-pull (`GLEANER_DATA_PORT`, jobs, results, stats). HTTP Basic
 * auth with the account's Job API users on every call; 401 with an empty body otherwise.
 * Errors are the same problem documents as the Web API's (the spec leaves the Job API's error
 * bodies open; one format for both APIs is what clients of both expect).
 */
import uWS from 'uWebSockets.js';
import { createHash } from 'node:crypto';
import type { Account } from '../../core/store/accounts.js';
import type { Services } from '../context.js';
import { listen } from '../listener.js';
import { createPipeline, type FrontDoor } from '../pipeline.js';
import { Router, type Routable } from '../routes.js';
import * as h from './handlers.js';

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

const BASIC = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i;
const AUTH_CACHE_MS = 60_000;

/**
 * Verified Basic credentials, cached briefly: scrypt is deliberately slow and polling clients
 * send the same header many times a second. Keyed by a hash of the header, never the password.
 */
class BasicAuth {
  private readonly cache = new Map<string, { account: Account; until: number }>();

  constructor(private readonly svc: Services) {}

  async verify(header: string): Promise<Account | undefined> {
    const m = BASIC.exec(header);
    if (!m) return undefined;
    const key = createHash('sha256').update(m[1]).digest('base64');
    const hit = this.cache.get(key);
    if (hit && hit.until > Date.now()) return hit.account;
    const decoded = Buffer.from(m[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon <= 0) return undefined;
    const account = await this.svc.store.accounts.verifyUser(decoded.slice(0, colon), decoded.slice(colon + 1));
    if (account) {
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(key, { account, until: Date.now() + AUTH_CACHE_MS });
    }
    return account;
  }
}

function jobApiDoor(label: string, routes: JobApiRoute[], auth: BasicAuth, dataUrl: () => string): FrontDoor<JobApiRoute> {
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
    authenticate: async (_route, info) => {
      const account = await auth.verify(info.authorization);
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
  const auth = new BasicAuth(svc);
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
