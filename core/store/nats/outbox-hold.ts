/**
 * This node's hold of the outbox (deliveries.ts): the pull from the one durable consumer of
 * `<ns>_outbox` into a small local hold, and what keeps held messages claimed at JetStream or
 * gives them back. Separate from deliveries.ts because it is only the consumer's side: which
 * messages this node has, for how long; whether an entry may be sent (its job's record, the
 * claim) and what an attempt writes are decided there.
 *
 * - Each node pulls into a small local hold (at most HOLD entries); an entry is handed out by
 *   `dueDeliveries` once its `dueAt` has come, and leaves the stream (ack) only when its
 *   attempt is recorded. While held it stays claimed (`working()`); held entries due later
 *   than LATER_MS are given back with `nak(delay)` so they come back to some node when due.
 *   A node that dies mid-delivery lets its entries come back after AckWait (at least once,
 *   receivers dedupe on `Gleaner-Delivery`).
 */
import type { Consumer, JsMsg } from '@nats-io/jetstream';
import { AckPolicy, DeliverPolicy } from '@nats-io/jetstream';
import type { DeliveryKind, OutboxEntry } from '../jobs.js';
import type { Handles } from './connection.js';
import { StreamGauge } from './gauge.js';

export const HOLD = 64;
const LATER_MS = 15_000;

interface OutboxMessage extends OutboxEntry {
  since?: number;
  /** A crawl's wake-up (crawl-steps.ts): what it owes is the crawl's cursor, so it is never stale by series. */
  w?: 1;
}
export interface Held {
  msg: JsMsg;
  entry: OutboxMessage;
  /** Checked against the job's record and claimed. */
  checked?: boolean;
  /** This copy's claim token. */
  claim?: string;
}

export const keyOf = (e: { jobId: string; kind: DeliveryKind }) => `${e.jobId}:${e.kind}`;

/** The outbox's consumer side; NatsDeliveries (deliveries.ts) is the store built on it. */
export abstract class OutboxHold {
  /** Pulled, not handed out yet. */
  protected readonly held = new Map<string, Held>();
  /** Claimed and handed out, until their attempt is recorded. */
  protected readonly out = new Map<string, Held>();
  protected consumer: Consumer | undefined;
  private stopped = false;
  protected arrived: Array<() => void> = [];
  protected readonly pending: StreamGauge;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    protected readonly h: Handles,
    /** Claims are renewed every third of it (maintain). */
    private readonly ackWaitMs: number,
  ) {
    this.pending = new StreamGauge(h, h.names.outbox);
  }

  /** Starts pulling (lazily, on the first read: the CLI never pulls). */
  protected start(): Promise<void> {
    if (!this.ready && !this.stopped) {
      this.ready = new Promise((r) => (this.readyResolve = r));
      void this.pullLoop();
      this.timer = setInterval(() => this.maintain(), Math.max(200, Math.floor(this.ackWaitMs / 3))).unref();
    }
    return this.ready ?? Promise.resolve();
  }

  private ready: Promise<void> | undefined;
  private readyResolve: () => void = () => {};

  private async pullLoop(): Promise<void> {
    const { jsm, js, names } = this.h;
    for (;;) {
      try {
        await jsm.consumers.info(names.outbox, names.outboxConsumer).catch(() =>
          jsm.consumers.add(names.outbox, { durable_name: names.outboxConsumer, ack_policy: AckPolicy.Explicit, ack_wait: this.ackWaitMs * 1e6, max_deliver: -1, filter_subject: `${names.outboxSubject}.>`, deliver_policy: DeliverPolicy.All, max_ack_pending: -1 }),
        );
        this.consumer = await js.consumers.get(names.outbox, names.outboxConsumer);
        this.readyResolve();
        break;
      } catch (err) {
        if (this.stopped) return;
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
    while (!this.stopped && this.consumer) {
      const room = HOLD - this.held.size - this.out.size;
      if (room <= 0) {
        await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      try {
        const batch = await this.consumer.fetch({ max_messages: room, expires: 1_000 });
        for await (const msg of batch) {
          if (this.stopped) {
            msg.nak();
            continue;
          }
          this.intake(msg);
        }
      } catch {
        if (!this.stopped) await new Promise((r) => setTimeout(r, 500));
      }
    }
  }

  /** A pulled message: held (checked against its job before it is handed out). */
  private intake(msg: JsMsg): void {
    const entry = msg.json<OutboxMessage>();
    const key = keyOf(entry);
    // Another copy of a message this node is delivering (JetStream redelivers after a leader failover): the attempt acks it.
    if (this.out.get(key)?.msg.seq === msg.seq) return;
    const previous = this.held.get(key);
    if (previous && previous.msg.seq !== msg.seq) {
      // A crawl's wake-up owes the cursor's next step, and so does a series entry of the same
      // key (its step queues the wake-ups that follow): the series entry is kept, never the
      // wake-up in its place, or the series would be left unrecorded.
      if (entry.w === 1 && previous.entry.w !== 1) return void msg.ack();
      previous.msg.ack();
    }
    this.held.set(key, { msg, entry });
    for (const wake of this.arrived.splice(0)) wake();
  }

  /** Keeps held entries claimed; gives back those due much later. */
  private maintain(): void {
    const now = Date.now();
    for (const [key, held] of this.held) {
      if (held.entry.dueAt - now > LATER_MS) {
        this.held.delete(key);
        held.msg.nak(held.entry.dueAt - now);
      } else {
        held.msg.working();
      }
    }
    for (const held of this.out.values()) held.msg.working();
  }

  async nextDeliveryDue(): Promise<number | undefined> {
    await this.start();
    let next = Date.now() + 1_000;
    for (const h of this.held.values()) next = Math.min(next, h.entry.dueAt);
    return next;
  }

  pendingCount(): number {
    return this.pending.read();
  }

  /** Stops pulling; held entries come back (nak) to other nodes at once. */
  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
    for (const held of [...this.held.values(), ...this.out.values()]) held.msg.nak();
    this.held.clear();
    this.out.clear();
  }
}
