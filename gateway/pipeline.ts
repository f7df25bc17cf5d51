/**
 * The request walk every HTTP listener shares (DESIGN.md part 4): head limits and framing
 * (head.ts) → match → state → body (capped,
 * streamed, JSON-parsed) → credentials → the front door's handler, then one metrics sample and
 * one log line. The Web API and the Job API are two `FrontDoor`s on this pipeline; they differ
 * in their route tables, their credentials (Bearer key, Basic user) and their handlers. Every
 * refusal is a problem document from the closed table.
 */
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import { GleanerError, toWireError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { problemFromWire, type ProblemDocument } from '../core/problem.js';
import type { Logger } from '../core/log.js';
import { checkJsonText } from '../core/schema/index.js';
import type { Account } from '../core/store/accounts.js';
import { copyHeaders, copyRequest, readBody, remoteAddress, Reply, type RequestInfo } from './http.js';
import type { Services } from './context.js';
import type { Routable, Router } from './routes.js';

/** What the credentials check found: the caller (or `{}` on a public route), or nobody (401). */
export type Caller = { account?: Account } | undefined;

/** A matched, authenticated request as a front door's handler receives it. */
export interface Admitted<R extends Routable> {
  info: RequestInfo;
  reply: Reply;
  route: R;
  param: string | undefined;
  account: Account | undefined;
  /** The parsed JSON body on routes that read one, else undefined. */
  body: unknown;
  requestId: string;
  started: number;
}

export interface FrontDoor<R extends Routable> {
  /** Prefix of route names in metrics and logs (`''` for the Web API, `realtime:`, `data:`). */
  label: string;
  router: Router<R>;
  /** `WWW-Authenticate` of a 401 (its body is empty, spec 5.2). */
  challenge: string;
  /** Members added to every problem document of this door (the Job API's `message`). */
  problemExtras?: (doc: ProblemDocument) => void;
  /** Routes answered while the service is starting or draining (health, metrics). */
  alwaysOn(route: R): boolean;
  readsBody(route: R): boolean;
  /** Copy the client's address into `info.remote` (a per-address limit reads it). */
  remoteAddress?: boolean;
  /** May be async (scrypt); may throw FORBIDDEN for a caller without the entitlement. */
  authenticate(route: R, info: RequestInfo): Caller | Promise<Caller>;
  handle(request: Admitted<R>, svc: Services): void | Promise<void>;
}

function routeName(route: Routable): string {
  return route.path + (route.param ? `{${route.param}}${route.suffix ?? ''}` : '');
}

export function createPipeline<R extends Routable>(svc: Services, door: FrontDoor<R>) {
  return (res: HttpResponse, req: HttpRequest): void => {
    // Synchronous part: attach onAborted and copy everything out of `req` before any await.
    const reply = new Reply(res);
    reply.problemExtras = door.problemExtras;
    const info = copyRequest(req);
    if (door.remoteAddress) info.remote = remoteAddress(res);
    const started = performance.now();
    const requestId = newId();
    const match = door.router.match(info.method, info.path);
    const name = door.label + (match.found ? routeName(match.route) : 'unmatched');

    const finish = (): void => {
      const ms = performance.now() - started;
      svc.metrics.observe(info.method, name, reply.status, ms);
      svc.activity.request(door.label + (match.found ? (match.route.kind ?? name) : 'unmatched'), reply.status, ms, reply.title, info.path);
      svc.log.info({ request_id: requestId, method: info.method, route: name, status: reply.status, ms: Math.round(ms * 10) / 10, aborted: reply.aborted || undefined }, 'request');
    };

    if (info.defect) return reply.refuse(info.defect, requestId, finish);
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
    if (svc.state() !== 'ready' && !door.alwaysOn(route)) {
      reply.problem('SERVICE_UNAVAILABLE', { requestId }, { 'retry-after': '1' });
      return finish();
    }
    // A farm-only cluster node answers health and metrics; API traffic goes to the other nodes.
    if (svc.config.role === 'farm' && !door.alwaysOn(route)) {
      reply.problem('SERVICE_UNAVAILABLE', { requestId, detail: 'This is a farm-only node (GLEANER_ROLE=farm): send API requests to a gateway node.' });
      return finish();
    }
    // uWS drops body chunks that arrive before onData is attached: start reading now,
    // synchronously, and only then check credentials (which may await).
    const body = door.readsBody(route) ? readJson(res, reply, info, svc.config.maxBodyBytes) : undefined;
    body?.catch(() => undefined); // awaited below; never an unhandled rejection when auth fails first

    const run = async (): Promise<void> => {
      const checked = door.authenticate(route, info);
      const caller = checked instanceof Promise ? await checked : checked;
      if (!caller) return reply.unauthorized(door.challenge);
      const admitted: Admitted<R> = { info, reply, route, param: match.param, account: caller.account, body: body && (await body), requestId, started };
      await door.handle(admitted, svc);
    };
    run()
      .catch((err: unknown) => sendError(reply, err, requestId, svc.log))
      .finally(finish);
  };
}

/**
 * Reads the body under the cap (413 before or while streaming), parses it (MALFORMED_JSON) and
 * refuses text that is not well-formed or nesting past the bound (VALIDATION_ERROR with the
 * field's pointer): bad text is bad input on every route, before any handler sees it.
 */
export async function readJson(res: HttpResponse, reply: Reply, info: RequestInfo, cap: number): Promise<unknown> {
  if (info.contentLength > cap) throw new GleanerError('PAYLOAD_TOO_LARGE', `The request body exceeds ${cap} bytes.`);
  const body = await readBody(res, reply, cap);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch (err) {
    throw new GleanerError('MALFORMED_JSON', `The request body is not valid JSON: ${(err as Error).message}`);
  }
  refuseBadText(parsed);
  return parsed;
}

/** VALIDATION_ERROR for a lone surrogate or unbounded nesting anywhere in a parsed body. */
export function refuseBadText(body: unknown): void {
  const defect = checkJsonText(body);
  if (defect) throw new GleanerError('VALIDATION_ERROR', undefined, { errors: [defect] });
}

/** Any thrown value as a problem response; internal errors are logged, never shown. */
export function sendError(reply: Reply, err: unknown, requestId: string, log: Logger): void {
  if (reply.done) return;
  const wire = toWireError(err);
  if (wire.code === 'INTERNAL_ERROR') log.error({ request_id: requestId, err }, 'internal error');
  const doc = problemFromWire(wire, { requestId });
  reply.title = wire.code;
  // A 413 closes the connection: the rest of the oversized body is never read.
  // The concurrency 429 is worth retrying soon (QUOTA_EXCEEDED is not: it names its reset time);
  // a login limit says when (`retryAfter`, seconds).
  const retryAfter = wire.data?.retryAfter;
  const headers: Record<string, string> = wire.code === 'TOO_MANY_REQUESTS' ? { 'retry-after': String(typeof retryAfter === 'number' ? retryAfter : 1) } : {};
  reply.sendProblem(doc, headers, wire.code === 'PAYLOAD_TOO_LARGE');
}
