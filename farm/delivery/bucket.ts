/**
 * Bucket delivery: one signed PUT of the job's result (spec 2.1 `storage`, spec 6.3) through
 * each vendor's S3-interoperable API — S3, S3-compatible stores, TOS's S3 endpoint, and the
 * GCS XML API with HMAC keys — all signed with SigV4 (sigv4.ts). `s3_gzip` writes the gzipped
 * JSON with `Content-Encoding: gzip`. A media download's file is streamed from disk under its
 * own extension (`uploadFile`). Credentials come from operator config (config.ts).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { promisify } from 'node:util';
import { gzip as gzipCb } from 'node:zlib';
import { bindingAllows, bindingRefusal } from './binding.js';
import { parseBucketUrl, objectLocation } from './bucket-url.js';
import { isStorageType, type BucketCredentials } from './config.js';
import { classifyAnswer, send, type OutboundRequest } from './http.js';
import { sha256Hex, signV4 } from './sigv4.js';
import type { AttemptOptions, AttemptResult } from './types.js';

const gzip = promisify(gzipCb);

/** Store error codes that another attempt may get past, whatever the HTTP status says. */
const RETRYABLE_CODES = new Set(['RequestTimeout', 'SlowDown', 'InternalError', 'ServiceUnavailable', 'OperationAborted']);

export interface UploadOptions extends AttemptOptions {
  /** The job whose result this is: it names the object (`<prefix>/<job_id>.json`). */
  jobId: string;
  /** The job's account: the credentials' `buckets` binding must allow it (binding.ts). */
  clientId: number;
  /** Signing time; default now. Tests may fix it. */
  now?: Date;
}

export interface StorageSpec {
  type: string;
  url: string;
}

/** `<Code>` and `<Message>` of an S3-style XML error body, as `Code: message`. */
function storeError(body: Buffer): string {
  const text = body.toString('utf8');
  const code = /<Code>([^<]{1,100})<\/Code>/.exec(text)?.[1];
  const message = /<Message>([^<]{1,300})<\/Message>/.exec(text)?.[1];
  if (!code) return '';
  return message ? `${code}: ${message}` : code;
}

/**
 * PUTs `body` (the job's result JSON) to the bucket named by `storage`. Never throws:
 * malformed URLs, missing credentials and refusals are final failures (`retry: false`);
 * network errors, timeouts, 5xx, 408, 429 and throttling codes are retryable.
 */
export async function uploadResult(
  storage: StorageSpec,
  body: Buffer | string,
  creds: BucketCredentials | undefined,
  options: UploadOptions,
): Promise<AttemptResult> {
  const raw = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  // Compression runs on the libuv pool, not the main thread (results can be megabytes).
  const payload = storage.type === 's3_gzip' ? await gzip(raw) : raw;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (storage.type === 's3_gzip') headers['content-encoding'] = 'gzip';
  return put(storage, creds, options, undefined, { headers, hash: sha256Hex(payload), body: payload });
}

/** A file to upload as it is (a media download): streamed from disk, never read into memory. */
export interface UploadFile {
  path: string;
  size: number;
  /** Hex SHA-256 of the file (`fileSha256`): signed, so the store refuses a damaged upload. */
  sha256: string;
  contentType: string;
  /** Names the object `<prefix>/<job_id>.<extension>`. */
  extension: string;
}

/**
 * PUTs a file to the bucket named by `storage` as `<prefix>/<job_id>.<extension>`, streamed
 * from disk with its length and real SHA-256 signed. Every type stores the bytes as they are
 * (`s3_gzip` included: media is compressed already). Outcomes as `uploadResult`'s; a success
 * carries the object key.
 */
export function uploadFile(storage: StorageSpec, file: UploadFile, creds: BucketCredentials | undefined, options: UploadOptions): Promise<AttemptResult> {
  const headers = { 'content-type': file.contentType, 'content-length': String(file.size) };
  return put(storage, creds, options, file.extension, { headers, hash: file.sha256, body: () => createReadStream(file.path) });
}

/** Hex SHA-256 of a file, read as a stream. */
export async function fileSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

interface Payload {
  headers: Record<string, string>;
  hash: string;
  body: OutboundRequest['body'];
}

async function put(storage: StorageSpec, creds: BucketCredentials | undefined, options: UploadOptions, extension: string | undefined, payload: Payload): Promise<AttemptResult> {
  if (!isStorageType(storage.type)) {
    return { ok: false, retry: false, error: `unknown storage type ${JSON.stringify(storage.type)}` };
  }
  if (!creds) {
    return { ok: false, retry: false, error: `no credentials configured for storage type ${storage.type} (operator setting GLEANER_STORAGE)` };
  }
  const parsed = parseBucketUrl(storage.type, storage.url, options.jobId, creds, extension);
  if (!parsed.ok) return { ok: false, retry: false, error: parsed.error };
  const target = parsed.target;
  // Checked at submit too; again here for jobs queued before a reload narrowed the binding.
  if (!bindingAllows(creds.buckets, options.clientId, target)) return { ok: false, retry: false, error: bindingRefusal(storage.type, options.clientId, target) };
  const { url, host, path } = objectLocation(target);
  if (url.pathname !== path) {
    return { ok: false, retry: false, error: 'storage.url prefix cannot be sent unambiguously as an object key' };
  }
  const signed = signV4({
    method: 'PUT',
    host,
    path,
    headers: payload.headers,
    payloadHash: payload.hash,
    region: target.region,
    service: 's3',
    credentials: creds,
    date: options.now ?? new Date(),
  });

  const res = await send(
    { method: 'PUT', url, headers: signed, body: payload.body },
    // Operator-configured and vendor endpoints are trusted; request-chosen ones are guarded.
    { ...options, allowPrivate: options.allowPrivate === true || !target.endpointFromRequest },
  );
  if (!res.ok) return res;
  const detail = res.status >= 300 ? storeError(res.body) : '';
  const result = classifyAnswer(res.status, res.headers, `${storage.type} bucket`, detail);
  if (result.ok) return { ok: true, status: result.status, location: url.href, ...(extension ? { key: target.key } : {}) };
  const code = detail.split(':')[0] ?? '';
  if (!result.retry && RETRYABLE_CODES.has(code)) return { ...result, retry: true };
  return result;
}
