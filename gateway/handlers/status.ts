/**
 * Operator endpoints (admin keys): `GET /v1/status`, the status document the console draws,
 * and `GET /v1/status/jobs/{job_id}`, any account's job as the console opens it (the owner's
 * collection route answers 404 to everyone else, by design). `GET /console` is the page.
 */
import { GleanerError } from '../../core/errors.js';
import { isId } from '../../core/ids.js';
import type { Handler } from '../context.js';
import { CONSOLE_HTML } from '../console/page.js';
import { jobFilterOf, statusDocument } from '../console/status.js';
import { collectionBody } from './jobs.js';

/** `?state=`, `?route=` (a pattern: `se1/*`) and `?account=` filter the document's recent jobs. */
export const status: Handler = async (ctx, svc) => {
  ctx.reply.json(200, await statusDocument(svc, jobFilterOf(ctx.info.query)), { 'cache-control': 'no-store' });
};

export const statusJob: Handler = async (ctx, svc) => {
  const id = ctx.param ?? '';
  const job = isId(id) ? await svc.store.jobs.get(id) : undefined;
  if (!job) throw new GleanerError('NOT_FOUND', `No job ${id} (unknown or expired).`);
  ctx.reply.json(200, {
    job: {
      id: job.id,
      api: job.api,
      client_id: job.clientId,
      route: job.routeId,
      mode: job.mode,
      status: job.status,
      attempts: job.attempts,
      created_at: job.createdAt,
      updated_at: job.updatedAt,
      finished_at: job.finishedAt ?? null,
      batch_id: job.batchId ?? null,
      deliveries: job.deliveries,
      error: job.error ? { code: job.error.code, message: job.error.code === 'INTERNAL_ERROR' ? 'internal error' : job.error.message } : null,
    },
    collection: await collectionBody(svc, job),
  });
};

let page: Buffer | undefined;

/**
 * The page holds no data and no secret: it asks for an admin key and calls the endpoints
 * above with it. Strict CSP: only its own inline script and style, connections to this origin.
 */
export const consolePage: Handler = (ctx) => {
  page ??= Buffer.from(CONSOLE_HTML, 'utf8');
  ctx.reply.send(
    200,
    {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'content-security-policy': "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self' ws: wss:; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    },
    page,
  );
};
