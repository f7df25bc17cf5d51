/**
 * One HTTP exchange on an undici dispatcher through `dispatch()` and a small handler, without
 * undici's `request()` layer: no Readable body stream, no async iterator, no AsyncResource and
 * no AbortSignal listener per request. The body is collected into one Buffer under the size cap.
 *
 * Settles once: with the response (status, the headers the fetcher reads, body), or with the
 * error that ended it (the abort's reason, a cap overrun, undici's own error). The handler is
 * a class, not closures: this runs once per page and every closure here was measurable.
 */
import type { Dispatcher } from 'undici';
import type { Abortable } from '../worker/abort.js';

export interface ExchangeRequest {
  origin: string;
  path: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body: string | undefined;
  abort: Abortable;
  /** Body bytes above this end the exchange with `tooLarge()` (declared or received). */
  maxBytes: number;
  tooLarge: () => Error;
}

export interface ExchangeResponse {
  status: number;
  location: string | undefined;
  contentType: string;
  /** The response headers as undici gave them (lower-case names); read by flows and cookie jars. */
  headers: RawHeaders;
  /** Empty for a redirect (its body is drained, not kept). */
  body: Buffer;
}

export type RawHeaders = Record<string, string | string[] | undefined>;

/** A redirect's body larger than this is not drained: the connection is dropped instead. */
const REDIRECT_DRAIN_MAX = 128 * 1024;
const EMPTY = Buffer.alloc(0);

export function exchange(dispatcher: Dispatcher, req: ExchangeRequest): Promise<ExchangeResponse> {
  return new Promise<ExchangeResponse>((resolve, reject) => {
    const handler = new Exchange(req, resolve, reject);
    if (handler.done) return;
    dispatcher.dispatch(
      { origin: req.origin, path: req.path, method: req.method, headers: req.headers, body: req.body ?? null, headersTimeout: 60_000, bodyTimeout: 60_000 },
      handler,
    );
  });
}

class Exchange implements Dispatcher.DispatchHandler {
  done = false;
  private controller: Dispatcher.DispatchController | undefined;
  /** An abort that came before undici handed us the controller. */
  private pending: Error | undefined;
  private status = 0;
  private location: string | undefined;
  private contentType = '';
  private headers: RawHeaders = {};
  /** A redirect: its body is drained so the connection stays reusable, then dropped. */
  private redirect = false;
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private unhook: (() => void) | undefined;

  constructor(
    private readonly req: ExchangeRequest,
    private readonly resolve: (res: ExchangeResponse) => void,
    private readonly reject: (err: unknown) => void,
  ) {
    if (req.abort.aborted) this.fail(asError(req.abort.reason));
    else this.unhook = req.abort.onAbort(() => this.fail(asError(req.abort.reason)));
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.pending) controller.abort(this.pending);
  }

  onResponseStart(_c: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
    if (statusCode < 200 || this.done) return; // 1xx: informational, the real head follows
    this.status = statusCode;
    this.location = first(headers.location);
    this.contentType = first(headers['content-type']) ?? '';
    this.headers = headers;
    this.redirect = statusCode >= 300 && statusCode < 400 && this.location !== undefined;
    const declared = Number(first(headers['content-length']) ?? NaN);
    if (!this.redirect && declared > this.req.maxBytes) this.fail(this.req.tooLarge());
  }

  onResponseData(_c: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.done) return;
    this.size += chunk.length;
    if (this.redirect) {
      if (this.size > REDIRECT_DRAIN_MAX) {
        this.settle(undefined);
        this.controller?.abort(new Error('redirect body not read'));
      }
      return;
    }
    if (this.size > this.req.maxBytes) return this.fail(this.req.tooLarge());
    this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    this.settle(undefined);
  }

  onResponseError(_c: Dispatcher.DispatchController, err: Error): void {
    this.settle(err);
  }

  /** Ends the exchange with `err` now; undici then reports the abort to onResponseError (ignored). */
  private fail(err: Error): void {
    if (this.done) return;
    if (this.controller) this.controller.abort(err);
    else this.pending = err;
    this.settle(err);
  }

  private settle(err: Error | undefined): void {
    if (this.done) return;
    this.done = true;
    this.unhook?.();
    if (err) return this.reject(err);
    const { chunks } = this;
    const body = this.redirect ? EMPTY : chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, this.size);
    this.resolve({ status: this.status, location: this.location, contentType: this.contentType, headers: this.headers, body });
  }
}

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function asError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error(String(reason));
}
