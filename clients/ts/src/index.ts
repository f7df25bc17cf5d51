/** @gleaner/client: a typed client of the Gleaner Web API, generated from its route registry. */
export { Gleaner, GleanerJobError, type BatchOutcome, type CallOptions, type DoneJob, type GleanerOptions, type JobResult, type Page, type ScrapeResult, type WaitOptions } from './client.js';
export { DEFAULT_RETRY, GleanerApiError, retryable, type RetryPolicy } from './retry.js';
export { parseWebhook, verifyWebhook, SIGNATURE_HEADER, type VerifyOptions, type WebhookPayload } from './webhook.js';
export * from './generated.js';
