/**
 * The Web API's front door on the shared pipeline: Bearer keys (cached, synchronous), the
 * route's entitlement, the route's compiled validator (defaults filled), then the handler bound
 * to the route's kind. Handlers only see valid, authenticated requests.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { GleanerError } from '../core/errors.js';
import { validate } from '../core/schema/index.js';
import { entitled } from '../core/store/accounts.js';
import type { Ctx, Handler, Services } from './context.js';
import { scrapers, options, openapi } from './handlers/discovery.js';
import { healthz, metrics, readyz } from './handlers/ops.js';
import { scrapeSync } from './handlers/scrape.js';
import { search } from './handlers/search.js';
import { checkBatchSize, jobGet, submit, submitBatch } from './handlers/jobs.js';
import { crawlCancel, crawlGet, crawlSubmit } from './handlers/crawl.js';
import { map } from './handlers/map.js';
import { consolePage, status, statusJob } from './handlers/status.js';
import { mcp } from './mcp/handler.js';
import type { FrontDoor } from './pipeline.js';
import type { HttpRoute, Router, RouteKind } from './routes.js';
import { refuseUnrunnable } from './runnable.js';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** Routes answered even while starting or draining. */
const ALWAYS_ON = new Set<RouteKind>(['healthz', 'readyz', 'metrics']);

/** A plain GET on the feed (no upgrade headers) reaches the HTTP pipeline. */
const feedWithoutUpgrade: Handler = () => {
  throw new GleanerError('UPGRADE_REQUIRED');
};

const HANDLERS: Record<RouteKind, Handler> = {
  scrape: scrapeSync,
  submit,
  submitBatch,
  search,
  map,
  crawlSubmit,
  crawlGet,
  crawlCancel,
  jobGet,
  scrapers,
  options,
  openapi,
  healthz,
  readyz,
  metrics,
  feed: feedWithoutUpgrade,
  status,
  statusJob,
  console: consolePage,
  mcp,
};

/** Constant-time comparison with the configured metrics token (hashes: equal lengths). */
function isMetricsToken(presented: string, configured: string | undefined): boolean {
  if (!configured) return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(presented), digest(configured));
}

export function webApiDoor(svc: Services, router: Router<HttpRoute>): FrontDoor<HttpRoute> {
  return {
    label: '',
    router,
    challenge: 'Bearer realm="gleaner"',
    alwaysOn: (route) => ALWAYS_ON.has(route.kind),
    readsBody: (route) => route.method === 'POST' && route.endpoint !== undefined,
    authenticate(route, info) {
      if (route.auth === 'none') return {};
      const token = BEARER.exec(info.authorization)?.[1];
      // Prometheus scrapes with GLEANER_METRICS_TOKEN, which opens /metrics and nothing else.
      if (route.kind === 'metrics' && token !== undefined && isMetricsToken(token, svc.config.metricsToken)) return {};
      const account = token ? svc.store.accounts.authenticate(token) : undefined;
      if (!account) return undefined;
      if ((route.auth === 'admin' && !account.admin) || (route.entitlement && !entitled(account.entitlements, route.entitlement))) {
        throw new GleanerError('FORBIDDEN', `This account is not entitled to ${route.method} ${route.path}.`);
      }
      return { account };
    },
    async handle(request, svc) {
      const { route } = request;
      const ctx: Ctx = { info: request.info, reply: request.reply, route, param: request.param, account: request.account, params: {}, requestId: request.requestId, started: request.started };
      if (route.method === 'POST' && route.endpoint) {
        if (route.kind === 'submitBatch') checkBatchSize(request.body, svc.config.maxBatch);
        const result = validate(route.endpoint, request.body);
        if (!result.ok) throw new GleanerError('VALIDATION_ERROR', undefined, { errors: result.errors });
        refuseUnrunnable(route.endpoint.kind === 'scrape' ? route.endpoint.routeId : undefined, result.params, svc);
        ctx.params = result.params;
      }
      await HANDLERS[route.kind](ctx, svc);
    },
  };
}
