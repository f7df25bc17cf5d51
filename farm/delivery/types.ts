/**
 * The outcome of one delivery attempt (a webhook POST or a bucket PUT). Plain data: the
 * outbox stores `error` on the job's delivery record and uses `retry`/`retryAfterMs` to
 * schedule the next attempt (backoff.ts `decideRetry`). Transports never throw for a failed
 * delivery; a throw is a bug.
 */
export type AttemptResult =
  | {
      ok: true;
      /** HTTP status the receiver or bucket answered. */
      status: number;
      /** Bucket uploads: the object's URL (`endpoint/bucket/key` or virtual-hosted). */
      location?: string;
      /** File uploads (`uploadFile`): the object key written. */
      key?: string;
    }
  | {
      ok: false;
      /** Whether another attempt may succeed (network error, 5xx, 408, 429). */
      retry: boolean;
      /** One line for the job record; never contains credentials or signatures. */
      error: string;
      /** The HTTP status, when the other side answered. */
      status?: number;
      /** The receiver's `Retry-After`, in ms from now. */
      retryAfterMs?: number;
    };

export interface AttemptOptions {
  /** Aborts the attempt (shutdown). An aborted attempt is reported as retryable. */
  signal?: AbortSignal;
  /** Whole-attempt deadline: connect, request, response headers and the (capped) body. */
  timeoutMs?: number;
  /** `GLEANER_ALLOW_PRIVATE`: when false, loopback/private/link-local/metadata hosts are refused. */
  allowPrivate?: boolean;
}

export const DEFAULT_ATTEMPT_TIMEOUT_MS = 30_000;
