/**
 * The request walk (DESIGN.md part 4): match → state → auth → entitlement → body (capped,
 * streamed) → JSON parse → validation → handler. Every refusal is a problem document from the
 * closed table; handlers only see valid, authenticated requests.
 */
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import { GleanerError, toWireError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { problemFromWire, PROBLEM_CONTENT_TYPE } from '../core/problem.js';
import type { Logger } from '../core/log.js';
import { entitled } from '../core/store/accounts.js';
import { validate } from '../core/schema/index.js';
import { checkExtractionConfig } from '../core/extraction/index.js';
import { copyHeaders, copyRequest, readBody, Reply, type RequestInfo } from './http.js';
import type { Ctx, Handler, Services } from './context.js';
import type { RouteKind } from './routes.js';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** Routes answered even while starting or draining. */
const ALWAYS_ON = new Set<RouteKind>(['healthz', 'readyz', 'metrics']);

export function createPipeline(svc: Services, handlers: Record<RouteKind, Handler>) {
  return (res: HttpResponse, req: HttpRequest): void => {
    // Synchronous part: attach onAborted and copy everything out of `req` before any await.
    const reply = new Reply(res);
    const info = copyRequest(req);
    const started = performance.now();
    const requestId = newId();
    const match = svc.router.match(info.method, info.path);
    const routeName = match.found ? match.route.path + (match.route.param ? `{${match.route.param}}` : '') : 'unmatched';

    const finish = (): void => {
      const ms = performance.now() - started;
      svc.metrics.observe(info.method, routeName, reply.status, ms);
      svc.activity.request(match.found ? match.route.kind : 'unmatched', reply.status, ms, reply.title);
      svc.log.info({ request_id: requestId, method: info.method, route: routeName, status: reply.status, ms: Math.round(ms * 10) / 10, aborted: reply.aborted || undefined }, 'request');
    };

    if (!match.found) {
      if (match.status === 405) {
        reply.problem('METHOD_NOT_ALLOWED', { requestId, detail: `Use ${match.allow.join(', ')} on ${info.path}.`, extensions: { allow: match.allow } }, { allow: match.allow.join(', ') });
      } else {
        reply.problem('NOT_FOUND', { requestId, detail: `No route ${info.method} ${info.path}.` });
      }
      return finish();
    }
    const { route } = match;
    if (route.headers) info.headers = copyHeaders(req, route.headers);
    if (svc.state() !== 'ready' && !ALWAYS_ON.has(route.kind)) {
      reply.problem('SERVICE_UNAVAILABLE', { requestId }, { 'retry-after': '1' });
      return finish();
    }

    let account;
    if (route.auth !== 'none') {
      const token = BEARER.exec(info.authorization)?.[1];
      account = token ? svc.store.accounts.authenticate(token) : undefined;
      if (!account) {
        reply.unauthorized();
        return finish();
      }
      if ((route.auth === 'admin' && !account.admin) || (route.entitlement && !entitled(account.entitlements, route.entitlement))) {
        reply.problem('FORBIDDEN', { requestId, detail: `This account is not entitled to ${route.method} ${route.path}.` });
        return finish();
      }
    }

    const ctx: Ctx = { info, reply, route, param: match.param, account, params: {}, requestId, started };
    const handler = handlers[route.kind];
    const run = async (): Promise<void> => {
      if (route.method === 'POST' && route.endpoint) {
        const parsed = await readJson(res, reply, info, svc.config.maxBodyBytes);
        if (route.kind === 'submitBatch') checkBatchSize(parsed, svc.config.maxBatch);
        const result = validate(route.endpoint, parsed);
        if (!result.ok) throw new GleanerError('VALIDATION_ERROR', undefined, { errors: result.errors });
        refuseUnrunnableExtraction(result.params, svc);
        ctx.params = result.params;
      }
      await handler(ctx, svc);
    };
    run()
      .catch((err: unknown) => sendError(reply, err, requestId, svc.log))
      .finally(finish);
  };
}

/** Reads the body under the cap (413 before or while streaming) and parses it (MALFORMED_JSON). */
export async function readJson(res: HttpResponse, reply: Reply, info: RequestInfo, cap: number): Promise<unknown> {
  if (info.contentLength > cap) throw new GleanerError('PAYLOAD_TOO_LARGE', `The request body exceeds ${cap} bytes.`);
  const body = await readBody(res, reply, cap);
  try {
    return JSON.parse(body.toString('utf8'));
  } catch (err) {
    throw new GleanerError('MALFORMED_JSON', `The request body is not valid JSON: ${(err as Error).message}`);
  }
}

/** Any thrown value as a problem response; internal errors are logged, never shown. */
export function sendError(reply: Reply, err: unknown, requestId: string, log: Logger): void {
  if (reply.done) return;
  const wire = toWireError(err);
  if (wire.code === 'INTERNAL_ERROR') log.error({ request_id: requestId, err }, 'internal error');
  const doc = problemFromWire(wire, { requestId });
  reply.title = wire.code;
  // A 413 closes the connection: the rest of the oversized body is never read.
  reply.send(doc.status, { 'content-type': PROBLEM_CONTENT_TYPE }, JSON.stringify(doc), wire.code === 'PAYLOAD_TOO_LARGE');
}

/**
 * A `json.prompt` with no model configured (LLM_NOT_CONFIGURED), or a `json.schema` ajv cannot
 * compile, is refused before anything is fetched or queued.
 */
export function refuseUnrunnableExtraction(params: Record<string, unknown>, svc: Services): void {
  const spec = params.json as { prompt?: string | null; schema?: Record<string, unknown> | null } | null | undefined;
  if (spec && (spec.prompt || spec.schema)) checkExtractionConfig(spec, svc.config.llm);
}

/** A batch above the documented maximum is 413 (spec part 7), checked before validation. */
function checkBatchSize(body: unknown, max: number): void {
  if (!body || typeof body !== 'object') return;
  const record = body as Record<string, unknown>;
  for (const key of ['query', 'url']) {
    const values = record[key];
    if (Array.isArray(values) && values.length > max) {
      throw new GleanerError('PAYLOAD_TOO_LARGE', `A batch takes at most ${max} values; ${key} has ${values.length}.`, { max });
    }
  }
}
