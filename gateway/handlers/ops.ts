/** Liveness, readiness and metrics: unauthenticated, answered in every state. */
import type { Handler } from '../context.js';

export const healthz: Handler = (ctx) => ctx.reply.json(200, { status: 'ok' });

export const readyz: Handler = (ctx, svc) => {
  const checks = {
    store: svc.store.isOpen,
    farm: svc.farm?.ready() ?? false,
    accepting: svc.state() === 'ready',
  };
  const ready = checks.store && checks.farm && checks.accepting;
  // ffmpeg is reported, not required: without it only media downloads are refused (501).
  const ff = svc.ffmpeg;
  const ffmpeg = ff ? { ffmpeg: { ok: ff.ok, version: ff.version, reason: ff.reason } } : {};
  ctx.reply.json(ready ? 200 : 503, { status: ready ? 'ready' : svc.state(), checks, ...ffmpeg });
};

export const metrics: Handler = (ctx, svc) =>
  ctx.reply.send(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' }, svc.metrics.render());
