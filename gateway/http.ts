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
 * - A request whose framing is ambiguous is answered only after uWS has finished the read it
 *   came in (see `Reply.refuse`), never in the handler itself.
 */
import { STATUS_CODES } from 'node:http';
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import { GleanerError, type ErrorCode } from '../core/errors.js';
import { buildProblem, PROBLEM_CONTENT_TYPE, type ProblemDocument, type ProblemOptions } from '../core/problem.js';
import { inspectHead, type HeadDefect } from './head.js';

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
  /** Further headers a route asked for (`HttpRoute.headers`), lower-case names. */
  headers?: Record<string, string>;
  /** Ambiguous framing or a head over the documented limits: refused before routing. */
  defect: HeadDefect | undefined;
  /** The TCP peer's address, copied only for front doors that ask (`FrontDoor.remoteAddress`). */
  remote?: string;
}

export function copyRequest(req: HttpRequest): RequestInfo {
  const declared = req.getHeader('content-length');
  const method = req.getCaseSensitiveMethod();
  const path = req.getUrl();
  const query = req.getQuery() ?? '';
  return {
    defect: inspectHead(req, method, path, query),
    method,
    path,
    query,
    authorization: req.getHeader('authorization'),
    contentType: req.getHeader('content-type'),
    contentLength: declared === '' ? -1 : Number(declared),
    accept: req.getHeader('accept'),
    host: req.getHeader('host'),
  };
}

/** The TCP peer's address as text (uWS: only before the handler first returns). */
export function remoteAddress(res: HttpResponse): string {
  return Buffer.from(res.getRemoteAddressAsText()).toString('latin1');
}

/** Copies the named headers (uWS: only before the handler first returns). */
export function copyHeaders(req: HttpRequest, names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = req.getHeader(name);
    if (value !== '') out[name] = value;
  }
  return out;
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

/**
 * uWS closes a connection idle for its 10 s timeout, counted in 4 s ticks: 8–12 s after the
 * last response (framing.test.ts). A client keeping it longer (undici's pools 4 s by default,
 * more when told) may send its next request just as the close goes out and read ECONNRESET.
 * The hint, Node's own server's default, makes undici (hint − 2 s) and Node's agent drop an
 * idle connection well before the server does.
 */
const KEEP_ALIVE = 'timeout=5';

/** One response. Created synchronously in the uWS handler so `onAborted` is attached first. */
export class Reply {
  /** True once the response was written or the client went away. */
  done = false;
  aborted = false;
  status = 0;
  /** The problem code of a refusal, for the console's error titles. */
  title: string | undefined;
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
      if (!closeConnection) this.res.writeHeader('keep-alive', KEEP_ALIVE);
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
    this.title = doc.title;
    this.problemExtras?.(doc);
    this.send(doc.status, { 'content-type': PROBLEM_CONTENT_TYPE, ...headers }, JSON.stringify(doc), closeConnection);
  }

  /**
   * The raw body under `cap`. Call it synchronously in the handler, before any await: uWS
   * delivers body chunks only to an `onData` attached before the handler returns.
   */
  body(cap: number): Promise<Buffer> {
    return readBody(this.res, this, cap);
  }

  /**
   * Starts a streamed response (server-sent events): status and headers now, then `write`
   * chunks as they come and `end` once. Writes after the client left are dropped. uWS buffers
   * what the socket cannot take yet; streams here carry small events, so no back-pressure wait.
   */
  stream(status: number, headers: Record<string, string>): { write(chunk: Uint8Array | string): void; end(): void } {
    if (this.done) return { write: () => undefined, end: () => undefined };
    this.done = true;
    this.status = status;
    this.res.cork(() => {
      this.res.writeStatus(statusLine(status));
      for (const name in headers) this.res.writeHeader(name, headers[name]);
    });
    let ended = false;
    return {
      write: (chunk) => {
        if (this.aborted || ended) return;
        this.res.cork(() => this.res.write(chunk));
      },
      end: () => {
        if (this.aborted || ended) return;
        ended = true;
        this.res.cork(() => this.res.end());
      },
    };
  }

  /** 401 has an empty body (spec 5.2). */
  unauthorized(challenge = 'Bearer realm="gleaner"'): void {
    this.send(401, { 'www-authenticate': challenge }, '');
  }

  /**
   * Refuses a request found defective while copying it (ambiguous framing, 414, 431), and
   * closes the connection. Nothing sent after it on the connection may run.
   *
   * The answer leaves on the next turn of the event loop, never inside the handler: uWS parses
   * every request of one read before any of them is answered, and a response ended inside the
   * handler does not stop it, so a request pipelined behind this one (or smuggled in by a
   * conflicting Content-Length) would run and be charged. Left pending, this response makes
   * uWS close the connection when it meets such a request (HttpContext: a request while one is
   * pending closes the socket): nothing after the refused request runs, and that client gets
   * the close without the answer. A client that sent nothing more gets the answer, then the
   * close. `done` runs once answered (or once the connection is gone).
   */
  refuse(defect: HeadDefect, requestId: string, done: () => void): void {
    setImmediate(() => {
      this.problem(defect.code, { requestId, detail: defect.detail }, {}, true);
      done();
    });
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
