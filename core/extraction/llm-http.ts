/**
 * One chat-completions call to an OpenAI-compatible endpoint, with the failure handling the
 * extractor needs: a deadline shared by all attempts, bounded retries on 429 and 5xx (honouring
 * Retry-After on 429 and 503) through the shared retry helper (core/retry.ts), and every
 * failure turned into EXTRACTION_FAILED with a message that names the problem but never the
 * key, the endpoint's address or its credentials.
 */
import { request } from 'undici';
import type { LlmConfig } from '../config.js';
import { GleanerError } from '../errors.js';
import { RetriesExhausted, abortableOf, honoursRetryAfter, retryAfterMs, withRetries, type AttemptOutcome } from '../retry.js';

/** The endpoint refused a request parameter (`response_format`, `temperature`): retry without it. */
export class ParameterRejected extends Error {
  constructor(readonly parameter: 'response_format' | 'temperature') {
    super(`the endpoint does not support ${parameter}`);
  }
}

export interface CallOptions {
  /** Absolute deadline (ms since epoch) for the call including its retries. */
  deadline: number;
  signal?: AbortSignal | undefined;
  /** The deadline's length, for messages. */
  timeoutMs: number;
  /** Retries after a 429, a 5xx or a dropped connection. */
  maxRetries: number;
}

/** The chat-completions URL: the configured URL as is when it names the route, else `/chat/completions` below it. */
export function chatUrl(base: string): string {
  if (/\/chat\/completions\/?$/.test(new URL(base).pathname)) return base;
  const u = new URL(base);
  u.pathname = `${u.pathname.replace(/\/+$/, '')}/chat/completions`;
  return u.href;
}

/** Removes the key (and long fragments of it) from any text that may leave this module. */
export function redact(text: string, key: string | undefined): string {
  if (!key || key.length < 4) return text;
  let out = text.split(key).join('[redacted]');
  if (key.length >= 16) for (const part of [key.slice(0, 8), key.slice(-8)]) out = out.split(part).join('[redacted]');
  return out;
}

function fail(message: string, data?: Record<string, unknown>): GleanerError {
  return new GleanerError('EXTRACTION_FAILED', message, data);
}

/** The endpoint's own error text, short and scrubbed: it may echo parts of the request. */
function errorText(body: string, key: string | undefined): string {
  let msg = body;
  try {
    const j = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    msg = typeof j.error === 'string' ? j.error : typeof j.error?.message === 'string' ? j.error.message : typeof j.message === 'string' ? j.message : body;
  } catch {
    // not JSON: the raw text
  }
  msg = redact(msg.replace(/\s+/g, ' ').trim(), key).replace(/\b(sk|pk|key|token)-[\w-]{6,}/gi, '[redacted]');
  return msg.length > 200 ? `${msg.slice(0, 200)}…` : msg;
}

function contentOf(payload: unknown): string {
  const choice = (payload as { choices?: { message?: { content?: unknown; refusal?: unknown } }[] }).choices?.[0];
  const message = choice?.message;
  if (!message) throw fail('The language model answered without a message (no choices[0].message in the response).');
  if (typeof message.refusal === 'string' && message.refusal !== '') throw fail(`The language model refused to answer: ${message.refusal.slice(0, 200)}`);
  const c = message.content;
  if (typeof c === 'string') return c;
  if (Array.isArray(c)) return c.map((p) => (typeof p === 'string' ? p : typeof p?.text === 'string' ? p.text : '')).join('');
  throw fail('The language model answered with an empty message.');
}

export async function callChat(llm: LlmConfig, body: Record<string, unknown>, opts: CallOptions): Promise<string> {
  let url: string;
  try {
    url = chatUrl(llm.url);
  } catch {
    throw fail('GLEANER_LLM_URL is not a valid absolute URL.', { reason: 'config' });
  }
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (llm.key) headers.authorization = `Bearer ${llm.key}`;
  const payload = JSON.stringify(body);
  const timedOut = () => fail(`The language model did not answer within the extraction deadline (${opts.timeoutMs} ms).`, { reason: 'timeout' });
  const attempt = async (): Promise<AttemptOutcome<string>> => {
    const remaining = opts.deadline - Date.now();
    if (remaining <= 0) throw timedOut();
    const timeout = AbortSignal.timeout(remaining);
    const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
    let status: number;
    let text: string;
    let retryAfter: number | undefined;
    try {
      const res = await request(url, { method: 'POST', headers, body: payload, signal, headersTimeout: remaining, bodyTimeout: remaining });
      status = res.statusCode;
      retryAfter = honoursRetryAfter(status) ? retryAfterMs(res.headers['retry-after']) : undefined;
      text = await res.body.text();
    } catch (err) {
      if (opts.signal?.aborted) throw cancelled();
      if (timeout.aborted || Date.now() >= opts.deadline) throw timedOut();
      const code = (err as { code?: unknown }).code;
      return { ok: false, retry: true, reason: typeof code === 'string' ? ` (${code})` : '' };
    }
    if (status === 429 || status >= 500) {
      return { ok: false, retry: true, status, reason: status === 429 ? '' : errorText(text, llm.key), ...(retryAfter !== undefined ? { retryAfterMs: retryAfter } : {}) };
    }
    if (status === 400 && /response_format|json_schema|json_object|structured output/i.test(text)) throw new ParameterRejected('response_format');
    if (status === 400 && /temperature/i.test(text)) throw new ParameterRejected('temperature');
    if (status >= 300) {
      throw fail(`The language model endpoint refused the request (HTTP ${status}): ${errorText(text, llm.key)}`, { reason: 'refused', status });
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw fail('The language model endpoint answered with a body that is not JSON.', { reason: 'malformed' });
    }
    return { ok: true, value: contentOf(parsed) };
  };
  try {
    return await withRetries(
      // 0.5 s, 1 s, 2 s ... up to 8 s, ±20 %, so workers that failed together do not retry together.
      { attempts: opts.maxRetries + 1, baseMs: 500, maxMs: 8000, jitter: 0.2, deadline: opts.deadline, ...(opts.signal ? { abort: abortableOf(opts.signal) } : {}) },
      attempt,
    );
  } catch (err) {
    if (err instanceof RetriesExhausted) throw exhausted(err, timedOut);
    if (opts.signal?.aborted && !(err instanceof GleanerError)) throw cancelled();
    throw err;
  }
}

function cancelled(): GleanerError {
  return fail('The extraction was cancelled.', { reason: 'cancelled' });
}

/** The message of a call whose retries ran out, by what failed last and why the loop stopped. */
function exhausted(e: RetriesExhausted, timedOut: () => GleanerError): GleanerError {
  const { status } = e.last;
  if (status === undefined) {
    if (e.why === 'deadline') return timedOut();
    return fail(`The language model endpoint could not be reached${e.last.reason}.`, { reason: 'network' });
  }
  const reason = status === 429 ? 'rate_limited' : 'upstream';
  if (e.why === 'deadline' || e.why === 'retry-after') {
    return fail(`The language model endpoint asked to retry in ${Math.ceil((e.wantedMs ?? 0) / 1000)} s (HTTP ${status}), past the extraction deadline.`, { reason, status });
  }
  return fail(
    status === 429
      ? `The language model endpoint kept answering 429 (rate limited) after ${e.attempts} attempts.`
      : `The language model endpoint failed with HTTP ${status} after ${e.attempts} attempts: ${e.last.reason}`,
    { reason, status },
  );
}
