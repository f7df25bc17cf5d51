/**
 * Charging: every successful result of either API is counted in the usage ledger (spec 2.6,
 * `/v2/stats`). Faulted work is never recorded.
 * - Sync answers count as `realtime`: `charge` records them, durably, before the answer leaves
 *   (the handlers await it), so a process that dies after answering has charged; one that dies
 *   before the charge is committed has not answered either.
 * - Web API async and Job API push-pull count as `callback`: charged only by JobStore.finish,
 *   in the same step as the job's final state (from `usageEntry`), never after it. The job
 *   runner's `onFinished` only updates the console's counts (`charged`).
 */
import { routeById } from '../core/registry/index.js';
import type { JobRecord } from '../core/store/jobs.js';
import type { UsageEntry, UsageMode } from '../core/store/usage.js';
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

/**
 * Charges a sync answer: counted in the console's activity and recorded in the ledger; resolves
 * once the ledger row is durable. A store that fails the write is logged, and the answer (the
 * work is done) still leaves.
 */
export async function charge(svc: Services, input: ChargeInput): Promise<void> {
  charged(svc, input);
  const entry = usageEntry(input);
  if (!entry) return;
  try {
    await svc.store.usage.record(entry);
  } catch (err) {
    svc.log.error({ err, client_id: input.clientId }, 'usage not recorded');
  }
}

/** The console's counts: every answer's parse status, and charged pages (the ledger is written by whoever charges). */
export function charged(svc: Services, input: ChargeInput): void {
  const route = routeById(input.routeId);
  if (!route) return;
  // Built-in parses by status (a layout change upstream shows as partial pages).
  if (input.usage.parse) {
    svc.metrics.parseStatus(route.id, input.usage.parse);
    svc.activity.parses(route.id, input.usage.parse);
  }
  if (input.usage.pages > 0) svc.activity.pages(route.family, input.usage.pages);
}

/** What a done async job is charged (Job API jobs under their own source name). */
export function chargeInput(job: JobRecord, usage: Usage): ChargeInput {
  const source = typeof job.extra?.source === 'string' ? job.extra.source : undefined;
  return { clientId: job.clientId, routeId: job.routeId, params: job.params, mode: 'callback', usage, ...(source ? { source } : {}) };
}

/** The ledger entry of a charge; undefined when nothing is charged. */
export function usageEntry(input: ChargeInput, at = Date.now()): UsageEntry | undefined {
  const route = routeById(input.routeId);
  if (!route || input.usage.pages <= 0) return undefined;
  const output = input.params.output;
  const source = input.source ?? route.source;
  return {
    clientId: input.clientId,
    at,
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
  };
}
