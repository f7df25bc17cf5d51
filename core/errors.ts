/**
 * The closed table of error codes. Every failure the service reports is one of these codes;
 * its HTTP status and what the runtime does about it (retry the attempt, fail the job, stop
 * the component) are facts of the code, not of the place that raised it.
 *
 * Errors cross thread boundaries as data (`WireError`), never as class instances: a worker
 * throws a `GleanerError`, the pool side receives `{code, message, data}` and rebuilds it.
 */

/** What the runtime does when it meets the error. */
export type Disposition =
  /** Transient: the same work may succeed on another attempt (another proxy, a new browser). */
  | 'retry'
  /** Final for this request or job: report it, do not try again. */
  | 'fail'
  /** The component is unusable (store closed, worker corrupt): stop taking work. */
  | 'stop';

interface CodeSpec {
  readonly status: number;
  readonly disposition: Disposition;
  /** The default `detail` when the raiser gives none. */
  readonly detail: string;
  /** Whether a failed job with this code is charged (spec 3: faulted work is not). */
  readonly charged?: boolean;
  /**
   * Internal codes never reach a client as a problem `title`: a problem document built from
   * one carries this documented code instead (its cause stays in `detail`).
   */
  readonly shownAs?: string;
}

export const ERROR_CODES = {
  VALIDATION_ERROR: { status: 400, disposition: 'fail', detail: 'One or more parameters failed validation.' },
  MALFORMED_JSON: { status: 400, disposition: 'fail', detail: 'The request body is not valid JSON.' },
  /** RFC 9112 6.3: the message framing is ambiguous; the answer closes the connection. */
  MALFORMED_REQUEST: {
    status: 400,
    disposition: 'fail',
    detail: 'The request framing is invalid (duplicate or conflicting Content-Length, or Transfer-Encoding other than one chunked); the connection is closed.',
  },
  TARGET_FORBIDDEN: {
    status: 400,
    disposition: 'fail',
    detail: 'The target address is not allowed (private, loopback, link-local or metadata address, or a scheme other than http/https).',
  },
  LOCATION_UNAVAILABLE: { status: 400, disposition: 'fail', detail: 'No proxy pool serves the requested location.' },
  /** 401 answers have an empty body (spec 5.2); raising this code instead is a bug. */
  UNAUTHORIZED: { status: 401, disposition: 'fail', detail: 'Missing, invalid or revoked credentials.', shownAs: 'INTERNAL_ERROR' },
  FORBIDDEN: { status: 403, disposition: 'fail', detail: 'This account is not entitled to this route.' },
  NOT_FOUND: { status: 404, disposition: 'fail', detail: 'No such route or job.' },
  METHOD_NOT_ALLOWED: { status: 405, disposition: 'fail', detail: 'This method is not allowed on this route.' },
  REQUEST_FAILED_SCRAPE_TIMEOUT: {
    status: 408,
    disposition: 'fail',
    detail: 'The scrape did not finish within the synchronous deadline; retry with backoff or use the async route.',
  },
  UPGRADE_REQUIRED: { status: 426, disposition: 'fail', detail: 'This route is a WebSocket: send an upgrade request.' },
  PAYLOAD_TOO_LARGE: { status: 413, disposition: 'fail', detail: 'The request body or batch is too large.' },
  URI_TOO_LONG: { status: 414, disposition: 'fail', detail: 'The request target (path and query) is too long.' },
  HEADERS_TOO_LARGE: { status: 431, disposition: 'fail', detail: 'The request has too many header fields, or they are too large.' },
  TOO_MANY_REQUESTS: {
    status: 429,
    disposition: 'retry',
    detail: 'The account concurrency limit is reached; retry with jittered backoff.',
  },
  QUOTA_EXCEEDED: { status: 429, disposition: 'fail', detail: 'The account quota is exhausted.' },
  REQUEST_FAILED_AFTER_MANY_RETRIES: {
    status: 500,
    disposition: 'fail',
    detail: 'Every attempt to fetch the target failed.',
  },
  /** An upstream answer or network failure on one attempt; retried, then REQUEST_FAILED_AFTER_MANY_RETRIES. */
  UPSTREAM_FAILED: { status: 500, disposition: 'retry', detail: 'The upstream request failed.', shownAs: 'REQUEST_FAILED_AFTER_MANY_RETRIES' },
  /** Chromium crashed or disconnected while holding the page; retried once on a new browser. */
  BROWSER_CRASHED: { status: 500, disposition: 'retry', detail: 'The browser crashed while rendering the page.', shownAs: 'REQUEST_FAILED_AFTER_MANY_RETRIES' },
  RESPONSE_TOO_LARGE: { status: 500, disposition: 'fail', detail: 'The upstream response exceeds the size cap.' },
  EXTRACTION_FAILED: {
    status: 500,
    disposition: 'fail',
    detail: 'Custom extraction failed.',
    charged: true,
  },
  LLM_NOT_CONFIGURED: {
    status: 501,
    disposition: 'fail',
    detail: 'Extraction by prompt needs a language model: set GLEANER_LLM_URL (and GLEANER_LLM_MODEL, GLEANER_LLM_KEY as the endpoint requires).',
  },
  /** A dedicated route whose target has no upstream in GLEANER_TARGETS on this server; refused before anything is queued. */
  TARGET_NOT_CONFIGURED: {
    status: 501,
    disposition: 'fail',
    detail: 'This route\'s upstream is not configured on this server: its target needs a baseUrl in the GLEANER_TARGETS file.',
  },
  /** A media download (`media/video/download`) needs ffmpeg and ffprobe, and this node has none that runs. */
  FFMPEG_NOT_AVAILABLE: {
    status: 501,
    disposition: 'fail',
    detail: 'Media downloads need ffmpeg and ffprobe on the server: install them (Debian/Ubuntu: apt-get install ffmpeg) or set GLEANER_FFMPEG to the ffmpeg binary.',
  },
  /**
   * The page offers no stream the service can fetch as it is: every matching format needs a
   * signature or token computed by the platform's player script (or is DRM-protected), none
   * matches the request, or none is listed (live, private, removed). `data.reason` says which.
   * Not retried: another attempt gets the same page; not charged (nothing was delivered).
   */
  MEDIA_NOT_DOWNLOADABLE: {
    status: 422,
    disposition: 'fail',
    detail: 'The media cannot be downloaded: its streams need a signature or token the service cannot produce, or none matches the request.',
  },
  /** A webhook or bucket delivery failed; recorded on the job, never answered to a request. */
  DELIVERY_FAILED: { status: 502, disposition: 'retry', detail: 'The result could not be delivered.', shownAs: 'INTERNAL_ERROR' },
  INTERNAL_ERROR: { status: 500, disposition: 'fail', detail: 'An internal error occurred.' },
  SERVICE_UNAVAILABLE: { status: 503, disposition: 'retry', detail: 'The service is starting or draining; retry shortly.' },
} as const satisfies Record<string, CodeSpec>;

export type ErrorCode = keyof typeof ERROR_CODES;

type Shown<C extends ErrorCode> = (typeof ERROR_CODES)[C] extends { shownAs: infer S } ? S : C;

/** The codes a problem document's `title` can carry: the documented table (README, OpenAPI). */
export type ProblemTitle = { [C in ErrorCode]: Shown<C> }[ErrorCode];

/** The code a client sees for `code` (itself, or the documented code an internal one maps to). */
export function shownCode(code: ErrorCode): ProblemTitle {
  const spec: CodeSpec = ERROR_CODES[code];
  return (spec.shownAs ?? code) as ProblemTitle;
}

// Every `shownAs` names a code of this table.
const shownAsAreCodes: ProblemTitle extends ErrorCode ? true : never = true;
void shownAsAreCodes;

/** Every documented problem title, in table order. */
export const PROBLEM_TITLES: readonly ProblemTitle[] = (Object.keys(ERROR_CODES) as ErrorCode[]).filter(
  (code): code is ProblemTitle => !(ERROR_CODES[code] as CodeSpec).shownAs,
);

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ERROR_CODES, value);
}

export function statusOf(code: ErrorCode): number {
  return ERROR_CODES[code].status;
}

export function dispositionOf(code: ErrorCode): Disposition {
  return ERROR_CODES[code].disposition;
}

/** One failing field of a validation error: a JSON Pointer into the request body. */
export interface FieldError {
  pointer: string;
  detail: string;
}

/** The shape in which errors cross threads and are stored on jobs. */
export interface WireError {
  code: ErrorCode;
  message: string;
  data?: Record<string, unknown>;
}

export class GleanerError extends Error {
  readonly code: ErrorCode;
  readonly data: Record<string, unknown> | undefined;

  /**
   * `options.cause`: the error this one stands for (a socket error, a library's failure), kept
   * for logs; it never reaches a problem document. The global `Error.stackTraceLimit` is left
   * alone (another module's errors, or another library's, must not lose their stacks because
   * this constructor ran at the wrong moment); a refused request's stack costs a few µs.
   */
  constructor(code: ErrorCode, message?: string, data?: Record<string, unknown>, options?: { cause?: unknown }) {
    super(message ?? ERROR_CODES[code].detail, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'GleanerError';
    this.code = code;
    this.data = data;
  }

  get status(): number {
    return statusOf(this.code);
  }

  get disposition(): Disposition {
    return dispositionOf(this.code);
  }

  toWire(): WireError {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }

  static fromWire(wire: WireError): GleanerError {
    return new GleanerError(isErrorCode(wire.code) ? wire.code : 'INTERNAL_ERROR', wire.message, wire.data);
  }
}

/**
 * Any thrown value as wire data. Unknown errors become INTERNAL_ERROR with a generic message:
 * their text may carry paths or secrets and never reaches a caller.
 */
export function toWireError(err: unknown): WireError {
  if (err instanceof GleanerError) return err.toWire();
  if (err && typeof err === 'object' && isErrorCode((err as { code?: unknown }).code)) {
    const e = err as { code: ErrorCode; message?: unknown; data?: unknown };
    return {
      code: e.code,
      message: typeof e.message === 'string' ? e.message : ERROR_CODES[e.code].detail,
      ...(e.data && typeof e.data === 'object' ? { data: e.data as Record<string, unknown> } : {}),
    };
  }
  return { code: 'INTERNAL_ERROR', message: ERROR_CODES.INTERNAL_ERROR.detail };
}
