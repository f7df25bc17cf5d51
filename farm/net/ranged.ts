/**
 * The media path of the plain-HTTP fetcher: a stream fetched in byte ranges and written to a
 * file as it arrives, never held in memory. Same network path as pages — the worker's undici
 * agent for the attempt's proxy, the SSRF guard on every hop (redirects followed by hand, each
 * re-checked), the task's AbortSignal — with its own size cap (`GLEANER_MEDIA_MAX_BYTES`)
 * instead of the pages' 20 MiB.
 *
 * Ranges of `chunkBytes` are asked for in turn (`Range: bytes=a-b`); media hosts throttle or
 * cut long unranged responses, and a range is what their own players ask for. A server that
 * ignores ranges (200) is read whole; a 206 must start where asked.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { request, type Dispatcher } from 'undici';
import { GleanerError } from '../../core/errors.js';
import type { Agents } from './agents.js';
import { MAX_REDIRECTS } from './fetcher.js';
import type { ProxyEntry } from './proxies.js';
import { checkUrl, refusalIn, resolveChecked, type NetPolicy } from './ssrf.js';
import { redirectTarget } from './redirect.js';

/** The platform's own players ask for about 10 MB at a time. */
export const MEDIA_CHUNK_BYTES = 10 * 1024 * 1024;

export interface RangedRequest {
  url: string;
  headers: Readonly<Record<string, string>>;
  proxy: ProxyEntry | null;
  /** The file written (created or truncated). */
  path: string;
  /** More bytes than this (declared or received) fail with RESPONSE_TOO_LARGE. */
  maxBytes: number;
  chunkBytes?: number;
  signal: AbortSignal;
}

export interface RangedResult {
  /** Final URL of the last range (after redirects). */
  url: string;
  /** Bytes written. */
  size: number;
  /** HTTP requests made (ranges and redirect hops). */
  requests: number;
  requestBytes: number;
}

interface Answer {
  url: URL;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Dispatcher.ResponseData['body'];
}

export async function fetchToFile(req: RangedRequest, agents: Agents, policy: NetPolicy): Promise<RangedResult> {
  const chunk = Math.max(1, req.chunkBytes ?? MEDIA_CHUNK_BYTES);
  const file = await open(req.path, 'w');
  const tally = { requests: 0, requestBytes: 0 };
  let url = checkUrl(req.url, policy);
  let offset = 0;
  let total: number | undefined;
  try {
    while (total === undefined || offset < total) {
      const last = total === undefined ? offset + chunk - 1 : Math.min(total - 1, offset + chunk - 1);
      const res = await get(url, { ...req.headers, range: `bytes=${offset}-${last}` }, req, agents, policy, tally);
      url = res.url;
      if (res.status === 416 && offset > 0) {
        // The end was reached exactly on a range boundary of a server that gave no total.
        await res.body.dump();
        break;
      }
      if (res.status === 200) {
        // Ranges ignored: the whole stream in one answer, from the start.
        checkDeclared(header(res, 'content-length'), req.maxBytes);
        offset = await write(file, res.body, 0, req.maxBytes);
        total = offset;
        break;
      }
      if (res.status !== 206) {
        await res.body.dump().catch(() => undefined);
        // 403/410: an expired or address-bound stream URL; another attempt fetches a fresh page.
        throw new GleanerError('UPSTREAM_FAILED', `The media stream answered HTTP ${res.status}.`, { status: res.status });
      }
      const range = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(header(res, 'content-range') ?? '');
      if (!range || Number(range[1]) !== offset) {
        await res.body.dump().catch(() => undefined);
        throw new GleanerError('UPSTREAM_FAILED', 'The media stream answered a range other than the one asked for.');
      }
      if (range[3] !== '*') {
        total = Number(range[3]);
        if (total > req.maxBytes) {
          await res.body.dump().catch(() => undefined);
          throw tooLarge(req.maxBytes);
        }
      }
      const before = offset;
      offset = await write(file, res.body, offset, req.maxBytes);
      if (offset === before) throw new GleanerError('UPSTREAM_FAILED', 'The media stream answered an empty range.');
    }
  } catch (err) {
    throw asMediaError(err, req.signal, url);
  } finally {
    await file.close();
  }
  return { url: url.href, size: offset, ...tally };
}

/** One GET with redirects followed by hand, every hop checked as a page fetch is. */
async function get(
  start: URL,
  headers: Record<string, string>,
  req: RangedRequest,
  agents: Agents,
  policy: NetPolicy,
  tally: { requests: number; requestBytes: number },
): Promise<Answer> {
  let url = start;
  const dispatcher = agents.for(req.proxy);
  for (let hop = 0; ; hop++) {
    if (req.proxy && !policy.allowPrivate) await resolveChecked(url.hostname, policy);
    tally.requests += 1;
    tally.requestBytes += url.href.length + Object.entries(headers).reduce((n, [k, v]) => n + k.length + v.length + 4, 16);
    const res = await request(url, { method: 'GET', headers, dispatcher, signal: req.signal, headersTimeout: 60_000, bodyTimeout: 60_000 });
    const location = first(res.headers.location);
    if (res.statusCode >= 300 && res.statusCode < 400 && location !== undefined) {
      await res.body.dump();
      if (hop >= MAX_REDIRECTS) throw new GleanerError('UPSTREAM_FAILED', `More than ${MAX_REDIRECTS} redirects.`, { final: true });
      url = checkUrl(redirectTarget(location, url, res.statusCode), policy);
      continue;
    }
    return { url, status: res.statusCode, headers: res.headers, body: res.body };
  }
}

/** Appends the body at `offset` with backpressure (each write awaited); returns the new end. */
async function write(file: FileHandle, body: AsyncIterable<Buffer>, offset: number, max: number): Promise<number> {
  let at = offset;
  for await (const piece of body) {
    if (at + piece.length > max) throw tooLarge(max);
    await file.write(piece, 0, piece.length, at);
    at += piece.length;
  }
  return at;
}

function checkDeclared(length: string | undefined, max: number): void {
  if (length !== undefined && Number(length) > max) throw tooLarge(max);
}

function tooLarge(max: number): GleanerError {
  return new GleanerError('RESPONSE_TOO_LARGE', `The media is larger than ${max} bytes (GLEANER_MEDIA_MAX_BYTES).`, { maxBytes: max });
}

function header(res: Answer, name: string): string | undefined {
  return first(res.headers[name]);
}

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

/** The task's abort reason, a refusal, our own errors as they are, else a retryable upstream failure. */
function asMediaError(err: unknown, signal: AbortSignal, url: URL): unknown {
  if (signal.aborted) return signal.reason instanceof GleanerError ? signal.reason : new GleanerError('SERVICE_UNAVAILABLE', 'The task was cancelled.');
  if (err instanceof GleanerError) return err;
  const refusal = refusalIn(err);
  if (refusal) return refusal;
  const code = (err as { code?: unknown })?.code;
  return new GleanerError('UPSTREAM_FAILED', `Fetching media from ${url.host} failed${typeof code === 'string' ? ` (${code})` : ''}.`);
}
