/**
 * One outbound HTTP attempt for delivery, shared by webhooks and bucket uploads: undici
 * `request` (which never follows redirects), a whole-attempt deadline, the private-address
 * guard, and a response body read up to a small cap. Outcomes are data, never throws.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { Agent, request } from 'undici';
import { retryAfterMs } from '../../core/retry.js';
import { CLOSED, checkUrl, guardedLookup, refusalIn } from '../net/ssrf.js';
import { trustedRoots } from '../net/trust.js';
import { DEFAULT_ATTEMPT_TIMEOUT_MS, type AttemptOptions, type AttemptResult } from './types.js';

/** Response bodies are read (so the connection can be reused) up to this, then dropped. */
export const RESPONSE_CAP_BYTES = 16 * 1024;

// Two process-wide pools: connections to public hosts are checked at connect time (the
// lookup is the check), and a pool made with the guard never serves an unguarded request.
let openAgent: Agent | undefined;
let guardedAgent: Agent | undefined;

function agentFor(allowPrivate: boolean): Agent {
  // `ca` is Node's roots plus GLEANER_CA_FILE's (undefined without one: Node's defaults).
  const ca = trustedRoots();
  if (allowPrivate) return (openAgent ??= new Agent({ keepAliveTimeout: 10_000, connect: { ca } }));
  return (guardedAgent ??= new Agent({ keepAliveTimeout: 10_000, connect: { ca, lookup: guardedLookup(CLOSED) } }));
}

/** Closes the pools (tests, shutdown). Later sends open new ones. */
export async function closeDeliveryAgents(): Promise<void> {
  const agents = [openAgent, guardedAgent].filter((a): a is Agent => a !== undefined);
  openAgent = guardedAgent = undefined;
  await Promise.all(agents.map((a) => a.close()));
}

export interface OutboundRequest {
  method: 'POST' | 'PUT';
  url: URL;
  headers: Record<string, string>;
  /** In memory, or a stream made per attempt (a file upload; `content-length` in `headers`). */
  body: Buffer | string | (() => Readable);
}

export type SendResult =
  | { ok: true; status: number; headers: IncomingHttpHeaders; body: Buffer }
  | { ok: false; retry: boolean; error: string };

export async function send(req: OutboundRequest, options: AttemptOptions = {}): Promise<SendResult> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS;
  const allowPrivate = options.allowPrivate ?? false;
  if (req.url.protocol !== 'http:' && req.url.protocol !== 'https:') {
    return { ok: false, retry: false, error: `unsupported scheme ${req.url.protocol} (http and https only)` };
  }
  if (!allowPrivate) {
    try {
      checkUrl(req.url.href, CLOSED);
    } catch (err) {
      return { ok: false, retry: false, error: refusedLine(err) };
    }
  }
  // One controller per attempt, fed by the deadline and the caller's signal. Hand-wired rather
  // than AbortSignal.any so nothing stays attached to a long-lived shutdown signal afterwards.
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onAbort = () => controller.abort();
  if (options.signal?.aborted) controller.abort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const res = await request(req.url, {
      method: req.method,
      headers: req.headers,
      body: typeof req.body === 'function' ? req.body() : req.body,
      signal: controller.signal,
      dispatcher: agentFor(allowPrivate),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      const room = RESPONSE_CAP_BYTES - size;
      chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
      size += Math.min(chunk.length, room);
      if (size >= RESPONSE_CAP_BYTES) {
        // Stop reading a large answer: the connection is closed rather than drained.
        res.body.destroy();
        break;
      }
    }
    return { ok: true, status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) };
  } catch (err) {
    if (refusalIn(err)) return { ok: false, retry: false, error: refusedLine(err) };
    if (timedOut) return { ok: false, retry: true, error: `timed out after ${timeoutMs} ms` };
    if (options.signal?.aborted) return { ok: false, retry: true, error: 'aborted before completion' };
    return { ok: false, retry: true, error: networkError(err) };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}

/** A refusal as the delivery's error line: general terms (it reaches the job's owner), never the address. */
function refusedLine(err: unknown): string {
  return `refused: ${refusalIn(err)?.message ?? 'the address is not allowed'}`;
}

function networkError(err: unknown): string {
  if (!(err instanceof Error)) return 'network error';
  const cause = (err as { cause?: unknown }).cause;
  const code = (err as { code?: unknown }).code ?? (cause as { code?: unknown } | undefined)?.code;
  const text = cause instanceof Error && cause.message && cause.message !== err.message ? `${err.message} (${cause.message})` : err.message;
  return `network error${typeof code === 'string' ? ` ${code}` : ''}: ${text}`.slice(0, 300);
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * The delivery policy of an HTTP answer: 2xx delivered; 408, 429 and 5xx retried (with
 * `Retry-After` when given); redirects and other 4xx final. `what` and `detail` make the
 * error line (`webhook answered HTTP 404`, `bucket answered HTTP 403 AccessDenied: ...`).
 */
export function classifyAnswer(
  status: number,
  headers: IncomingHttpHeaders,
  what: string,
  detail = '',
  now: number = Date.now(),
): AttemptResult {
  if (status >= 200 && status < 300) return { ok: true, status };
  const suffix = detail ? ` ${detail}` : '';
  if (status >= 300 && status < 400) {
    const location = header(headers, 'location');
    const to = location ? ` to ${location.slice(0, 200)}` : '';
    return { ok: false, retry: false, status, error: `${what} answered HTTP ${status}${suffix}: redirect${to} not followed` };
  }
  const retry = status === 408 || status === 429 || status >= 500;
  const result: AttemptResult = { ok: false, retry, status, error: `${what} answered HTTP ${status}${suffix}` };
  if (retry) {
    const after = retryAfterMs(header(headers, 'retry-after'), now);
    if (after !== undefined) result.retryAfterMs = after;
  }
  return result;
}
