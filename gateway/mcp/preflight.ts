/**
 * JSON-RPC checks made before a message reaches the MCP SDK, answered as JSON-RPC errors:
 *
 * - A request id already used by a request still running in the session is refused
 *   (-32600, Invalid Request). The transport routes each answer by id: a second request with
 *   the same id would take the first one's answer and leave the first waiting forever.
 * - `tools/call` whose `params` break the request's own shape — `name` not a string,
 *   `arguments` not an object — is refused with -32602 (Invalid params), as MCP says for
 *   malformed requests, with the problem document the HTTP API gives for a body that is not
 *   an object (`errors: [{pointer: "#", detail}]`) in `error.data`. The SDK would answer a
 *   schema failure here with -32603 and its parser's dump. Arguments that are an object but do
 *   not fit the tool's schema are the tool's to refuse: a tool result with `isError` and the
 *   same pointers, which a model can read and correct (MCP 2025-11-25, SEP-1303).
 */
import { buildProblem } from '../../core/problem.js';
import type { FieldError } from '../../core/errors.js';

type Id = string | number;
interface RpcError {
  jsonrpc: '2.0';
  id: Id | null;
  error: { code: number; message: string; data?: unknown };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The map key of a JSON-RPC id (`1` and `"1"` are different ids). */
function idKey(id: unknown): string | undefined {
  return typeof id === 'string' ? `s:${id}` : typeof id === 'number' ? `n:${id}` : undefined;
}

/** Keys of the ids of the requests (not notifications, not responses) in a body. */
export function requestIds(body: unknown): string[] {
  const messages = Array.isArray(body) ? body : [body];
  const out: string[] = [];
  for (const m of messages) {
    if (!isObject(m) || typeof m.method !== 'string') continue;
    const key = idKey(m.id);
    if (key) out.push(key);
  }
  return out;
}

function invalidParams(id: Id | null, errors: FieldError[]): RpcError {
  const problem = buildProblem('VALIDATION_ERROR', { errors });
  const message = `Invalid params: ${errors.map((e) => `${e.pointer} ${e.detail}`).join('; ')}`;
  return { jsonrpc: '2.0', id, error: { code: -32602, message, data: problem } };
}

function check(message: unknown, running: ReadonlySet<string>, seen: Set<string>): RpcError | undefined {
  if (!isObject(message) || typeof message.method !== 'string') return undefined;
  const id = typeof message.id === 'string' || typeof message.id === 'number' ? message.id : null;
  const key = idKey(message.id);
  if (key && (running.has(key) || seen.has(key))) {
    return { jsonrpc: '2.0', id, error: { code: -32600, message: `Invalid Request: id ${JSON.stringify(id)} is in use by a request still running in this session; use a new id.` } };
  }
  if (key) seen.add(key);
  if (message.method !== 'tools/call' || id === null) return undefined;
  const params = message.params;
  if (!isObject(params)) return invalidParams(id, [{ pointer: '#', detail: 'tools/call needs params {name, arguments}' }]);
  if (typeof params.name !== 'string') return invalidParams(id, [{ pointer: '#/name', detail: 'must be a string (the tool name)' }]);
  if (params.arguments !== undefined && !isObject(params.arguments)) return invalidParams(id, [{ pointer: '#', detail: 'must be an object' }]);
  return undefined;
}

/**
 * The answer to a body that must not reach the SDK, or undefined. A batch with one refused
 * request is answered whole: each refused request gets its error, and the others are refused
 * too (-32600) rather than run half a batch.
 */
export function preflight(body: unknown, running: ReadonlySet<string>): RpcError | RpcError[] | undefined {
  const seen = new Set<string>();
  if (!Array.isArray(body)) return check(body, running, seen);
  const answers = body.map((m) => ({ m, refused: check(m, running, seen) }));
  if (answers.every((a) => a.refused === undefined)) return undefined;
  return answers
    .filter((a) => a.refused !== undefined || (isObject(a.m) && typeof a.m.method === 'string' && idKey(a.m.id) !== undefined))
    .map(
      (a) =>
        a.refused ?? {
          jsonrpc: '2.0' as const,
          id: (a.m as { id: Id }).id,
          error: { code: -32600, message: 'Invalid Request: another request of this batch was refused; nothing in it ran.' },
        },
    );
}
