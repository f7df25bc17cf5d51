/**
 * The work queue on JetStream: the `<ns>_work` work-queue stream (one message per job, subject
 * `<ns>.work.<jobId>`, message id = job id) and one durable pull consumer (`runners`) that
 * every farm node pulls from.
 *
 * - Each node pulls only what its runner has room for (`room()`: free capacity), so a busy node
 *   does not hoard jobs another could run; the consumer's own max_ack_pending is the cluster's.
 * - A held job is kept claimed by the consumer itself (`working()` and its run claim, every third
 *   of the ack wait) from the moment it is handed over until it is settled or released — while it
 *   runs and while it waits in the runner's queues (behind sync requests, or a route's cap), so a
 *   job a live node holds is never handed to another node. It is acked by `settle` after its
 *   final state is stored, and given back by `release` (`nak`).
 * - A node that dies leaves its jobs unacknowledged: they come back to some node after AckWait
 *   (start counts them; a final one is settled without a run).
 * - Poison: MaxDeliver is `GLEANER_JOB_MAX_STARTS`. When the last delivery dies too, the server's
 *   max-deliveries advisory reaches every node and the job is faulted from there (`onPoison`:
 *   INTERNAL_ERROR, not charged); a job delivered that often but started fewer times (given
 *   back at shutdown) is queued again instead. `start` refusing at the count is the same rule
 *   seen from the job's state.
 * - After `stop`, a pull still open on the server may deliver more: those are nak'ed at once.
 */
import type { Consumer, JsMsg } from '@nats-io/jetstream';
import { AckPolicy, DeliverPolicy } from '@nats-io/jetstream';
import type { WorkConsumer, WorkItem, WorkQueue, WorkSink } from '../work.js';
import { randomBytes } from 'node:crypto';
import { fromJson, toJson, type Handles } from './connection.js';
import { publishRetrying, retrying } from './publish.js';

export interface WorkOptions {
  maxStarts: number;
  ackWaitMs: number;
  /** A job whose every delivery died: fault it (not charged), unless final already or running on a live node. */
  onPoison(jobId: string, running: boolean): Promise<'faulted' | 'requeue' | 'final'>;
  log?: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

export class NatsWorkQueue implements WorkQueue {
  /** Messages held by this node's consumers, by job id. */
  private readonly held = new Map<string, JsMsg>();
  /** This node's name on its run claims. */
  private readonly owner = randomBytes(8).toString('hex');
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
        ack_wait: this.opts.ackWaitMs * 1e6,
        max_deliver: this.opts.maxStarts,
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
          // A claim that cannot be read counts as a live run: the job is queued again, not faulted.
          const running = await this.claimOf(id).then((c) => c !== undefined, () => true);
          const verdict = await this.opts.onPoison(id, running);
          await jsm.streams.deleteMessage(names.work, seq).catch(() => false);
          // Given back (released) more often than started: queue it again as a new message.
          if (verdict === 'requeue') await publishRetrying(this.h.js, stored.subject, stored.data, `${id}.r${seq}`);
        })().catch((e: unknown) => this.opts.log?.error({ err: e, seq }, 'cluster: handling a max-deliveries advisory failed'));
      },
    });
  }

  /**
   * Run claims (`run.<jobId>` in the nodes bucket, whose TTL clears them): a node holding a job
   * claims it for 0.8 ack wait and renews the claim while it holds it (every third of it); a dead
   * node's claim has expired by the time its message is redelivered. After a NATS leader
   * failover the stream may hand the same job to a second node; that node finds the live claim
   * of another and leaves the copy alone (it comes back after the ack wait, and is settled
   * without a run once the job is final). Without this, the copy would run, and count a start.
   */
  private async claimOf(id: string): Promise<{ u: number; o: string } | undefined> {
    // Unreadable (the nodes bucket electing a leader) is not "unclaimed": it rejects, and the
    // caller leaves the copy alone (a start counted for a copy of a live run moves it towards poison).
    const e = await retrying(() => this.h.nodes.get(`run.${id}`), Math.floor(this.opts.ackWaitMs / 2));
    if (!e || e.operation !== 'PUT') return undefined;
    const claim = fromJson<{ u: number; o: string }>(e.value);
    return claim.u > Date.now() ? claim : undefined;
  }

  private claim(id: string): Promise<unknown> {
    return retrying(() => this.h.nodes.put(`run.${id}`, toJson({ u: Date.now() + Math.floor(this.opts.ackWaitMs * 0.8), o: this.owner }))).catch(() => undefined);
  }

  private unclaim(id: string): void {
    void this.h.nodes.delete(`run.${id}`).catch(() => {});
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
            if (this.held.has(item.id)) continue; // another copy of a job this node holds
            const other = await this.claimOf(item.id).catch(() => ({ u: 0, o: 'unknown' }));
            if (other && other.o !== this.owner) continue; // running on another live node (or unknown): it comes back after the ack wait
            await this.claim(item.id);
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
    // Each renewal reads the claim first: another node's live claim means this node stopped
    // answering past the ack wait (a pause, a stall) and the job was handed over. The message is
    // then dropped here without ack or nak — an ack would settle the other node's delivery of it
    // — and the runner stops its run (`lost`).
    // Concurrency hazard: a renewal's claim write may land after `settle`/`release` removed the
    // claim; the stray claim expires on its own (0.8 ack wait), and a settled job is not redelivered.
    let renewing = false;
    const renewAll = async (): Promise<void> => {
      await Promise.all([...mine].map(async (id) => {
        // Unreadable (the nodes bucket electing a leader): renewed as if still ours.
        const other = await this.claimOf(id).catch(() => undefined);
        const msg = this.held.get(id);
        if (!msg || !mine.has(id)) return; // settled or released meanwhile
        if (other && other.o !== this.owner) {
          take(id);
          this.opts.log?.warn({ job_id: id }, 'cluster: a job this node held is held by another node now (this node stopped answering past the ack wait); its run here stops');
          sink.lost?.(id);
          return;
        }
        msg.working();
        await this.claim(id);
      }));
    };
    const renew = setInterval(() => {
      if (renewing) return;
      renewing = true;
      void renewAll().finally(() => (renewing = false));
    }, Math.max(200, Math.floor(this.opts.ackWaitMs / 3)));
    renew.unref();
    const take = (id: string): JsMsg | undefined => {
      const msg = this.held.get(id);
      this.held.delete(id);
      mine.delete(id);
      if (stopped && mine.size === 0) clearInterval(renew);
      wake?.();
      return msg;
    };
    return {
      get recovered() {
        return recovered.n;
      },
      // A job no longer held (lost to another node) leaves that node's claim alone.
      settle: (id) => {
        const msg = take(id);
        if (!msg) return;
        msg.ack();
        this.unclaim(id);
      },
      release: (id) => {
        const msg = take(id);
        if (!msg) return;
        msg.nak();
        this.unclaim(id);
      },
      stop: () => {
        stopped = true;
        // Jobs still held (running ones finish after a stop) stay claimed until settled or released.
        if (mine.size === 0) clearInterval(renew);
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
