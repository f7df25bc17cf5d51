/**
 * What deliveries carry, per front door. Web API: the webhook body documented in
 * farm/delivery/payload.ts, and the job's collection body in the bucket. Job API: the job
 * object with `_links` as the callback body (spec 6.1), and `{results: [...]}` in the bucket.
 */
import type { JobRecord } from '../core/store/jobs.js';
import { webhookBody, type DeliveryPayloads } from '../farm/index.js';
import type { Services } from './context.js';
import { collectionBody } from './handlers/jobs.js';
import { callbackBody } from './jobapi/handlers.js';
import { resultEntries } from './jobapi/objects.js';

export function deliveryPayloads(svc: Services, apiBaseUrl: string, dataUrl: string): DeliveryPayloads {
  return {
    webhook: (job: JobRecord) =>
      job.api === 'job'
        ? callbackBody(job, dataUrl, svc.config.retentionMs)
        : webhookBody({
        jobId: job.id,
        status: job.status === 'done' ? 'done' : 'faulted',
        finishedAt: job.finishedAt ?? job.updatedAt,
        apiBaseUrl,
        storage: (job.params.storage as { type: string; url: string } | null | undefined) ?? null,
        error: job.error ?? null,
      }),
    storage: async (job: JobRecord) =>
      JSON.stringify(
        job.api === 'job'
          ? { results: resultEntries(job.id, (await svc.store.jobs.result(job.id))?.results ?? [], job.createdAt, job.finishedAt ?? job.updatedAt, false) }
          : await collectionBody(svc, job),
      ),
  };
}
