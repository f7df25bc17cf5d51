/**
 * Job lifecycle events: published by the dispatcher and outbox, read by the job feed and the
 * usage ledger. Synchronous fan-out on the main thread; a listener that throws is logged by
 * the bus owner and never breaks the publisher.
 */
import type { WireError } from './errors.js';

/** `progress`: a running crawl's counts (at most about once a second); `cancelled`: a crawl stopped by DELETE. */
export type JobEventType = 'accepted' | 'started' | 'progress' | 'done' | 'failed' | 'cancelled' | 'delivered' | 'delivery_failed';

export interface JobEvent {
  type: JobEventType;
  jobId: string;
  clientId: number;
  routeId: string;
  /** Unix ms. */
  at: number;
  batchId?: string;
  /** `webhook` or `storage` on delivery events. */
  delivery?: string;
  error?: WireError;
  /** Cluster mode: the node that ran the job (on `started`, `done` and `failed` from its job runner). */
  node?: string;
  /** A crawl's counts (`progress`, and its final `done`/`failed`/`cancelled`). */
  progress?: Readonly<Record<string, number>>;
}

export type JobEventListener = (event: JobEvent) => void;

export class EventBus {
  private readonly listeners = new Set<JobEventListener>();

  constructor(private readonly onListenerError: (err: unknown) => void = () => {}) {}

  subscribe(listener: JobEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(event: JobEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (err) {
        this.onListenerError(err);
      }
    }
  }
}
