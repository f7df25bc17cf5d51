/**
 * The media path of the plain-HTTP fetcher: a stream fetched in byte ranges and written to a
 * file as it arrives, never held in memory. Same network path as pages — Chrome's TLS and
 * HTTP/2 on the attempt's proxy, the one redirect loop with the SSRF guard on every hop
 * (net/follow.ts), the task's AbortSignal — with its own size cap (`GLEANER_MEDIA_MAX_BYTES`)
 * instead of the pages' 20 MiB.
 *
 * Ranges of `chunkBytes` are asked for in turn (`Range: bytes=a-b`); media hosts throttle or
 * cut long unranged responses, and a range is what their own players ask for. A server that
 * ignores ranges (200) is read whole; a 206 must start where asked.
 */
import { open, type FileHandle } from 'node:fs/promises';
import type { Response } from 'wreq-js';
import { GleanerError } from '../../core/errors.js';
import type { HeaderList } from '../identity/headers.js';
import { follow } from './follow.js';
import type { ProxyEntry } from './proxies.js';
import { checkUrl, refusalIn, type NetPolicy } from './ssrf.js';
import type { Transports } from './transports.js';

/** The platform's own players ask for about 10 MB at a time. */
export const MEDIA_CHUNK_BYTES = 10 * 1024 * 1024;

export interface RangedRequest {
  url: string;
  /** The request's headers in order; each range adds its `range` line. */
  headers: HeaderList;
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
  res: Response;
}

export async function fetchToFile(req: RangedRequest, transports: Transports, policy: NetPolicy): Promise<RangedResult> {
  const chunk = Math.max(1, req.chunkBytes ?? MEDIA_CHUNK_BYTES);
  const file = await open(req.path, 'w');
  const tally = { requests: 0, requestBytes: 0 };
  let url = checkUrl(req.url, policy);
  let offset = 0;
  let total: number | undefined;
  try {
    while (total === undefined || offset < total) {
      const last = total === undefined ? offset + chunk - 1 : Math.min(total - 1, offset + chunk - 1);
      const res = await get(url, `bytes=${offset}-${last}`, req, transports, policy, tally);
      url = res.url;
      if (res.status === 416 && offset > 0) {
        // The end was reached exactly on a range boundary of a server that gave no total.
        await drop(res);
        break;
      }
      if (res.status === 200) {
        // Ranges ignored: the whole stream in one answer, from the start.
        checkDeclared(header(res, 'content-length'), req.maxBytes);
        offset = await write(file, res.res, 0, req.maxBytes);
        total = offset;
        break;
      }
      if (res.status !== 206) {
        await drop(res);
        // 403/410: an expired or address-bound stream URL; another attempt fetches a fresh page.
        throw new GleanerError('UPSTREAM_FAILED', `The media stream answered HTTP ${res.status}.`, { status: res.status });
      }
      const range = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(header(res, 'content-range') ?? '');
      if (!range || Number(range[1]) !== offset) {
        await drop(res);
        throw new GleanerError('UPSTREAM_FAILED', 'The media stream answered a range other than the one asked for.');
      }
      if (range[3] !== '*') {
        total = Number(range[3]);
        if (total > req.maxBytes) {
          await drop(res);
          throw tooLarge(req.maxBytes);
        }
      }
      const before = offset;
      offset = await write(file, res.res, offset, req.maxBytes);
      if (offset === before) throw new GleanerError('UPSTREAM_FAILED', 'The media stream answered an empty range.');
    }
  } catch (err) {
    throw asMediaError(err, req.signal, url);
  } finally {
    await file.close();
  }
  return { url: url.href, size: offset, ...tally };
}

/** One ranged GET through the plain path's redirect loop. */
async function get(
  start: URL,
  range: string,
  req: RangedRequest,
  transports: Transports,
  policy: NetPolicy,
  tally: { requests: number; requestBytes: number },
): Promise<Answer> {
  const headers = withRange(req.headers, range);
  const got = await follow({ url: start.href, method: 'GET', body: undefined, headers: () => headers, proxy: req.proxy, signal: req.signal }, transports, policy);
  tally.requests += got.requests;
  tally.requestBytes += got.requestBytes;
  return { url: new URL(got.url), status: got.response.status, res: got.response };
}

/** `range` where Chrome's media requests carry it: before `priority` (last) if there is one. */
function withRange(headers: HeaderList, range: string): HeaderList {
  const out = headers.filter(([n]) => n.toLowerCase() !== 'range');
  const at = out.findIndex(([n]) => n === 'priority');
  out.splice(at >= 0 ? at : out.length, 0, ['range', range]);
  return out;
}

async function drop(res: Answer): Promise<void> {
  await res.res.body?.cancel().catch(() => undefined);
}

/** Appends the body at `offset` with backpressure (each write awaited); returns the new end. */
async function write(file: FileHandle, res: Response, offset: number, max: number): Promise<number> {
  let at = offset;
  const reader = res.body?.getReader();
  if (!reader) return at;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (at + value.byteLength > max) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(max);
    }
    await file.write(value, 0, value.byteLength, at);
    at += value.byteLength;
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
  return res.res.headers.get(name) ?? undefined;
}

/** The task's abort reason, a refusal, our own errors as they are, else a retryable upstream failure. */
function asMediaError(err: unknown, signal: AbortSignal, url: URL): unknown {
  if (signal.aborted) return signal.reason instanceof GleanerError ? signal.reason : new GleanerError('SERVICE_UNAVAILABLE', 'The task was cancelled.');
  if (err instanceof GleanerError) return err;
  const refusal = refusalIn(err);
  if (refusal) return refusal;
  const code = (err as { code?: unknown })?.code;
  return new GleanerError('UPSTREAM_FAILED', `Fetching media from ${url.host} failed${typeof code === 'string' ? ` (${code})` : ''}.`, undefined, { cause: err });
}
