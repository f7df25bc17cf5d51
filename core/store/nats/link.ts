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
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { connectionOptions, fromJson, namesOf, NODE_TTL_MS, serverCount, toJson, type ClusterSettings, type Handles } from './connection.js';
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

  check(): Promise<ClusterCheck[]> {
    return clusterChecks(this.h.nc, this.h.names.work.replace(/_work$/, ''), this.h.replicas, this.nodes());
  }

  importRecord(kind: 'account' | 'key' | 'user' | 'quota', id: string, record: object): Promise<boolean> {
    return this.accounts.importRecord(kind, id, record);
  }

  stop(): void {
    this.replica.stop();
  }
}

/**
 * The checks of `gleaner doctor` on a connection: servers, JetStream, every stream and bucket of
 * the namespace with its replicas and leader, the nodes heartbeating. Reads only: nothing is created.
 */
export async function clusterChecks(nc: NatsConnection, namespace: string, wanted: number | undefined, nodes?: NodeInfo[]): Promise<ClusterCheck[]> {
  const names = namesOf(namespace);
  const checks: ClusterCheck[] = [];
  const info = nc.info!;
  const servers = serverCount(nc);
  checks.push({ verdict: 'ok', what: 'NATS', detail: `connected to ${info.server_name || info.server_id} (nats-server ${info.version}) at ${nc.getServer()}; cluster of ${servers} server(s)${info.connect_urls?.length ? `: ${info.connect_urls.join(', ')}` : ''}` });
  let jsm: JetStreamManager;
  try {
    jsm = await jetstreamManager(nc, { timeout: 5_000 });
    const account = await jsm.getAccountInfo();
    checks.push({ verdict: 'ok', what: 'JetStream', detail: `enabled; ${account.streams} streams, ${account.storage} bytes on disk` });
  } catch (err) {
    checks.push({ verdict: 'FAIL', what: 'JetStream', detail: `not available (${(err as Error).message}): start nats-server with -js and a store directory` });
    return checks;
  }
  const replicas = wanted ?? (servers >= 3 ? 3 : 1);
  const streams = [names.work, names.outbox, names.charges, ...[names.accounts, names.totals, names.usage, names.jobs, names.results, names.expiry, names.deadletters, names.nodes, names.reserved, names.ids, names.crawls].map((b) => `KV_${b}`), `OBJ_${names.bigResults}`, `OBJ_${names.syncReplies}`];
  let missing = 0;
  for (const name of streams) {
    try {
      const s = await jsm.streams.info(name);
      const r = s.config.num_replicas;
      const current = s.cluster ? (s.cluster.replicas ?? []).filter((p) => p.current).length + (s.cluster.leader ? 1 : 0) : 1;
      const verdict = s.cluster && !s.cluster.leader ? 'FAIL' : current < r || r < replicas ? 'warn' : 'ok';
      checks.push({ verdict, what: `stream ${name}`, detail: `${s.state.messages} messages, R${r} (${current}/${r} current${s.cluster?.leader ? `, leader ${s.cluster.leader}` : ''})${r < replicas ? `: fewer replicas than GLEANER_CLUSTER_REPLICAS=${replicas}` : ''}` });
    } catch {
      missing++;
    }
  }
  if (missing > 0) checks.push({ verdict: missing === streams.length ? 'warn' : 'FAIL', what: 'streams and buckets', detail: missing === streams.length ? `none yet in namespace ${namespace}: the first node to start creates them` : `${missing} of ${streams.length} missing in namespace ${namespace}: start a node to create them` });
  if (servers < 3) checks.push({ verdict: 'warn', what: 'replicas', detail: `${servers} NATS server(s): losing one stops the cluster; run three with JetStream for R3` });
  let list = nodes;
  if (!list) {
    list = [];
    try {
      const kv = await new Kvm(nc).open(names.nodes);
      for await (const key of await kv.keys()) {
        const e = await kv.get(key);
        if (e?.operation === 'PUT') list.push(fromJson<NodeInfo>(e.value));
      }
    } catch {
      // no bucket yet: no node has started
    }
    list = list.filter((n) => Date.now() - n.at < NODE_TTL_MS);
  }
  checks.push({ verdict: list.length > 0 ? 'ok' : 'warn', what: 'Gleaner nodes', detail: list.length > 0 ? list.map((n) => `${n.id} (${n.role}, heartbeat ${Math.round((Date.now() - n.at) / 1000)} s ago)`).join(', ') : 'none heartbeating in the last 30 s' });
  return checks;
}

/** `gleaner doctor` in cluster mode: connects (5 s), checks, disconnects. */
export async function checkCluster(settings: ClusterSettings): Promise<ClusterCheck[]> {
  let nc: NatsConnection;
  try {
    nc = await connect({ ...connectionOptions(settings, 'gleaner-doctor'), waitOnFirstConnect: false, maxReconnectAttempts: 0, timeout: 5_000 });
  } catch (err) {
    return [{ verdict: 'FAIL', what: 'NATS', detail: `cannot connect to ${settings.servers.join(', ')}: ${(err as Error).message}; check GLEANER_CLUSTER, GLEANER_NATS_CREDS and that nats-server runs` }];
  }
  try {
    return await clusterChecks(nc, settings.namespace, settings.replicas);
  } finally {
    await nc.close().catch(() => {});
  }
}
