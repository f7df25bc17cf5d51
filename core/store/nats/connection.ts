/**
 * The cluster store's link to NATS: the connection (URLs, credentials, TLS from the
 * `GLEANER_CLUSTER*` settings), the names of its streams and buckets (one namespace per Gleaner
 * cluster, so several can share one NATS), and their creation with the configured replicas.
 *
 * Only the API subset nats-server 2.9 and 2.10+ share is used: one filter subject per consumer,
 * bucket-wide max_age (no per-key TTL), `term()` without a reason, no `sync_interval`.
 */
import { readFileSync } from 'node:fs';
import { connect, credsAuthenticator, type NatsConnection, type ConnectionOptions } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager, RetentionPolicy, StorageType, type StreamConfig } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import { Objm, type ObjectStore } from '@nats-io/obj';

/** What `GLEANER_CLUSTER`, `GLEANER_NATS_CREDS`, `GLEANER_CLUSTER_REPLICAS` and `GLEANER_CLUSTER_NAMESPACE` say. */
export interface ClusterSettings {
  /** `nats://` or `tls://` URLs, optionally with user:password@ or token@. */
  servers: string[];
  /** A `.creds` file (JWT + nkey seed). */
  creds?: string;
  /** Replicas of every stream and bucket; undefined: 3 when the cluster has 3+ servers, else 1. */
  replicas?: number;
  /** Prefix of every stream, bucket and subject (default `gleaner`). */
  namespace: string;
  /** Extra trusted roots for `tls://` (`GLEANER_CA_FILE`). */
  caFile?: string;
  /**
   * `GLEANER_CLUSTER_ACK_WAIT_MS` (default 30 s): how long a job or delivery claimed by a node
   * that stopped answering waits before another node takes it. Claims are renewed every third
   * of it; set when the work and outbox consumers are first created.
   */
  ackWaitMs?: number;
}

export const DEFAULT_ACK_WAIT_MS = 30_000;

/** Parses the URLs: credentials in them become connection options (the client does not read them from URLs). */
export function connectionOptions(s: ClusterSettings, name: string): ConnectionOptions {
  const servers: string[] = [];
  const opts: ConnectionOptions = { name, maxReconnectAttempts: -1, reconnectTimeWait: 250, pingInterval: 5_000, waitOnFirstConnect: true };
  let tls = false;
  for (const raw of s.servers) {
    const url = new URL(raw.includes('://') ? raw : `nats://${raw}`);
    if (url.protocol === 'tls:') tls = true;
    else if (url.protocol !== 'nats:') throw new Error(`GLEANER_CLUSTER: ${raw}: use nats:// or tls:// URLs`);
    if (url.username && url.password) {
      opts.user = decodeURIComponent(url.username);
      opts.pass = decodeURIComponent(url.password);
    } else if (url.username) {
      opts.token = decodeURIComponent(url.username);
    }
    servers.push(`${url.hostname.includes(':') ? `[${url.hostname}]` : url.hostname}:${url.port || '4222'}`);
  }
  opts.servers = servers;
  if (tls) opts.tls = s.caFile ? { caFile: s.caFile } : {};
  if (s.creds) opts.authenticator = credsAuthenticator(new Uint8Array(readFileSync(s.creds)));
  return opts;
}

export async function connectCluster(s: ClusterSettings, name: string, timeoutMs = 15_000): Promise<NatsConnection> {
  // waitOnFirstConnect keeps trying every server until the deadline: nodes may start before NATS.
  return connect({ ...connectionOptions(s, name), timeout: timeoutMs });
}

/** Stream, bucket and subject names of one namespace. */
export function namesOf(ns: string) {
  const n = ns.replace(/[^A-Za-z0-9_-]/g, '_');
  return {
    work: `${n}_work`,
    workSubject: `${n}.work`,
    workConsumer: 'runners',
    outbox: `${n}_outbox`,
    outboxSubject: `${n}.outbox`,
    outboxConsumer: 'deliverers',
    charges: `${n}_charges`,
    chargesSubject: `${n}.charges`,
    feedSubject: `${n}.feed`,
    syncSubject: `${n}.sync`,
    /** KV buckets (streams KV_<name>). */
    accounts: `${n}_accounts`,
    totals: `${n}_totals`,
    usage: `${n}_usage`,
    jobs: `${n}_jobs`,
    results: `${n}_results`,
    expiry: `${n}_expiry`,
    deadletters: `${n}_deadletters`,
    nodes: `${n}_nodes`,
    /** `r.<clientId>.<jobId>` → pages a queued or running job holds (quotas.ts). */
    reserved: `${n}_reserved`,
    /** `ids.<slot>` → the slot's id mark and its holder (ids.ts). */
    ids: `${n}_ids`,
    /** Crawls' state, frontier, seen-set, pages, skips, hosts (crawls.ts). */
    crawls: `${n}_crawls`,
    /** Object stores. */
    bigResults: `${n}_results`,
    syncReplies: `${n}_sync`,
  };
}
export type Names = ReturnType<typeof namesOf>;

/** How long the dedupe window of the work, outbox and charge streams is: a retried publish (election, crash) within it cannot duplicate. */
export const DUPLICATE_WINDOW_MS = 10 * 60_000;
/** The dedupe window of the KV buckets: far longer than two writes racing on one revision (cas.ts). */
export const CAS_DEDUPE_MS = 10_000;
/** How long a node's heartbeat is kept after it stops. */
export const NODE_TTL_MS = 30_000;

export interface Handles {
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
  names: Names;
  replicas: number;
  accounts: KV;
  totals: KV;
  usage: KV;
  jobs: KV;
  results: KV;
  expiry: KV;
  deadletters: KV;
  nodes: KV;
  reserved: KV;
  ids: KV;
  crawls: KV;
  bigResults: ObjectStore;
  syncReplies: ObjectStore;
}

/** Servers in the NATS cluster, as the connected server reports (itself and its routes). */
export function serverCount(nc: NatsConnection): number {
  const info = nc.info;
  return 1 + (info?.connect_urls?.filter((u) => !u.endsWith(`:${info.port}`) || !u.startsWith(info.host)).length ?? 0);
}

const ms = (n: number) => n * 1_000_000;

/**
 * Creates (or binds to) every stream and bucket of the namespace. Idempotent: every node does it
 * at start, and nodes starting together race to create them (a loser binds to the winner's).
 * Creating R3 streams takes a round of elections: a timeout is retried until START_DEADLINE_MS.
 */
export async function ensureHandles(nc: NatsConnection, s: ClusterSettings): Promise<Handles> {
  const until = Date.now() + START_DEADLINE_MS;
  for (let wait = 250; ; wait = Math.min(wait * 2, 2_000)) {
    try {
      return await ensureOnce(nc, s);
    } catch (err) {
      if (Date.now() + wait > until || /authoriz|permission|not enabled|insufficient/i.test(String((err as Error).message))) throw err;
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}

/** How long a starting node keeps trying to create or bind its streams and buckets. */
const START_DEADLINE_MS = 90_000;

async function ensureOnce(nc: NatsConnection, s: ClusterSettings): Promise<Handles> {
  const names = namesOf(s.namespace);
  const js = jetstream(nc, { timeout: 10_000 });
  const jsm = await jetstreamManager(nc, { timeout: 10_000 });
  const replicas = s.replicas ?? (serverCount(nc) >= 3 ? 3 : 1);
  const stream = async (config: Partial<StreamConfig> & { name: string }) => {
    try {
      await jsm.streams.info(config.name);
    } catch {
      try {
        await jsm.streams.add({ storage: StorageType.File, num_replicas: replicas, duplicate_window: ms(DUPLICATE_WINDOW_MS), ...config });
      } catch (err) {
        // Another node created it meanwhile.
        if (!/already in use|exists/i.test((err as Error).message)) throw err;
      }
    }
  };
  await stream({ name: names.work, subjects: [`${names.workSubject}.>`], retention: RetentionPolicy.Workqueue });
  await stream({ name: names.outbox, subjects: [`${names.outboxSubject}.>`], retention: RetentionPolicy.Workqueue });
  // Charges are folded into the ledger by stream sequence (charges.ts); a week is far past any fold.
  await stream({ name: names.charges, subjects: [`${names.chargesSubject}`], retention: RetentionPolicy.Limits, max_age: ms(7 * 86_400_000) });
  const kvm = new Kvm(js);
  // A bucket made by another node (or with other replicas, from an earlier setting) is bound as it is.
  // Every read goes to the bucket's stream leader (`allow_direct: false`; a handle made with it
  // reads through the leader even from a bucket an earlier version created with direct gets): a
  // direct get may be answered by a replica that lags, so a job read as done on one node could
  // have no result yet on the next read, and a GET after the webhook could still say pending.
  const kvOptions = (extra: { ttl?: number; history?: number }) => ({ replicas, history: extra.history ?? 1, allow_direct: false, ...(extra.ttl ? { ttl: extra.ttl } : {}) });
  const kv = async (name: string, extra: { ttl?: number; history?: number } = {}) => {
    const bucket = await kvm.create(name, kvOptions(extra)).catch(async (err: unknown) => {
      if (!/already in use|exists/i.test(String((err as Error).message))) throw err;
      return kvm.create(name, kvOptions(extra));
    });
    // The compare-and-set message ids (cas.ts) need a dedupe window of seconds, not the default
    // two minutes: the server keeps every id for the window, one per update.
    const stream = `KV_${name}`;
    if ((await jsm.streams.info(stream)).config.duplicate_window > ms(CAS_DEDUPE_MS)) await jsm.streams.update(stream, { duplicate_window: ms(CAS_DEDUPE_MS) });
    return bucket;
  };
  const objm = new Objm(js);
  const obj = (name: string, ttl?: number) =>
    objm.create(name, { replicas, ...(ttl ? { ttl: ms(ttl) } : {}) }).catch(async (err: unknown) => {
      if (!/already in use|exists/i.test(String((err as Error).message))) throw err;
      return objm.open(name);
    });
  const [accounts, totals, usage, jobs, results, expiry, deadletters, nodes, reserved, ids, crawls, bigResults, syncReplies] = await Promise.all([
    kv(names.accounts),
    kv(names.totals),
    kv(names.usage),
    kv(names.jobs),
    kv(names.results),
    kv(names.expiry),
    kv(names.deadletters),
    kv(names.nodes, { ttl: NODE_TTL_MS }),
    kv(names.reserved),
    kv(names.ids),
    kv(names.crawls),
    obj(names.bigResults),
    // Oversized sync replies (link.ts) live minutes at most.
    obj(names.syncReplies, 5 * 60_000),
  ]);
  return { nc, js, jsm, names, replicas, accounts, totals, usage, jobs, results, expiry, deadletters, nodes, reserved, ids, crawls, bigResults, syncReplies };
}

export const encoder = new TextEncoder();
export const decoder = new TextDecoder();

export function toJson(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value));
}

export function fromJson<T>(data: Uint8Array): T {
  return JSON.parse(decoder.decode(data)) as T;
}

/** KV keys allow `[-/_=.a-zA-Z0-9]`: anything else (user names, sources) is base64url-encoded. */
export function keyPart(text: string): string {
  return /^[A-Za-z0-9_-]+$/.test(text) ? text : `=${Buffer.from(text).toString('base64url')}`;
}

export function isCasConflict(err: unknown): boolean {
  return /wrong last sequence|key exists|10071|10164/i.test(String((err as Error)?.message ?? err));
}
