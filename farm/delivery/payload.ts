/**
 * The documented JSON body of a Web API webhook (spec 6.4 leaves it open). Job API callbacks
 * are different: their body is the job object of spec 2.6 (with `_links`), built by whoever
 * renders job objects, and is signed and sent by the same `postWebhook`.
 *
 *   {
 *     "event": "job.done",                 // or "job.faulted"
 *     "job_id": "1747000000000000001",     // = metadata.request_id of the 202
 *     "status": "done",                    // or "faulted"
 *     "finished_at": 1747000012,           // Unix seconds
 *     "results_url": "https://api.example/v1/async/scrape/1747000000000000001",
 *     "storage": { "type": "s3", "url": "s3://bucket/prefix/" },   // only when given
 *     "error": { "code": "REQUEST_FAILED_AFTER_MANY_RETRIES", "message": "..." }  // only when faulted
 *   }
 *
 * Results are collected with GET `results_url` and the same API key; the body never carries
 * results themselves (they can be large, and a receiver URL is less trusted than the API).
 */
import type { WireError } from '../../core/errors.js';
import type { WebhookEvent } from './webhook.js';

export interface WebhookPayload {
  event: WebhookEvent;
  job_id: string;
  status: 'done' | 'faulted';
  finished_at: number;
  results_url: string;
  storage?: { type: string; url: string };
  error?: { code: string; message: string };
}

export interface PayloadInput {
  jobId: string;
  status: 'done' | 'faulted';
  /** Unix ms when the job finished. */
  finishedAt: number;
  /** Public base URL of the Web API, without trailing slash (`https://gleaner.example`). */
  apiBaseUrl: string;
  storage?: { type: string; url: string } | null;
  error?: WireError | null;
}

export function webhookPayload(input: PayloadInput): WebhookPayload {
  const payload: WebhookPayload = {
    event: input.status === 'done' ? 'job.done' : 'job.faulted',
    job_id: input.jobId,
    status: input.status,
    finished_at: Math.floor(input.finishedAt / 1000),
    results_url: `${input.apiBaseUrl.replace(/\/+$/, '')}/v1/async/scrape/${input.jobId}`,
  };
  if (input.storage) payload.storage = { type: input.storage.type, url: input.storage.url };
  if (input.status === 'faulted' && input.error) payload.error = { code: input.error.code, message: input.error.message };
  return payload;
}

/** The body bytes to sign and send: serialise once, sign those exact bytes. */
export function webhookBody(input: PayloadInput): string {
  return JSON.stringify(webhookPayload(input));
}
