/**
 * uWS plumbing: the only module that touches `HttpRequest`/`HttpResponse` directly.
 *
 * uWS rules this file enforces so handlers cannot break them:
 * - `HttpRequest` is valid only until the handler first returns: `copyRequest` copies every
 *   field we need, synchronously, before any await.
 * - `onAborted` is attached before any await (in the `Reply` constructor); after an abort the
 *   response must not be touched, so every write checks `done`.
 * - Writes from async continuations are wrapped in `cork`, so status, headers and body leave
 *   in one syscall.
 */
import { STATUS_CODES } from 'node:http';
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import { GleanerError, type ErrorCode } from '../core/errors.js';
import { buildProblem, PROBLEM_CONTENT_TYPE, type ProblemDocument, type ProblemOptions } from '../core/problem.js';

export interface RequestInfo {
  method: string;
  path: string;
  /** Raw query string without `?`. */
  query: string;
  authorization: string;
  contentType: string;
  /** Declared body length, or -1 when absent. */
  contentLength: number;
  accept: string;
  host: string;
}

export function copyRequest(req: HttpRequest): RequestInfo {
  const declared = req.getHeader('content-length');
  return {
    method: req.getCaseSensitiveMethod(),
    path: req.getUrl(),
    query: req.getQuery() ?? '',
    authorization: req.getHeader('authorization'),
    contentType: req.getHeader('content-type'),
    contentLength: declared === '' ? -1 : Number(declared),
    accept: req.getHeader('accept'),
    host: req.getHeader('host'),
  };
}

const statusLines = new Map<number, string>();
function statusLine(status: number): string {
  let line = statusLines.get(status);
  if (!line) {
    line = `${status} ${STATUS_CODES[status] ?? 'Unknown'}`;
    statusLines.set(status, line);
  }
  return line;
}

/** One response. Created synchronously in the uWS handler so `onAborted` is attached first. */
export class Reply {
  /** True once the response was written or the client went away. */
  done = false;
  aborted = false;
  status = 0;
  /** Headers added to whatever response is sent (quota headers: set before the handler answers). */
  private extraHeaders: Record<string, string> | undefined;
  /**
   * Adds members to every problem document this reply sends (the Job API adds `message`, the
   * field its clients read). Set by the front door before anything is sent.
   */
  problemExtras: ((doc: ProblemDocument) => void) | undefined;
  /** Created only when a handler asks for `signal`: most requests never need one. */
  private abortController: AbortController | undefined;
  private abortCallbacks: Array<() => void> | undefined;

  constructor(private readonly res: HttpResponse) {
    res.onAborted(() => {
      this.done = true;
      this.aborted = true;
      this.abortController?.abort();
      if (this.abortCallbacks) for (const cb of this.abortCallbacks) cb();
    });
  }

  /** Aborts when the client disconnects: pass it to long work so it stops. */
  get signal(): AbortSignal {
    this.abortController ??= new AbortController();
    if (this.aborted) this.abortController.abort();
    return this.abortController.signal;
  }

  /** Runs `cb` if the client disconnects (cheaper than a listener on `signal`). */
  onAbort(cb: () => void): void {
    (this.abortCallbacks ??= []).push(cb);
  }

  addHeaders(headers: Record<string, string>): void {
    this.extraHeaders = this.extraHeaders ? { ...this.extraHeaders, ...headers } : headers;
  }

  send(status: number, headers: Record<string, string>, body: string | Buffer | undefined, closeConnection = false): void {
    if (this.done) return;
    this.done = true;
    this.status = status;
    const extra = this.extraHeaders;
    this.res.cork(() => {
      this.res.writeStatus(statusLine(status));
      for (const name in headers) this.res.writeHeader(name, headers[name]);
      if (extra) for (const name in extra) this.res.writeHeader(name, extra[name]);
      if (body === undefined) this.res.endWithoutBody(0, closeConnection);
      else this.res.end(body, closeConnection);
    });
  }

  json(status: number, value: unknown, headers: Record<string, string> = {}): void {
    this.send(status, { 'content-type': 'application/json', ...headers }, JSON.stringify(value));
  }

  problem(code: ErrorCode, opts: ProblemOptions = {}, headers: Record<string, string> = {}, closeConnection = false): void {
    this.sendProblem(buildProblem(code, opts), headers, closeConnection);
  }

  sendProblem(doc: ProblemDocument, headers: Record<string, string> = {}, closeConnection = false): void {
    this.problemExtras?.(doc);
    this.send(doc.status, { 'content-type': PROBLEM_CONTENT_TYPE, ...headers }, JSON.stringify(doc), closeConnection);
  }

  /** 401 has an empty body (spec 5.2). */
  unauthorized(): void {
    this.send(401, { 'www-authenticate': 'Bearer realm="gleaner"' }, '');
  }
}

/**
 * Reads the body, refusing (413) as soon as it grows past `cap` — before any parsing, and
 * without buffering more than `cap` bytes. Chunks are copied: uWS reuses their memory.
 */
export function readBody(res: HttpResponse, reply: Reply, cap: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    res.onData((chunk, isLast) => {
      if (failed) return;
      size += chunk.byteLength;
      if (size > cap) {
        failed = true;
        reject(new GleanerError('PAYLOAD_TOO_LARGE', `The request body exceeds ${cap} bytes.`));
        return;
      }
      chunks.push(Buffer.from(new Uint8Array(chunk)));
      if (isLast) resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
    });
    reply.onAbort(() => {
      if (!failed) reject(new GleanerError('SERVICE_UNAVAILABLE', 'client went away'));
      failed = true;
    });
  });
}
