/**
 * Charging: every successful result of either API is counted in the usage ledger (spec 2.6,
 * `/v2/stats`). Faulted work is never recorded. Sync answers count as `realtime`; Web API async
 * and Job API push-pull count as `callback`.
 */
import { routeById } from '../core/registry/index.js';
import type { UsageMode } from '../core/store/usage.js';
import type { Usage } from '../core/wire.js';
import type { Services } from './context.js';

export interface ChargeInput {
  clientId: number;
  routeId: string;
  /** Job API source name when it differs from the route's (e.g. `universal_ecommerce`). */
  source?: string;
  params: Record<string, unknown>;
  mode: UsageMode;
  usage: Usage;
}

export function charge(svc: Services, input: ChargeInput): void {
  const route = routeById(input.routeId);
  if (!route) return;
  if (input.usage.parse) {
    svc.metrics.parseStatus(route.id, input.usage.parse);
    svc.activity.parses(route.id, input.usage.parse);
  }
  if (input.usage.pages <= 0) return;
  svc.activity.pages(route.family, input.usage.pages);
  const output = input.params.output;
  const source = input.source ?? route.source;
  svc.store.usage
    .record({
      clientId: input.clientId,
      at: Date.now(),
      product: source === 'universal_ecommerce' ? 'ecommerce_scraper_api' : route.product,
      source,
      mode: input.mode,
      parsed: Array.isArray(output) && output.includes('json'),
      render: input.usage.render,
      geo: input.params.location !== null && input.params.location !== undefined,
      results: input.usage.pages,
      responseTimeMs: input.usage.elapsedMs,
      requestBytes: input.usage.requestBytes,
      responseBytes: input.usage.responseBytes,
    })
    .catch((err: unknown) => svc.log.error({ err, client_id: input.clientId }, 'usage not recorded'));
}
