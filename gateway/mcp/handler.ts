/**
 * `POST /mcp` and `DELETE /mcp` (Bearer key): the Model Context Protocol's streamable HTTP
 * transport on the uWS gateway. The request walk up to here is the pipeline's (state, auth,
 * metrics, logs); this handler reads the body, finds or opens the session, hands a web
 * standard `Request` to the SDK's transport and writes its `Response` back — a JSON answer at
 * once, or a server-sent event stream (progress notifications, then the result) chunk by chunk.
 *
 * HTTP-level refusals (no session, unknown session, bad JSON) are problem documents like every
 * other route's; JSON-RPC errors inside a valid exchange are the SDK's, except the two this
 * handler answers before the SDK sees the message (preflight.ts): a reused id and malformed
 * `tools/call` params.
 *
 * The SDK (and the tool table) load on the first MCP request: importing them costs about half
 * a second, which a gateway that never serves MCP should not pay at start.
 */
import { GleanerError } from '../../core/errors.js';
import type { Handler, Services } from '../context.js';
import type { Reply } from '../http.js';
import { preflight, requestIds } from './preflight.js';
import type { McpSessions } from './sessions.js';

const registries = new WeakMap<Services, Promise<McpSessions>>();

function sessionsOf(svc: Services): Promise<McpSessions> {
  let sessions = registries.get(svc);
  if (!sessions) registries.set(svc, (sessions = import('./sessions.js').then((m) => new m.McpSessions(svc))));
  return sessions;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

function parse(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (err) {
    throw new GleanerError('MALFORMED_JSON', `The request body is not valid JSON: ${(err as Error).message}`);
  }
}

/** A JSON-RPC `initialize` request (alone or in a batch); the SDK checks the rest of it. */
function initializes(body: unknown): boolean {
  const isInit = (m: unknown): boolean => !!m && typeof m === 'object' && (m as { method?: unknown }).method === 'initialize' && 'id' in m;
  return Array.isArray(body) ? body.some(isInit) : isInit(body);
}

export const mcp: Handler = async (ctx, svc) => {
  const { info, reply } = ctx;
  const cap = svc.config.maxBodyBytes;
  if (info.contentLength > cap) throw new GleanerError('PAYLOAD_TOO_LARGE', `The request body exceeds ${cap} bytes.`);
  // Attached before the first await: uWS hands body chunks only to a handler registered now.
  const rawBody = info.method === 'POST' ? reply.body(cap) : undefined;
  const body = rawBody ? parse(await rawBody) : undefined;
  const account = ctx.account!;
  // The pipeline authenticated this key; the session is bound to it (revoking it closes the session).
  const key = BEARER.exec(info.authorization)?.[1] ?? '';
  const sessions = await sessionsOf(svc);
  const sessionId = info.headers?.['mcp-session-id'];
  let session;
  if (sessionId) {
    session = sessions.get(sessionId, key);
    if (!session) throw new GleanerError('NOT_FOUND', 'No such MCP session (unknown, expired, closed, or opened with another key); initialize a new one.');
  } else if (info.method === 'POST' && initializes(body)) {
    session = await sessions.create(account, key);
  } else {
    throw new GleanerError('VALIDATION_ERROR', 'Send the Mcp-Session-Id header, or an initialize request to open a session.', {
      errors: [{ pointer: '#/headers/mcp-session-id', detail: 'is required after initialize' }],
    });
  }

  const refused = body === undefined ? undefined : preflight(body, session.inFlight);
  if (refused) return reply.json(200, refused);
  const ids = body === undefined ? [] : requestIds(body);
  for (const id of ids) session.inFlight.add(id);
  try {
    const headers = new Headers();
    if (info.accept) headers.set('accept', info.accept);
    if (info.contentType) headers.set('content-type', info.contentType);
    for (const [name, value] of Object.entries(info.headers ?? {})) headers.set(name, value);
    const request = new Request(`http://${info.host || 'localhost'}/mcp`, { method: info.method, headers });
    const response = await session.transport.handleRequest(request, {
      parsedBody: body,
      authInfo: { token: '', clientId: String(account.clientId), scopes: account.entitlements },
    });
    await writeResponse(response, reply);
  } finally {
    for (const id of ids) session.inFlight.delete(id);
  }
};

/** Copies a web `Response` to uWS: whole when it is short JSON, streamed when it is SSE. */
async function writeResponse(response: Response, reply: Reply): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'content-length' && name !== 'transfer-encoding' && name !== 'connection') headers[name] = value;
  });
  if (!response.body) return reply.send(response.status, headers, undefined);
  if (!(headers['content-type'] ?? '').startsWith('text/event-stream')) {
    return reply.send(response.status, headers, Buffer.from(await response.arrayBuffer()));
  }
  const reader = response.body.getReader();
  // The client leaving (it cancelled, or closed its stream) cancels our read: the transport's
  // stream cleanup runs, and nothing is written to the closed socket.
  reply.onAbort(() => void reader.cancel().catch(() => undefined));
  const out = reply.stream(response.status, { ...headers, 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      if (value) out.write(value);
    }
  } catch {
    // cancelled: the client is gone
  } finally {
    out.end();
  }
}
