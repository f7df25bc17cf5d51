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
  ctx.reply.json(ready ? 200 : 503, { status: ready ? 'ready' : svc.state(), checks });
};

export const metrics: Handler = async (ctx, svc) => ctx.reply.send(200, { 'content-type': svc.metrics.contentType }, await svc.metrics.render());
