/**
 * Delivery transports (issue 4): signed webhooks and bucket uploads, plus the retry timing the
 * outbox applies between attempts. Pure transports: they make one attempt and report it; the
 * durable outbox (LMDB) and its dispatcher decide when to call them again.
 */
export { postWebhook, signBody, verifySignature, newWebhookSecret } from './webhook.js';
export {
  SIGNATURE_HEADER,
  EVENT_HEADER,
  DELIVERY_HEADER,
  SIGNATURE_TOLERANCE_SEC,
  type WebhookEvent,
  type WebhookOptions,
} from './webhook.js';
export { webhookPayload, webhookBody, type WebhookPayload, type PayloadInput } from './payload.js';
export { uploadResult, uploadFile, fileSha256, type UploadOptions, type UploadFile, type StorageSpec } from './bucket.js';
export { parseBucketUrl, objectKey, type BucketTarget, type ParsedBucketUrl } from './bucket-url.js';
export {
  loadDeliveryConfig,
  parseDeliveryConfig,
  credentialsFor,
  isStorageType,
  STORAGE_TYPES,
  type StorageType,
  type BucketCredentials,
  type DeliveryConfig,
} from './config.js';
export {
  nextAttemptDelay,
  decideRetry,
  fastRetryPolicy,
  DEFAULT_RETRY_POLICY,
  type BackoffOptions,
  type RetryPolicy,
  type RetryDecision,
} from './backoff.js';
export { closeDeliveryAgents } from './http.js';
export { bindingAllows, storageRefusal } from './binding.js';
export { isForbiddenAddress } from '../net/addresses.js';
export type { AttemptResult, AttemptOptions } from './types.js';
