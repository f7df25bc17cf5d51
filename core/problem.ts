/**
 * RFC 9457 problem documents, built here and nowhere else. Handlers raise codes; this module
 * turns a code (plus field errors, params or state) into the body the caller sees.
 */
import { ERROR_CODES, shownCode, type ErrorCode, type FieldError, type ProblemTitle, type WireError } from './errors.js';
import { newId } from './ids.js';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export interface ProblemDocument {
  type: string;
  title: ProblemTitle;
  status: number;
  detail: string;
  instance: string;
  metadata: { request_id: string; timestamp: number };
  errors?: FieldError[];
  params?: Record<string, unknown>;
  state?: 'faulted';
  [extension: string]: unknown;
}

export interface ProblemOptions {
  detail?: string;
  /** The request path or job handle the problem concerns; defaults to the request id. */
  instance?: string;
  requestId?: string;
  errors?: FieldError[];
  params?: Record<string, unknown>;
  state?: 'faulted';
  /** Extra members for the document (RFC 9457 extensions), e.g. `{ allow: [...] }`. */
  extensions?: Record<string, unknown>;
}

const TYPES = new Map<ErrorCode, string>();

/** The stable identifier of a code's problem type, documented in the README. */
export function problemType(code: ErrorCode): string {
  let type = TYPES.get(code);
  if (type === undefined) TYPES.set(code, (type = `urn:gleaner:problem:${code.toLowerCase().replace(/_/g, '-')}`));
  return type;
}

/**
 * The document for `code`. An internal code (`shownAs` in the table) is shown as the documented
 * code it maps to, so no title outside the documented table can leave the service.
 */
export function buildProblem(raised: ErrorCode, opts: ProblemOptions = {}): ProblemDocument {
  const code = shownCode(raised);
  const spec = ERROR_CODES[code];
  const requestId = opts.requestId ?? newId();
  const doc: ProblemDocument = {
    type: problemType(code),
    title: code,
    status: spec.status,
    detail: opts.detail ?? spec.detail,
    instance: opts.instance ?? `urn:gleaner:request:${requestId}`,
    metadata: { request_id: requestId, timestamp: Math.floor(Date.now() / 1000) },
  };
  if (opts.errors) doc.errors = opts.errors;
  if (opts.state) doc.state = opts.state;
  if (opts.params) doc.params = opts.params;
  if (opts.extensions) Object.assign(doc, opts.extensions);
  return doc;
}

/** A problem document from a wire error (a worker's failure, a stored job's error). */
export function problemFromWire(err: WireError, opts: Omit<ProblemOptions, 'detail'> = {}): ProblemDocument {
  const fieldErrors = err.data?.errors;
  // Members a raiser adds to its problem (a quota's limit and reset time), under `data.extensions`.
  const raised = err.data?.extensions;
  const extensions = raised && typeof raised === 'object' ? { ...(raised as Record<string, unknown>), ...opts.extensions } : opts.extensions;
  // INTERNAL_ERROR never carries the original message: it may name files, hosts or secrets —
  // unless its raiser wrote it for the caller (`data.publicDetail`, e.g. a job given up after
  // GLEANER_JOB_MAX_STARTS). An internal code shown as a documented one keeps its message as the
  // cause in `detail`.
  // (Built without object spreads: this runs for every refused request.)
  const full: ProblemOptions = {
    detail: shownCode(err.code) === 'INTERNAL_ERROR' && err.data?.publicDetail !== true ? ERROR_CODES.INTERNAL_ERROR.detail : err.message,
    instance: opts.instance,
    requestId: opts.requestId,
    errors: Array.isArray(fieldErrors) ? (fieldErrors as FieldError[]) : opts.errors,
    params: opts.params,
    state: opts.state,
    extensions,
  };
  return buildProblem(err.code, full);
}
