/**
 * The Job API's two listeners (spec 4.6): realtime (`GLEANER_REALTIME_PORT`, sync queries that
 * hold the connection) and push-pull (`GLEANER_DATA_PORT`, jobs, results, stats). HTTP Basic
 * auth with the account's Job API users on every call; 401 with an empty body otherwise.
 * Errors are the same problem documents as the Web API's (the spec leaves the Job API's error
 * bodies open; one format for both APIs is what clients of both expect).
 */
import uWS from 'uWebSockets.js';
import type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket } from 'uWebSockets.js';
import { createHash } from 'node:crypto';
import { GleanerError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { Account } from '../../core/store/accounts.js';
import type { Services } from '../context.js';
import { copyRequest, Reply } from '../http.js';
import { readJson, sendError } from '../pipeline.js';
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

function mount(app: TemplatedApp, name: string, routes: JobApiRoute[], svc: Services, auth: BasicAuth, dataUrl: () => string): void {
  const router = new Router<JobApiRoute>(routes);
  app.any('/*', (res: HttpResponse, req: HttpRequest) => {
    const reply = new Reply(res);
    const info = copyRequest(req);
    const started = performance.now();
    const requestId = newId();
    const match = router.match(info.method, info.path);
    const routeName = match.found ? `${name}:${match.route.path}${match.route.param ? `{${match.route.param}}${match.route.suffix ?? ''}` : ''}` : `${name}:unmatched`;
    // uWS drops body chunks that arrive before onData is attached: start reading now,
    // synchronously, and only then await the (slow, scrypt) credential check.
    const body = match.found && match.route.body ? readJson(res, reply, info, svc.config.maxBodyBytes) : Promise.resolve(undefined);
    body.catch(() => undefined); // observed below; never an unhandled rejection when auth fails first
    const run = async (): Promise<void> => {
      if (!match.found) {
        if (match.status === 405) throw new GleanerError('METHOD_NOT_ALLOWED', `Use ${match.allow.join(', ')} on ${info.path}.`);
        throw new GleanerError('NOT_FOUND', `No route ${info.method} ${info.path}.`);
      }
      if (svc.state() !== 'ready') throw new GleanerError('SERVICE_UNAVAILABLE');
      const account = await auth.verify(info.authorization);
      if (!account) return reply.send(401, { 'www-authenticate': 'Basic realm="gleaner"' }, '');
      await match.route.handler({ reply, account, body: await body, param: match.param, query: info.query, requestId, dataUrl: dataUrl() }, svc);
    };
    run()
      .catch((err: unknown) => sendError(reply, err, requestId, svc.log))
      .finally(() => {
        const ms = performance.now() - started;
        svc.metrics.observe(info.method, routeName, reply.status, ms);
        svc.log.info({ request_id: requestId, method: info.method, route: routeName, status: reply.status, ms: Math.round(ms * 10) / 10 }, 'request');
      });
  });
}

function listen(app: TemplatedApp, host: string, port: number): Promise<us_listen_socket> {
  return new Promise((resolve, reject) =>
    app.listen(host, port, (token) => (token ? resolve(token) : reject(new Error(`cannot listen on ${host}:${port}`)))),
  );
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
  const realtimeApp = uWS.App();
  const dataApp = uWS.App();
  mount(realtimeApp, 'realtime', REALTIME_ROUTES, svc, auth, () => dataUrl);
  mount(dataApp, 'data', DATA_ROUTES, svc, auth, () => dataUrl);
  const realtimeToken = await listen(realtimeApp, config.host, config.realtimePort);
  const dataToken = await listen(dataApp, config.host, config.dataPort);
  const realtimePort = uWS.us_socket_local_port(realtimeToken as unknown as uWS.us_socket);
  const dataPort = uWS.us_socket_local_port(dataToken as unknown as uWS.us_socket);
  dataUrl = config.dataPublicUrl ?? `http://${config.host}:${dataPort}`;
  return {
    realtimePort,
    dataPort,
    dataUrl,
    close: () => {
      uWS.us_listen_socket_close(realtimeToken);
      uWS.us_listen_socket_close(dataToken);
    },
  };
}
