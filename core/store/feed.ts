/**
 * The feed seam: job lifecycle events (accepted, started, done, failed, delivered,
 * delivery_failed), published by the gateway, the job runner and the outbox, read by the job
 * feed (`/v1/feed`), MCP progress and the console's activity.
 *
 * - Embedded: an in-process EventBus (core/events.ts): synchronous fan-out on the main thread,
 *   nothing kept.
 * - Cluster: events are published to a NATS subject and every node's subscribers see every
 *   node's events (each once, including its own). Fire-and-forget, like today: the feed is a
 *   live view, and job state in the store is the truth (a client that missed events re-reads
 *   the job).
 */
import type { JobEvent, JobEventListener } from '../events.js';

export type { JobEvent, JobEventListener };

export interface FeedEvents {
  publish(event: JobEvent): void;
  /** Returns the unsubscribe function. */
  subscribe(listener: JobEventListener): () => void;
}
