/**
 * The feed on a NATS subject (`<ns>.feed`): every node publishes its job events there and every
 * node's one subscription fans them out to its local listeners, so `/v1/feed` on any node shows
 * every node's jobs, each event once (this node's own included: it comes back like the others).
 * Core NATS, fire-and-forget like the embedded bus: the feed is a live view, the job's state in
 * the store is the truth.
 */
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { EventBus, type JobEvent, type JobEventListener } from '../../events.js';
import type { FeedEvents } from '../feed.js';
import { toJson } from './connection.js';

export class NatsFeed implements FeedEvents {
  private readonly bus: EventBus;
  private readonly sub: Subscription;

  constructor(
    private readonly nc: NatsConnection,
    private readonly subject: string,
    onListenerError: (err: unknown) => void,
  ) {
    this.bus = new EventBus(onListenerError);
    this.sub = nc.subscribe(subject, {
      callback: (err, msg) => {
        if (err) return;
        let event: JobEvent;
        try {
          event = msg.json<JobEvent>();
        } catch {
          return;
        }
        this.bus.publish(event);
      },
    });
  }

  publish(event: JobEvent): void {
    if (this.nc.isClosed()) return;
    this.nc.publish(this.subject, toJson(event));
  }

  subscribe(listener: JobEventListener): () => void {
    return this.bus.subscribe(listener);
  }

  stop(): void {
    this.sub.unsubscribe();
  }
}
