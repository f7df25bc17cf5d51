/**
 * Cluster wiring of a node (issue #21), used only when `GLEANER_CLUSTER` is set:
 *
 * - Sync requests: `routedFarm` is the Farm the handlers see. It runs a task on this node's farm
 *   when the farm has a free slot and nothing queued, else hands it to a farm node through the
 *   store's cluster link (request/reply in a queue group); a gateway-only node always hands
 *   off. No farm node answering: run here if this node has a farm, else 503. The task's
 *   deadline travels with it, so 408 happens as on one node.
 * - Farm nodes serve hand-offs (`serveHandOffs`) with their own farm.
 * - Heartbeats: every HEARTBEAT_MS the node announces its id, role, capacity and load; the
 *   status document and the console list the nodes from every node's replica.
 */
import { GleanerError, toWireError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { ClusterLink, NodeInfo, NodeRole } from '../core/store/cluster.js';
import type { ScrapeOutcome, ScrapeTask, TaskReply } from '../core/wire.js';
import { DEFAULT_LIMITS, type Farm, type FarmStats } from '../farm/index.js';
import { versionLine } from './version.js';

const HEARTBEAT_MS = 5_000;

/** Task slots of a farm of `workers` threads (what "free capacity" counts against). */
export function farmCapacity(workers: number): number {
  return workers * DEFAULT_LIMITS.tasksPerWorker;
}

function hasRoom(farm: Farm, capacity: number): boolean {
  const s = farm.stats();
  return s.queued === 0 && s.inFlight < capacity;
}

function fromReply(reply: TaskReply): ScrapeOutcome {
  if (reply.ok) return reply.outcome;
  throw GleanerError.fromWire(reply.error);
}

const NO_FARM: FarmStats = { inFlight: 0, queued: 0, workers: 0, renderThreads: 0, browserPid: undefined, browserPids: [], contexts: 0, pages: 0, browserLaunches: 0, stalled: 0, terminated: 0 };

/** The Farm sync handlers use on a cluster node: local when there is room, else a farm node's. */
export function routedFarm(local: Farm | undefined, link: ClusterLink, capacity: number): Farm {
  return {
    async run(task: ScrapeTask, signal?: AbortSignal): Promise<ScrapeOutcome> {
      if (local && hasRoom(local, capacity)) return local.run(task, signal);
      const reply = await link.handOff(task, signal);
      if (reply) return fromReply(reply);
      if (local) return local.run(task, signal);
      throw new GleanerError('SERVICE_UNAVAILABLE', 'No farm node is available in the cluster; retry shortly.');
    },
    // A gateway-only node is ready when its link is (the store's isOpen); farm nodes report their own farm.
    ready: () => local?.ready() ?? true,
    binaries: () =>
      local?.binaries() ?? {
        browser: { ok: true, path: undefined, version: 'on the farm nodes (gateway-only node)' },
        ffmpeg: { ok: true, path: undefined, version: 'on the farm nodes (gateway-only node)' },
      },
    stats: () => local?.stats() ?? NO_FARM,
    close: async () => local?.close(),
    destroy: async () => local?.destroy(),
    reload: async (config) => local?.reload(config),
  };
}

/** Runs tasks handed off by other nodes on this node's farm. Returns the stop function. */
export function serveHandOffs(link: ClusterLink, farm: Farm): () => void {
  return link.serveSync(async (task): Promise<TaskReply> => {
    try {
      return { ok: true, outcome: await farm.run(task, AbortSignal.timeout(Math.max(1, task.deadline - Date.now()))) };
    } catch (err) {
      return { ok: false, error: toWireError(err) };
    }
  });
}

export interface HeartbeatSource {
  role: NodeRole;
  url: string;
  capacity: number;
  load(): NodeInfo['load'];
}

/** Announces this node now and every HEARTBEAT_MS; returns the stop function. */
export function startHeartbeat(link: ClusterLink, source: HeartbeatSource, log: Logger): () => void {
  const startedAt = Date.now();
  const beat = () =>
    link
      .heartbeat({ id: link.nodeId, role: source.role, url: source.url, capacity: source.capacity, load: source.load(), version: versionLine(), started_at: startedAt })
      .catch((err: unknown) => log.warn({ err: (err as Error).message }, 'cluster: heartbeat failed'));
  void beat();
  const timer = setInterval(beat, HEARTBEAT_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** The cluster part of `/v1/status`: this node, every node with a recent heartbeat, and totals. */
export function clusterStatus(link: ClusterLink): { node: string; nodes: NodeInfo[]; totals: { nodes: number; capacity: number; in_flight: number; queued: number; jobs_running: number } } {
  const nodes = link.nodes();
  const totals = { nodes: nodes.length, capacity: 0, in_flight: 0, queued: 0, jobs_running: 0 };
  for (const n of nodes) {
    totals.capacity += n.capacity;
    totals.in_flight += n.load.in_flight;
    totals.queued += n.load.queued;
    totals.jobs_running += n.load.jobs_running;
  }
  return { node: link.nodeId, nodes, totals };
}
