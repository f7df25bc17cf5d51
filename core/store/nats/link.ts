/**
 * The cluster link (core/store/cluster.ts) on NATS: heartbeats in the `<ns>_nodes` bucket
 * (bucket TTL 30 s, so a dead node's entry goes by itself), sync hand-off as request/reply on
 * `<ns>.sync` in the queue group `farm` (each task reaches one farm node), doctor checks.
 *
 * A reply larger than the server's max_payload (a screenshot, a big page) goes through the
 * `<ns>_sync` object store (TTL 5 min) and the reply names it.
 */
import type { KvEntry } from '@nats-io/kv';
import { GleanerError } from '../../errors.js';
import type { ScrapeTask, TaskReply } from '../../wire.js';
import type { ClusterCheck, ClusterLink, NodeInfo } from '../cluster.js';
import { fromJson, NODE_TTL_MS, serverCount, toJson, type Handles } from './connection.js';
import type { NatsAccounts } from './accounts.js';
import { openReplica, type Replica } from './replica.js';

const QUEUE = 'farm';
const REPLY_MARGIN = 4096;

export class NatsLink implements ClusterLink {
  private constructor(
    readonly nodeId: string,
    private readonly h: Handles,
    private readonly replica: Replica<NodeInfo>,
    private readonly accounts: NatsAccounts,
  ) {}

  static async open(nodeId: string, h: Handles, accounts: NatsAccounts): Promise<NatsLink> {
    // Heartbeats expire by TTL without delete markers: no priming to wait for; `nodes()` filters by age.
    const replica = await openReplica<NodeInfo>(h.nodes, (e: KvEntry) => fromJson<NodeInfo>(e.value), undefined, false);
    return new NatsLink(nodeId, h, replica, accounts);
  }

  async heartbeat(node: Omit<NodeInfo, 'at'>): Promise<void> {
    const info: NodeInfo = { ...node, at: Date.now() };
    const key = `node.${Buffer.from(node.id).toString('base64url')}`;
    const revision = await this.h.nodes.put(key, toJson(info));
    this.replica.applied(key, revision, info);
  }

  nodes(): NodeInfo[] {
    const now = Date.now();
    return this.replica
      .list('node.')
      .map(([, v]) => v)
      .filter((n) => now - n.at < NODE_TTL_MS)
      .sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  serveSync(run: (task: ScrapeTask) => Promise<TaskReply>): () => void {
    const { nc, names } = this.h;
    const sub = nc.subscribe(names.syncSubject, {
      queue: QUEUE,
      callback: (err, msg) => {
        if (err) return;
        void (async () => {
          let reply: TaskReply;
          try {
            reply = await run(msg.json<ScrapeTask>());
          } catch (e) {
            reply = { ok: false, error: { code: 'INTERNAL_ERROR', message: (e as Error).message } };
          }
          let data = toJson(reply);
          if (data.byteLength > nc.info!.max_payload - REPLY_MARGIN) {
            const name = `${this.nodeId}.${Date.now()}.${Math.random().toString(36).slice(2)}`;
            await this.h.syncReplies.putBlob({ name }, data);
            data = toJson({ $object: name });
          }
          msg.respond(data);
        })();
      },
    });
    return () => sub.unsubscribe();
  }

  async handOff(task: ScrapeTask, signal?: AbortSignal): Promise<TaskReply | undefined> {
    const { nc, names } = this.h;
    const data = toJson(task);
    if (data.byteLength > nc.info!.max_payload - REPLY_MARGIN) return undefined;
    const timeout = Math.max(1, task.deadline - Date.now() + 2_000);
    const request = nc.request(names.syncSubject, data, { timeout });
    const aborted = new Promise<never>((_, reject) => signal?.addEventListener('abort', () => reject(new GleanerError('SERVICE_UNAVAILABLE', 'The request was abandoned by its client.')), { once: true }));
    try {
      const msg = await Promise.race([request, aborted]);
      const body = msg.json<TaskReply | { $object: string }>();
      if (!('$object' in body)) return body;
      const blob = await this.h.syncReplies.getBlob(body.$object);
      void this.h.syncReplies.delete(body.$object).catch(() => {});
      if (!blob) throw new GleanerError('INTERNAL_ERROR', 'the farm node answered, but its reply was lost');
      return fromJson<TaskReply>(blob);
    } catch (err) {
      if (/no responders/i.test(String((err as Error).message)) || (err as { code?: string }).code === '503') return undefined;
      if (/timeout/i.test(String((err as Error).message))) throw new GleanerError('REQUEST_FAILED_SCRAPE_TIMEOUT');
      throw err;
    }
  }

  async check(): Promise<ClusterCheck[]> {
    const { nc, jsm, names, replicas } = this.h;
    const checks: ClusterCheck[] = [];
    const info = nc.info!;
    const servers = serverCount(nc);
    checks.push({ verdict: 'ok', what: 'NATS', detail: `connected to ${info.server_name || info.server_id} (${info.version}) at ${nc.getServer()}; ${servers} server(s) known: ${[...(info.connect_urls ?? [])].join(', ') || nc.getServer()}` });
    try {
      const account = await jsm.getAccountInfo();
      checks.push({ verdict: 'ok', what: 'JetStream', detail: `enabled; ${account.streams} streams, ${account.storage} bytes stored` });
    } catch (err) {
      checks.push({ verdict: 'FAIL', what: 'JetStream', detail: `not available: ${(err as Error).message}; start nats-server with -js (and a store dir)` });
      return checks;
    }
    const streams = [names.work, names.outbox, names.charges, ...[names.accounts, names.totals, names.usage, names.jobs, names.results, names.expiry, names.deadletters, names.nodes].map((b) => `KV_${b}`), `OBJ_${names.bigResults}`, `OBJ_${names.syncReplies}`];
    for (const name of streams) {
      try {
        const s = await jsm.streams.info(name);
        const r = s.config.num_replicas;
        const peers = s.cluster ? `leader ${s.cluster.leader ?? 'none'}, ${(s.cluster.replicas ?? []).filter((p) => p.current).length + (s.cluster.leader ? 1 : 0)}/${r} current` : 'single server';
        const verdict = !s.cluster?.leader && r > 1 ? 'FAIL' : r < replicas ? 'warn' : 'ok';
        checks.push({ verdict, what: `stream ${name}`, detail: `${s.state.messages} messages, R${r}; ${peers}` });
      } catch (err) {
        checks.push({ verdict: 'FAIL', what: `stream ${name}`, detail: `missing or unreachable: ${(err as Error).message}` });
      }
    }
    if (servers >= 3 && replicas < 3) checks.push({ verdict: 'warn', what: 'replicas', detail: `R${replicas} on ${servers} servers: set GLEANER_CLUSTER_REPLICAS=3 so a server's loss loses nothing` });
    if (servers < 3 && replicas < 3) checks.push({ verdict: 'warn', what: 'replicas', detail: `${servers} NATS server(s), R${replicas}: losing that server stops the cluster; run 3 servers` });
    const nodes = this.nodes();
    checks.push({ verdict: nodes.length > 0 ? 'ok' : 'warn', what: 'Gleaner nodes', detail: nodes.length > 0 ? nodes.map((n) => `${n.id} (${n.role}, ${Math.round((Date.now() - n.at) / 1000)} s ago)`).join(', ') : 'none running (or none heartbeating in the last 30 s)' });
    return checks;
  }

  importRecord(kind: 'account' | 'key' | 'user' | 'quota', id: string, record: object): Promise<boolean> {
    return this.accounts.importRecord(kind, id, record);
  }

  stop(): void {
    this.replica.stop();
  }
}
