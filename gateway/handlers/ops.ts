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
  // Chromium and ffmpeg are optional: without them the service is ready for everything else,
  // and says what is missing (requests that need one are refused with the same reason).
  const body: Record<string, unknown> = { status: ready ? 'ready' : svc.state(), checks };
  const binaries = svc.farm?.binaries();
  if (binaries) {
    for (const [name, status] of Object.entries(binaries)) {
      body[name] = status.ok;
      if (!status.ok) body[`${name}_reason`] = `${status.reason}; ${status.fix}`;
    }
  }
  ctx.reply.json(ready ? 200 : 503, body);
};

export const metrics: Handler = async (ctx, svc) => ctx.reply.send(200, { 'content-type': svc.metrics.contentType }, await svc.metrics.render());
