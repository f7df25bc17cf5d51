/**
 * One chat-completions call to an OpenAI-compatible endpoint, with the failure handling the
 * extractor needs: a deadline shared by all attempts, bounded retries on 429 (honouring
 * Retry-After) and 5xx, and every failure turned into EXTRACTION_FAILED with a message that
 * names the problem but never the key, the endpoint's address or its credentials.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import type { LlmConfig } from '../config.js';
import { GleanerError } from '../errors.js';

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

function retryAfterMs(header: string | string[] | undefined): number | undefined {
  const h = Array.isArray(header) ? header[0] : header;
  if (!h) return undefined;
  const secs = Number(h);
  if (Number.isFinite(secs) && secs >= 0) return secs * 1000;
  const at = Date.parse(h);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
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
  for (let attempt = 0; ; attempt++) {
    const remaining = opts.deadline - Date.now();
    if (remaining <= 0) throw fail(`The language model did not answer within the extraction deadline (${opts.timeoutMs} ms).`, { reason: 'timeout' });
    const timeout = AbortSignal.timeout(remaining);
    const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
    let status: number;
    let text: string;
    let retryAfter: number | undefined;
    try {
      const res = await request(url, { method: 'POST', headers, body: payload, signal, headersTimeout: remaining, bodyTimeout: remaining });
      status = res.statusCode;
      retryAfter = retryAfterMs(res.headers['retry-after']);
      text = await res.body.text();
    } catch (err) {
      if (opts.signal?.aborted) throw fail('The extraction was cancelled.', { reason: 'cancelled' });
      if (timeout.aborted || Date.now() >= opts.deadline) {
        throw fail(`The language model did not answer within the extraction deadline (${opts.timeoutMs} ms).`, { reason: 'timeout' });
      }
      const code = (err as { code?: unknown }).code;
      if (attempt < opts.maxRetries) {
        await pause(backoff(attempt), opts);
        continue;
      }
      throw fail(`The language model endpoint could not be reached${typeof code === 'string' ? ` (${code})` : ''}.`, { reason: 'network' });
    }
    if (status === 429 || status >= 500) {
      const wait = status === 429 && retryAfter !== undefined ? retryAfter : backoff(attempt);
      if (attempt >= opts.maxRetries) {
        throw fail(
          status === 429
            ? `The language model endpoint kept answering 429 (rate limited) after ${attempt + 1} attempts.`
            : `The language model endpoint failed with HTTP ${status} after ${attempt + 1} attempts: ${errorText(text, llm.key)}`,
          { reason: status === 429 ? 'rate_limited' : 'upstream', status },
        );
      }
      if (Date.now() + wait >= opts.deadline) {
        throw fail(`The language model endpoint asked to retry in ${Math.ceil(wait / 1000)} s (HTTP ${status}), past the extraction deadline.`, {
          reason: status === 429 ? 'rate_limited' : 'upstream',
          status,
        });
      }
      await pause(wait, opts);
      continue;
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
    return contentOf(parsed);
  }
}

/** 0.5 s, 1 s, 2 s ... with ±20 % jitter, so workers that failed together do not retry together. */
function backoff(attempt: number): number {
  return Math.min(8000, 500 * 2 ** attempt) * (0.8 + Math.random() * 0.4);
}

async function pause(ms: number, opts: CallOptions): Promise<void> {
  try {
    await sleep(Math.max(0, Math.min(ms, opts.deadline - Date.now())), undefined, opts.signal ? { signal: opts.signal } : {});
  } catch {
    throw fail('The extraction was cancelled.', { reason: 'cancelled' });
  }
}
