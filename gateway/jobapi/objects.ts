/**
 * The Job API's objects (spec 2.6): the job object of submit, status and callback answers, and
 * the result entries of the realtime answer and of `GET /v1/queries/{id}/results`.
 *
 * Choices where the spec is silent (documented in the README):
 * - `created_at`/`updated_at` are `YYYY-MM-DD HH:MM:SS` in UTC.
 * - `statuses` is the upstream HTTP status once done, the problem's HTTP status once faulted,
 *   and 0 while pending.
 * - A result entry's `id` is `<job_id>-<page>`; `content` is the HTML (or, with `parse`, the
 *   parsed object; with `content_encoding: base64`, the HTML base64-encoded).
 */
import type { JobRecord } from '../../core/store/jobs.js';
import type { PageResult } from '../../core/wire.js';
import { statusOf } from '../../core/errors.js';

export function datetime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

export interface Link {
  rel: 'self' | 'results';
  href: string;
  method: 'GET';
}

export function links(dataUrl: string, id: string): Link[] {
  return [
    { rel: 'self', href: `${dataUrl}/v1/queries/${id}`, method: 'GET' },
    { rel: 'results', href: `${dataUrl}/v1/queries/${id}/results`, method: 'GET' },
  ];
}

function statuses(job: JobRecord): number {
  if (job.status === 'done') return job.upstreamStatus ?? 200;
  if (job.status === 'faulted' && job.error) return statusOf(job.error.code);
  return 0;
}

/** The job object: echoed input (defaults filled), identity, state and `_links`. */
export function jobObject(job: JobRecord, dataUrl: string, opts: { callback?: boolean; retentionMs?: number } = {}): Record<string, unknown> {
  const input = (job.extra?.input ?? {}) as Record<string, unknown>;
  const object: Record<string, unknown> = {
    ...input,
    id: job.id,
    client_id: job.clientId,
    status: job.status === 'running' ? 'pending' : job.status,
    statuses: statuses(job),
    created_at: datetime(job.createdAt),
    updated_at: datetime(job.finishedAt ?? job.updatedAt),
    _links: links(dataUrl, job.id),
  };
  if (job.status === 'faulted' && job.error) object.error = { code: job.error.code, message: job.error.message };
  // Unknown top-level keys the Job API ignored (core/jobapi/schema.ts).
  if (Array.isArray(job.extra?.warnings)) object.warnings = job.extra.warnings;
  if (opts.callback) {
    Object.assign(object, { priority: 0, ttl: Math.floor((opts.retentionMs ?? 86_400_000) / 1000), origin: 'api', persist: true });
  }
  return object;
}

export interface ResultEntry {
  content: unknown;
  created_at: string;
  updated_at: string;
  id: string;
  page: number;
  url: string;
  job_id: string;
  status_code: number;
}

export function resultEntries(jobId: string, results: readonly PageResult[], createdAt: number, finishedAt: number, base64: boolean): ResultEntry[] {
  return results.map((r) => {
    let content: unknown = r.json ?? r.html ?? r.markdown ?? r.screenshot;
    if (base64 && typeof content === 'string' && r.json == null) content = Buffer.from(content).toString('base64');
    return {
      content,
      created_at: datetime(createdAt),
      updated_at: datetime(finishedAt),
      id: `${jobId}-${r.metadata.page}`,
      page: r.metadata.page,
      url: r.metadata.url,
      job_id: jobId,
      status_code: r.metadata.status_code,
    };
  });
}
