/**
 * Worker side: a media step's file → the job's bucket → the page's result. The file is streamed
 * to `storage` with the delivery uploader (farm/delivery `uploadFile`: SigV4, real payload hash,
 * the operator's GLEANER_STORAGE credentials) as `<prefix>/<job_id>.<ext>`, retried a few times
 * within the task's deadline; the result JSON names the object, never carries the media. The
 * temp folder is removed whatever happens (uploaded, failed, aborted).
 *
 * The upload runs here rather than in the outbox because the file lives in this worker's temp
 * folder for the length of the task only; the job then records the storage delivery as done
 * (core/store/jobs.ts `finish` with `stored`) instead of queuing the JSON upload.
 */
import { rm } from 'node:fs/promises';
import { GleanerError } from '../../core/errors.js';
import type { PageResult, StoredMedia } from '../../core/wire.js';
import { credentialsFor, fileSha256, isStorageType, parseDeliveryConfig, uploadFile, type AttemptResult, type StorageSpec } from '../delivery/index.js';
import type { TaskMessage } from '../messages.js';
import type { TaskAbort } from './abort.js';
import type { WorkerEnv } from './env.js';
import type { FlowRun } from './flow.js';
import type { MediaFile } from './media-step.js';

/** Upload attempts within the task (network errors, 5xx, 429, throttling). */
const UPLOAD_ATTEMPTS = 3;
const UPLOAD_BACKOFF_MS = 500;
/** The least time an upload attempt is given, even close to the deadline. */
const MIN_UPLOAD_MS = 30_000;

const CONTENT_TYPES: Readonly<Record<string, string>> = { mp4: 'video/mp4', m4a: 'audio/mp4', webm: 'video/webm', mkv: 'video/x-matroska', '3gp': 'video/3gpp' };

export interface MediaPage {
  result: PageResult;
  stored: StoredMedia;
}

/** Uploads `run.media` and builds the page's result; always removes the temp folder. */
export async function deliverMedia(run: FlowRun, media: MediaFile, page: number, msg: TaskMessage, env: WorkerEnv, abort: TaskAbort): Promise<MediaPage> {
  try {
    const storage = storageOf(msg.task.params.storage);
    const audioOnly = msg.task.params.output === 'audio';
    const contentType = audioOnly && media.container === 'webm' ? 'audio/webm' : (CONTENT_TYPES[media.container] ?? 'application/octet-stream');
    const file = { path: media.path, size: media.size, sha256: await fileSha256(media.path), contentType, extension: media.container };
    const creds = isStorageType(storage.type) ? credentialsFor(parseDeliveryConfig(env.setup.config.storage), storage.type) : undefined;
    let attempts = 0;
    let answer: AttemptResult;
    for (;;) {
      attempts += 1;
      const timeoutMs = Math.max(MIN_UPLOAD_MS, msg.task.deadline - Date.now());
      answer = await uploadFile(storage, file, creds, { jobId: msg.task.id, clientId: msg.task.accountId, signal: abort.signal, timeoutMs, allowPrivate: env.setup.config.allowPrivate });
      if (abort.aborted) throw abort.reason;
      if (answer.ok || !answer.retry || attempts >= UPLOAD_ATTEMPTS) break;
      await sleep(UPLOAD_BACKOFF_MS * 2 ** (attempts - 1));
    }
    if (!answer.ok) {
      throw new GleanerError('DELIVERY_FAILED', `The download could not be uploaded to the ${storage.type} bucket: ${answer.error}.`, { attempts });
    }
    const stored: StoredMedia = { key: answer.key ?? '', location: answer.location ?? '', size: media.size, duration: round(media.duration), attempts };
    const json = {
      ...media.facts,
      object_key: stored.key,
      location: stored.location,
      storage_type: storage.type,
      size_bytes: stored.size,
      duration_s: stored.duration,
      container: media.container,
      content_type: contentType,
    };
    const result: PageResult = {
      html: null,
      markdown: null,
      screenshot: null,
      json,
      metadata: { page, run_js: false, url: run.page.url, status_code: run.page.status, json_source: 'builtin', parse_status: 'parsed' },
    };
    return { result, stored };
  } finally {
    await rm(media.dir, { recursive: true, force: true });
  }
}

/** The job's `storage`; validation requires it on download routes, so its absence is a caller bug. */
function storageOf(value: unknown): StorageSpec {
  const s = value as { type?: unknown; url?: unknown } | null | undefined;
  if (!s || typeof s.type !== 'string' || typeof s.url !== 'string') {
    throw new GleanerError('VALIDATION_ERROR', 'A download needs storage: the file is uploaded to the bucket.', {
      errors: [{ pointer: '#/storage', detail: 'is required on this route (the file is uploaded to the bucket)' }],
    });
  }
  return { type: s.type, url: s.url };
}

function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
