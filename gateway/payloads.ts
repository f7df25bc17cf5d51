/**
 * What deliveries carry, per front door: the Web API webhook body (documented in
 * farm/delivery/payload.ts) and the bucket object (the collection body of the job).
 */
import type { JobRecord } from '../core/store/jobs.js';
import { webhookBody, type DeliveryPayloads } from '../farm/index.js';
import type { Services } from './context.js';
import { collectionBody } from './handlers/jobs.js';

export function deliveryPayloads(svc: Services, apiBaseUrl: string): DeliveryPayloads {
  return {
    webhook: (job: JobRecord) =>
      webhookBody({
        jobId: job.id,
        status: job.status === 'done' ? 'done' : 'faulted',
        finishedAt: job.finishedAt ?? job.updatedAt,
        apiBaseUrl,
        storage: (job.params.storage as { type: string; url: string } | null | undefined) ?? null,
        error: job.error ?? null,
      }),
    storage: (job: JobRecord) => JSON.stringify(collectionBody(svc, job)),
  };
}
