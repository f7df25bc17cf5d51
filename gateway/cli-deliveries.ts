/**
 * `gleaner deliveries list|retry`: the operator's view of the dead-letter list (webhook and
 * bucket deliveries that failed for good, core/store/deliveries.ts) and its redelivery. Works
 * straight on the store, like the other offline commands, while the service runs: a
 * retried delivery is back in the durable outbox at once, and the running service's outbox
 * (which looks for due entries every few seconds when idle) sends it.
 */
import { parseArgs } from 'node:util';
import type { DeadLetter } from '../core/store/deliveries.js';
import type { Store } from '../core/store/index.js';
import type { DeliveryKind } from '../core/store/jobs.js';

export const DELIVERIES_HELP = `  gleaner deliveries list [--json]      deliveries that failed for good (the dead-letter list):
                                        job id, kind, account, route, target, when, attempts, error
  gleaner deliveries retry <job-id>[:webhook|:storage] ... | --all
                                        put dead letters back in the outbox (a new retry horizon)
`;

/** Where a delivery goes, for the operator: the callback URL, or the storage type and URL. */
async function targetOf(store: Store, letter: DeadLetter): Promise<string> {
  const params = (await store.jobs.get(letter.jobId))?.params;
  if (!params) return '?';
  if (letter.kind === 'webhook') return String(params.callback_url ?? '?');
  const storage = params.storage as { type?: unknown; url?: unknown } | undefined;
  return `${String(storage?.type ?? '?')}:${String(storage?.url ?? '?')}`;
}

export async function listDeliveries(store: Store, args: string[], write: (line: string) => void): Promise<number> {
  const { values } = parseArgs({ args, options: { json: { type: 'boolean' } } });
  const letters = await store.deliveries.deadLetters();
  if (values.json) {
    write(`${JSON.stringify(await Promise.all(letters.map(async (l) => ({ ...l, target: await targetOf(store, l) }))), null, 2)}\n`);
    return 0;
  }
  for (const l of letters) {
    write(
      `${l.jobId}\t${l.kind}\taccount=${l.clientId}\troute=${l.routeId}\tto=${await targetOf(store, l)}\t` +
        `failed=${new Date(l.failedAt).toISOString()}\tattempts=${l.attempts}\terror=${l.error}\n`,
    );
  }
  return 0;
}

/** `<job-id>` or `<job-id>:<kind>` → what to retry; throws on a malformed one. */
function parseTarget(arg: string): { jobId: string; kind: DeliveryKind | undefined } {
  const [jobId = '', kind] = arg.split(':');
  if (!/^\d{19}$/.test(jobId) || (kind !== undefined && kind !== 'webhook' && kind !== 'storage')) {
    throw new Error(`not a delivery: ${JSON.stringify(arg)} (expected <19-digit job id>[:webhook|:storage])`);
  }
  return { jobId, kind };
}

/** Exit code 0 when every named delivery was requeued (or, with --all, always), else 1. */
export async function retryDeliveries(store: Store, args: string[], retentionMs: number, write: (line: string) => void): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { all: { type: 'boolean' } } });
  const targets = values.all ? (await store.deliveries.deadLetters()).map((l) => ({ jobId: l.jobId, kind: l.kind })) : positionals.map(parseTarget);
  if (targets.length === 0 && !values.all) throw new Error('name the deliveries to retry (<job-id>[:kind] ...) or --all');
  let missing = 0;
  for (const t of targets) {
    const kinds = await store.deliveries.redeliver(t.jobId, t.kind, retentionMs);
    if (kinds.length === 0) {
      missing++;
      write(`no dead letter ${t.jobId}${t.kind ? `:${t.kind}` : ''}\n`);
    }
    for (const k of kinds) write(`requeued ${t.jobId}:${k}\n`);
  }
  return missing > 0 ? 1 : 0;
}
