/**
 * A failed charge check's post-mortem: what the cluster's charge stream and totals hold, read
 * straight from NATS (not through a node), so the failure says whether a charge was never
 * published, published twice, or published and not folded.
 */
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';

export async function chargeLedger(servers: string, asyncJobs: string[]): Promise<string> {
  const nc = await connect({ servers: servers.split(','), timeout: 5_000 });
  try {
    const jsm = await jetstreamManager(nc);
    const last = (await jsm.streams.info('gleaner_charges')).state.last_seq;
    let pages = 0;
    const charged = new Set<string>();
    const other: string[] = [];
    for (let seq = 1; seq <= last; seq++) {
      const m = await jsm.streams.getMessage('gleaner_charges', { seq }).catch(() => null);
      if (!m) continue;
      const entry = m.json<{ clientId: number; results: number }>();
      if (entry.clientId !== 1) continue;
      pages += entry.results;
      const id = m.header?.get('Nats-Msg-Id') ?? '';
      if (id.startsWith('charge.')) charged.add(id.slice('charge.'.length));
      else other.push(id);
    }
    const w = await jsm.streams.getMessage('KV_gleaner_totals', { last_by_subj: '$KV.gleaner_totals.w' }).catch(() => null);
    const unpaid = asyncJobs.filter((id) => !charged.has(id));
    return `charge stream: last seq ${last}, ${pages} pages for client 1 (${charged.size} async jobs, ${other.length} others); watermark ${w ? new TextDecoder().decode(w.data) : 'none'}; async jobs without a charge: ${unpaid.length ? unpaid.join(', ') : 'none'}`;
  } finally {
    await nc.close();
  }
}
