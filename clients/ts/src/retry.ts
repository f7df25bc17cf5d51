/**
 * Retries as the interface spec's retry column says: 408, 429 from the concurrency limit, and
 * 5xx are retried with full-jitter exponential backoff (a `Retry-After` is honoured as a
 * floor); every other 4xx — and 429 `QUOTA_EXCEEDED`, and 501 `LLM_NOT_CONFIGURED`, which no
 * retry can fix — fails at once. Network errors (no answer at all) are retried too.
 */
import type { ErrorCode, Problem } from './generated.js';

export interface RetryPolicy {
  /** Tries in all, the first included (1 = no retry). Default 4. */
  attempts: number;
  /** Ceiling of the first backoff (ms); it doubles per retry. Default 500. */
  baseMs: number;
  /** Largest backoff ceiling (ms). Default 30,000. */
  maxMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseMs: 500, maxMs: 30_000 };

/**
 * Any answer of the API that is not a success: its HTTP status, and its problem document when
 * the body was one. Every non-2xx answer of Gleaner but 401 (an empty body, spec 5.2) carries
 * one; a proxy in between may answer without. Catch this class to catch every refusal.
 */
export class GleanerHttpError extends Error {
  readonly status: number;
  readonly problem: Problem | undefined;
  /** The problem's `title`, the code to branch on. */
  readonly code: ErrorCode | undefined;

  constructor(status: number, problem: Problem | undefined, message?: string) {
    super(message ?? (problem ? `${problem.title}: ${problem.detail}` : `HTTP ${status}${status === 401 ? ' (missing, invalid or revoked key)' : ''}`));
    this.name = 'GleanerHttpError';
    this.status = status;
    this.problem = problem;
    this.code = problem?.title;
  }
}

/** A refusal or failure the server explained with a problem document: `problem` and `code` are always there. */
export class GleanerApiError extends GleanerHttpError {
  declare readonly problem: Problem;
  declare readonly code: ErrorCode;

  constructor(status: number, problem: Problem, message?: string) {
    super(status, problem, message);
    this.name = 'GleanerApiError';
  }
}

/** Whether an answer may succeed when sent again (spec part 7, retry column). */
export function retryable(status: number, code: string | undefined): boolean {
  if (status === 408) return true;
  if (status === 429) return code !== 'QUOTA_EXCEEDED';
  return status >= 500 && status !== 501;
}

/** Full jitter: a uniform wait in [0, min(maxMs, baseMs * 2^retry)], at least `floorMs`. */
export function backoffMs(retry: number, policy: RetryPolicy, floorMs = 0, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** retry);
  return Math.max(floorMs, Math.floor(random() * ceiling));
}

/** `Retry-After` as milliseconds (seconds or an HTTP date), or 0. */
export function retryAfterMs(header: string | null, now = Date.now()): number {
  if (!header) return 0;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? 0 : Math.max(0, at - now);
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
