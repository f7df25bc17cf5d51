/**
 * The work queue on JetStream: the `<ns>_work` work-queue stream (one message per job, subject
 * `<ns>.work.<jobId>`, message id = job id) and one durable pull consumer (`runners`) that
 * every farm node pulls from.
 *
 * - Each node pulls only what its runner has room for (`room()`: free capacity), so a busy node
 *   does not hoard jobs another could run; the consumer's own max_ack_pending is the cluster's.
 * - A held job is kept claimed by `progress` (`working()`, well inside ACK_WAIT_MS), acked by
 *   `settle` after its final state is stored, and given back by `release` (`nak`).
 * - A node that dies leaves its jobs unacknowledged: they come back to some node after AckWait
 *   (start counts them; a final one is settled without a run).
 * - Poison: MaxDeliver is `GLEANER_JOB_MAX_STARTS + 1` (the last delivery finds the start count
 *   at its limit and faults the job). If that delivery dies too, the server's max-deliveries
 *   advisory reaches every node and the job is faulted from there (`onPoison`).
 * - After `stop`, a pull still open on the server may deliver more: those are nak'ed at once.
 */
import type { Consumer, JsMsg } from '@nats-io/jetstream';
import { AckPolicy, DeliverPolicy } from '@nats-io/jetstream';
import type { WorkConsumer, WorkItem, WorkQueue, WorkSink } from '../work.js';
import { toJson, type Handles } from './connection.js';
import { publishRetrying } from './publish.js';

export const ACK_WAIT_MS = 30_000;

export interface WorkOptions {
  maxStarts: number;
  /** A job whose every delivery died: fault it (not charged), unless final already. */
  onPoison(jobId: string): Promise<'faulted' | 'requeue' | 'final'>;
  log?: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

export class NatsWorkQueue implements WorkQueue {
  /** Messages held by this node's consumers, by job id. */
  private readonly held = new Map<string, JsMsg>();
  private advisory: { unsubscribe(): void } | undefined;

  constructor(
    private readonly h: Handles,
    private readonly opts: WorkOptions,
  ) {}

  holds(id: string): boolean {
    return this.held.has(id);
  }

  private async ensureConsumer(): Promise<Consumer> {
    const { jsm, js, names } = this.h;
    await jsm.consumers.info(names.work, names.workConsumer).catch(() =>
      jsm.consumers.add(names.work, {
        durable_name: names.workConsumer,
        ack_policy: AckPolicy.Explicit,
        ack_wait: ACK_WAIT_MS * 1e6,
        max_deliver: this.opts.maxStarts + 1,
        filter_subject: `${names.workSubject}.>`,
        deliver_policy: DeliverPolicy.All,
        max_ack_pending: -1,
      }),
    );
    return js.consumers.get(names.work, names.workConsumer);
  }

  /** Every node listens: the advisory names a job whose deliveries ran out. */
  private watchPoison(): void {
    if (this.advisory) return;
    const { names, nc, jsm } = this.h;
    this.advisory = nc.subscribe(`$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.${names.work}.${names.workConsumer}`, {
      callback: (err, msg) => {
        if (err) return;
        const { stream_seq: seq } = msg.json<{ stream_seq: number }>();
        void (async () => {
          const stored = await jsm.streams.getMessage(names.work, { seq }).catch(() => null);
          if (!stored) return;
          const id = stored.subject.slice(names.workSubject.length + 1);
          const verdict = await this.opts.onPoison(id);
          await jsm.streams.deleteMessage(names.work, seq).catch(() => false);
          // Given back (released) more often than started: queue it again as a new message.
          if (verdict === 'requeue') await publishRetrying(this.h.js, stored.subject, stored.data, `${id}.r${seq}`);
        })().catch((e: unknown) => this.opts.log?.error({ err: e, seq }, 'cluster: handling a max-deliveries advisory failed'));
      },
    });
  }

  consume(sink: WorkSink): WorkConsumer {
    let stopped = false;
    let wake: (() => void) | undefined;
    const recovered = { n: 0 };
    const mine = new Set<string>();
    const loop = async () => {
      let consumer: Consumer | undefined;
      while (!consumer && !stopped) {
        try {
          consumer = await this.ensureConsumer();
          const info = await consumer.info();
          recovered.n = info.num_pending + info.num_ack_pending;
          this.watchPoison();
        } catch (err) {
          this.opts.log?.warn({ err }, 'cluster: work consumer not ready, retrying');
          await new Promise((r) => setTimeout(r, 1000));
        }
      }
      while (!stopped && consumer) {
        const room = sink.room();
        if (room <= 0) {
          await new Promise<void>((r) => {
            wake = r;
            setTimeout(r, 250);
          });
          continue;
        }
        try {
          const batch = await consumer.fetch({ max_messages: Math.min(room, 256), expires: 1_000 });
          const items: WorkItem[] = [];
          for await (const msg of batch) {
            if (stopped) {
              msg.nak();
              continue;
            }
            const item = msg.json<WorkItem>();
            this.held.get(item.id)?.ack(); // an older delivery of the same job
            this.held.set(item.id, msg);
            mine.add(item.id);
            items.push(item);
            // Hand over as they come: a batch waits for its expiry when fewer messages exist.
            sink.deliver([item]);
          }
          if (items.length === 0) continue;
        } catch (err) {
          if (!stopped) await new Promise((r) => setTimeout(r, 500));
        }
      }
    };
    void loop();
    const take = (id: string): JsMsg | undefined => {
      const msg = this.held.get(id);
      this.held.delete(id);
      mine.delete(id);
      wake?.();
      return msg;
    };
    return {
      get recovered() {
        return recovered.n;
      },
      progress: (id) => this.held.get(id)?.working(),
      settle: (id) => take(id)?.ack(),
      release: (id) => take(id)?.nak(),
      stop: () => {
        stopped = true;
        wake?.();
      },
    };
  }

  stop(): void {
    this.advisory?.unsubscribe();
  }
}

/** The payload of a work message. */
export function workPayload(item: WorkItem): Uint8Array {
  return toJson(item);
}
