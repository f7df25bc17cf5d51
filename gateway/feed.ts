/**
 * The job feed: `GET /v1/feed` upgraded to a WebSocket, for admin keys
 * (`Authorization: Bearer <key>` on the upgrade request).
 *
 * - Frames are msgpack by default, JSON with `?format=json`.
 * - Browsers cannot set headers on a WebSocket, and a key must never sit in a URL: they offer
 *   the subprotocols `gleaner-feed, bearer.<base64url of the key>` instead, and the answer
 *   selects `gleaner-feed` (the operator console does this).
 * - Filters: `?account=1,2` (client ids) and `?route=se1/search,mkt1/*` (route ids, `/*` for a
 *   target). Events: accepted, started, progress (crawls), done, failed, cancelled (crawls),
 *   delivered, delivery_failed.
 * - Back-pressure: while a socket has more than `HIGH_WATER` bytes buffered, events for it are
 *   dropped and counted; when it drains, it gets one `{type: "dropped", count}` frame so the
 *   client knows to re-read job state. A slow consumer never grows the server's memory.
 * - Submitting: a message `{op: "submit", ref, path: "/v1/async/scrape/...", body}` creates
 *   jobs like the HTTP route would (entitlement, batch cap, validation, quota) and answers
 *   `{op: "submitted", ref, status: 202, body}` or `{op: "error", ref, status, body: <problem
 *   document>}`.
 * - Revocation: a socket lives only as long as its key. Every message re-checks the key (a
 *   cached lookup), and the store's revocation watch (any process, the CLI included) re-checks
 *   every open socket, so a revoked key's feed is closed (1008) within about a quarter second
 *   and its submits stop at once.
 */
import { pack, unpack } from 'msgpackr';
import type { TemplatedApp, WebSocket } from 'uWebSockets.js';
import type { JobEvent } from '../core/events.js';
import { GleanerError, shownCode, toWireError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { problemFromWire } from '../core/problem.js';
import { validate } from '../core/schema/index.js';
import { entitled, type Account } from '../core/store/accounts.js';
import type { Services } from './context.js';
import { copyRequest, Reply } from './http.js';
import { refuseBadText } from './pipeline.js';
import { admitAndSubmit, checkBatchSize } from './handlers/jobs.js';
import { refuseUnrunnable } from './runnable.js';

const HIGH_WATER = 256 * 1024;
const BEARER = /^Bearer\s+(\S+)\s*$/i;
const FEED_PROTOCOL = 'gleaner-feed';

/** The key of a browser's upgrade, offered as the subprotocol `bearer.<base64url>`. */
function keyFromProtocols(header: string): string | undefined {
  for (const item of header.split(',')) {
    const p = item.trim();
    if (p.startsWith('bearer.')) return Buffer.from(p.slice(7), 'base64url').toString('utf8');
  }
  return undefined;
}

interface FeedSocketData {
  /** The key the socket was opened with, re-checked on every message and revocation. */
  token: string;
  account: Account;
  json: boolean;
  accounts: Set<number> | undefined;
  routes: string[] | undefined;
  dropped: number;
  /** Set on close: uWS forbids touching a closed socket, and a submit may finish after it. */
  closed: boolean;
  unsubscribe?: () => void;
}

function list(value: string | null): string[] | undefined {
  const items = value?.split(',').map((s) => s.trim()).filter(Boolean);
  return items && items.length > 0 ? items : undefined;
}

function wants(data: FeedSocketData, event: JobEvent): boolean {
  if (data.accounts && !data.accounts.has(event.clientId)) return false;
  return !data.routes || entitled(data.routes, event.routeId);
}

function frame(event: JobEvent): Record<string, unknown> {
  return {
    type: event.type,
    job_id: event.jobId,
    client_id: event.clientId,
    route: event.routeId,
    at: event.at,
    ...(event.batchId ? { batch_id: event.batchId } : {}),
    ...(event.delivery ? { delivery: event.delivery } : {}),
    // Cluster mode: the node that published the event (which node ran the job, for `started`).
    ...(event.node ? { node: event.node } : {}),
    ...(event.progress ? { progress: event.progress } : {}),
    // A failed job shows the problem title its collection shows; a failed delivery, DELIVERY_FAILED.
    ...(event.error ? { error: { code: event.type === 'failed' ? shownCode(event.error.code) : event.error.code, message: event.error.message } } : {}),
  };
}

function send(ws: WebSocket<FeedSocketData>, value: unknown): void {
  const data = ws.getUserData();
  if (data.json) ws.send(JSON.stringify(value), false);
  else ws.send(pack(value), true);
}

/** WebSocket close code for a key that is no longer valid (RFC 6455 7.4.1: policy violation). */
const REVOKED_CODE = 1008;
const REVOKED_REASON = 'The key was revoked.';

/** The socket's key, checked again: the account when still an admin key, else undefined. */
function recheck(ws: WebSocket<FeedSocketData>, svc: Services): Account | undefined {
  const data = ws.getUserData();
  const account = svc.store.accounts.authenticate(data.token);
  if (account?.admin) {
    data.account = account;
    return account;
  }
  if (!data.closed) {
    data.closed = true;
    ws.cork(() => ws.end(REVOKED_CODE, REVOKED_REASON));
  }
  return undefined;
}

export function mountFeed(app: TemplatedApp, svc: Services): void {
  // Open sockets, for the revocation watch; the watch runs only while one is open.
  const open = new Set<WebSocket<FeedSocketData>>();
  let unwatch: (() => void) | undefined;
  const onRevoked = (): void => {
    for (const ws of [...open]) recheck(ws, svc);
  };
  app.ws<FeedSocketData>('/v1/feed', {
    maxPayloadLength: svc.config.maxBodyBytes,
    maxBackpressure: 4 * HIGH_WATER,
    closeOnBackpressureLimit: 0,
    idleTimeout: 120,
    upgrade: (res, req, context) => {
      // Copy everything out of req synchronously (uWS rule), then decide. Refusals are the
      // same answers as on any other route: 401 empty, the rest problem documents.
      const reply = new Reply(res);
      const info = copyRequest(req);
      const requestId = newId();
      const query = new URLSearchParams(info.query);
      const key = req.getHeader('sec-websocket-key');
      const protocol = req.getHeader('sec-websocket-protocol');
      const extensions = req.getHeader('sec-websocket-extensions');
      if (info.defect) return reply.refuse(info.defect, requestId, () => undefined);
      const fromProtocol = info.authorization ? undefined : keyFromProtocols(protocol);
      const token = BEARER.exec(info.authorization)?.[1] ?? fromProtocol;
      const account = token ? svc.store.accounts.authenticate(token) : undefined;
      if (!account) return reply.unauthorized();
      if (!account.admin) return reply.problem('FORBIDDEN', { requestId, detail: 'The job feed is for admin keys.' });
      if (svc.state() !== 'ready') return reply.problem('SERVICE_UNAVAILABLE', { requestId }, { 'retry-after': '1' });
      const accounts = list(query.get('account'));
      const data: FeedSocketData = {
        token: token!,
        account,
        json: query.get('format') === 'json',
        accounts: accounts ? new Set(accounts.map(Number)) : undefined,
        routes: list(query.get('route')),
        dropped: 0,
        closed: false,
      };
      // Upgrading ends the HTTP response: the Reply must not write after it. Never echo the
      // offered key: select the plain protocol name instead.
      reply.done = true;
      res.cork(() => res.upgrade(data, key, fromProtocol ? FEED_PROTOCOL : protocol, extensions, context));
    },
    open: (ws) => {
      const data = ws.getUserData();
      open.add(ws);
      unwatch ??= svc.store.accounts.watchRevocations(onRevoked);
      data.unsubscribe = svc.events.subscribe((event) => {
        if (!wants(data, event)) return;
        if (ws.getBufferedAmount() > HIGH_WATER) {
          data.dropped++;
          return;
        }
        send(ws, frame(event));
      });
    },
    drain: (ws) => {
      const data = ws.getUserData();
      if (data.dropped > 0 && ws.getBufferedAmount() < HIGH_WATER / 2) {
        send(ws, { type: 'dropped', count: data.dropped });
        data.dropped = 0;
      }
    },
    message: (ws, message, isBinary) => {
      // Copy: uWS reuses the message buffer after this callback returns.
      const copy = Buffer.from(new Uint8Array(message));
      void handleMessage(ws, copy, isBinary, svc);
    },
    close: (ws) => {
      const data = ws.getUserData();
      data.closed = true;
      data.unsubscribe?.();
      open.delete(ws);
      if (open.size === 0) {
        unwatch?.();
        unwatch = undefined;
      }
    },
  });
}

async function handleMessage(ws: WebSocket<FeedSocketData>, raw: Buffer, isBinary: boolean, svc: Services): Promise<void> {
  // A key revoked since the last check closes the socket instead of answering.
  const account = recheck(ws, svc);
  if (!account) return;
  let ref: unknown;
  try {
    let msg: { op?: unknown; ref?: unknown; path?: unknown; body?: unknown };
    try {
      msg = (isBinary ? unpack(raw) : JSON.parse(raw.toString('utf8'))) as typeof msg;
    } catch {
      throw new GleanerError('MALFORMED_JSON', 'The message is neither JSON text nor a msgpack binary frame.');
    }
    ref = msg?.ref;
    if (!msg || msg.op !== 'submit' || typeof msg.path !== 'string') {
      throw new GleanerError('VALIDATION_ERROR', 'Messages are {op: "submit", ref, path, body}.', {
        errors: [{ pointer: '#/op', detail: 'op must be "submit" with a string path' }],
      });
    }
    const match = svc.router.match('POST', msg.path);
    if (!match.found || (match.route.kind !== 'submit' && match.route.kind !== 'submitBatch') || !match.route.endpoint) {
      throw new GleanerError('NOT_FOUND', `${String(msg.path)} is not an async or batch route.`);
    }
    const { route } = match;
    refuseBadText(msg.body);
    // The same checks, in the same order, as POST on the route (webapi.ts, handlers/jobs.ts).
    if (!entitled(account.entitlements, route.entitlement!)) throw new GleanerError('FORBIDDEN');
    if (route.kind === 'submitBatch') checkBatchSize(msg.body, svc.config.maxBatch);
    const result = validate(route.endpoint!, msg.body);
    if (!result.ok) throw new GleanerError('VALIDATION_ERROR', undefined, { errors: result.errors });
    refuseUnrunnable(route.entitlement, result.params, svc);
    const mode = route.kind === 'submit' ? 'async' : 'batch';
    const body = await admitAndSubmit(svc, account.clientId, route.entitlement!, mode, result.params);
    if (!ws.getUserData().closed) ws.cork(() => send(ws, { op: 'submitted', ref, status: 202, body }));
  } catch (err) {
    const problem = problemFromWire(toWireError(err));
    if (!ws.getUserData().closed) ws.cork(() => send(ws, { op: 'error', ref, status: problem.status, body: problem }));
  }
}
