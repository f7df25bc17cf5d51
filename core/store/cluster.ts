/**
 * What a cluster store offers beyond the storage seams (`Store.cluster`, undefined in embedded
 * mode): the node list with heartbeats (`/v1/status`, the console), sync hand-off to another
 * node's farm, and the checks of `gleaner doctor`. The gateway reaches NATS only through this.
 */
import type { ScrapeTask, TaskReply } from '../wire.js';

export type NodeRole = 'all' | 'gateway' | 'farm';

export interface NodeInfo {
  id: string;
  role: NodeRole;
  /** The node's Web API base URL, as it announces it. */
  url: string;
  /** Farm task slots (workers x tasks per worker); 0 on a gateway-only node. */
  capacity: number;
  load: { in_flight: number; queued: number; jobs_running: number };
  version: string;
  started_at: number;
  /** Unix ms of the last heartbeat. */
  at: number;
}

export interface ClusterCheck {
  verdict: 'ok' | 'warn' | 'FAIL';
  what: string;
  detail: string;
}

export interface ClusterLink {
  readonly nodeId: string;
  /** Announces this node (every few seconds; a node silent for 30 s leaves the list). */
  heartbeat(node: Omit<NodeInfo, 'at'>): Promise<void>;
  /** Nodes with a recent heartbeat, by id, from a local replica. */
  nodes(): NodeInfo[];
  /** Serves sync tasks handed off by other nodes (queue group: each task reaches one node). Returns the stop function. */
  serveSync(run: (task: ScrapeTask) => Promise<TaskReply>): () => void;
  /** Hands a sync task to a farm node; undefined when no farm node answers. Rejects at the deadline. */
  handOff(task: ScrapeTask, signal?: AbortSignal): Promise<TaskReply | undefined>;
  /** `gleaner doctor`: servers, JetStream, streams and buckets, replicas. */
  check(): Promise<ClusterCheck[]>;
  /** `gleaner cluster import`: an embedded store's record, kept as it is; false when present already. */
  importRecord(kind: 'account' | 'key' | 'user' | 'quota', id: string, record: object): Promise<boolean>;
}
