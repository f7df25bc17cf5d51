/** @gleaner/client: a typed client of the Gleaner Web API, generated from its route registry. */
export {
  Gleaner,
  GleanerJobError,
  type BatchOutcome,
  type BatchSubmittedTo,
  type CallOptions,
  type DoneJob,
  type GleanerOptions,
  type JobId,
  type JobResult,
  type Page,
  type ScrapeResult,
  type Submitted,
  type WaitOptions,
} from './client.js';
export { DEFAULT_RETRY, GleanerApiError, GleanerHttpError, retryable, type RetryPolicy } from './retry.js';
export { parseWebhook, verifyWebhook, SIGNATURE_HEADER, type VerifyOptions } from './webhook.js';
export * from './generated.js';
