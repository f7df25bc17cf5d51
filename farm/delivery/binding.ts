/**
 * Which buckets each account may write with the operator's credentials (issue 24 item 2).
 *
 * `storage.url` is the caller's, the signing keys are the operator's: without a binding any key
 * holder could write into any bucket those keys reach. Every `GLEANER_STORAGE` entry therefore
 * carries `buckets`, client id (or `*` for every account) → the buckets and prefixes it may
 * write:
 *
 *   "s3": { ..., "buckets": { "*": ["shared-exports/all"], "7": ["acme-results", "shared-exports/acme"] } }
 *
 * `"bucket"` allows every object of the bucket; `"bucket/prefix"` only objects under `prefix/`;
 * `"*"` any bucket (single-tenant installs, said explicitly). The gateway checks it before a job
 * is accepted (403 FORBIDDEN, nothing queued or charged); the uploader checks it again before it
 * signs (a job queued before a reload narrowed the binding fails its delivery instead).
 */
import { parseBucketUrl, type BucketTarget } from './bucket-url.js';
import { credentialsFor, isStorageType, type BucketBindings, type BucketCredentials, type DeliveryConfig } from './config.js';

function allows(entry: string, target: Pick<BucketTarget, 'bucket' | 'key'>): boolean {
  if (entry === '*') return true;
  const slash = entry.indexOf('/');
  if (slash < 0) return entry === target.bucket;
  return entry.slice(0, slash) === target.bucket && target.key.startsWith(`${entry.slice(slash + 1)}/`);
}

/** Whether `clientId` may write the object `target` with credentials bound by `buckets`. */
export function bindingAllows(buckets: BucketBindings, clientId: number, target: Pick<BucketTarget, 'bucket' | 'key'>): boolean {
  const entries = [...(buckets['*'] ?? []), ...(buckets[String(clientId)] ?? [])];
  return entries.some((entry) => allows(entry, target));
}

/** The refusal text for a bucket an account may not write. */
export function bindingRefusal(type: string, clientId: number, target: Pick<BucketTarget, 'bucket' | 'key'>): string {
  const prefix = target.key.includes('/') ? target.key.slice(0, target.key.lastIndexOf('/')) : '';
  const entry = type === 's3_gzip' ? 's3' : type;
  return `storage.url names bucket ${JSON.stringify(target.bucket)}${prefix ? ` and prefix ${JSON.stringify(prefix)}` : ''}, which account ${clientId} may not write with the operator's ${entry} credentials (GLEANER_STORAGE ${entry}.buckets)`;
}

/**
 * Why `clientId` may not deliver to `storage`, or undefined when it may — or when this cannot be
 * told before the job runs (unknown type, no credentials, a malformed URL: the delivery then
 * fails with its own error, spec 2.1).
 */
export function storageRefusal(config: DeliveryConfig, clientId: number, storage: unknown): string | undefined {
  if (!storage || typeof storage !== 'object') return undefined;
  const { type, url } = storage as { type?: unknown; url?: unknown };
  if (!isStorageType(type)) return undefined;
  const creds: BucketCredentials | undefined = credentialsFor(config, type);
  if (!creds) return undefined;
  // The object name does not matter for the check; its prefix does.
  const parsed = parseBucketUrl(type, url, '0', creds);
  if (!parsed.ok) return undefined;
  return bindingAllows(creds.buckets, clientId, parsed.target) ? undefined : bindingRefusal(type, clientId, parsed.target);
}
