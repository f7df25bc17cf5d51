/**
 * Worker side of cancellation: the pool posts a cancelled dispatch's `seq` on the farm's
 * BroadcastChannel; every worker hears it and the one running that task aborts it.
 *
 * Ordering hazard: the cancel travels on the channel, the task on Piscina's port, so a cancel
 * can arrive before its task (still queued, or in flight to this thread). Unknown seqs are kept
 * (bounded, oldest dropped) and a task whose seq was already cancelled aborts as it starts.
 * Every worker keeps the seqs it does not run; cancels are rare, so the set stays small.
 *
 * The same channel carries the pool's `{stop: 'close' | 'kill'}` before it stops the threads
 * (browserMode 'per-worker': each worker that has a browser closes it and answers `{stopped}`).
 */
import { BroadcastChannel, threadId } from 'node:worker_threads';
import type { ControlMessage } from '../messages.js';

/** How many cancels for tasks not (yet) seen here are remembered. */
const EARLY_MAX = 1024;

export class CancelBoard {
  private readonly running = new Map<number, () => void>();
  private readonly early = new Set<number>();
  private readonly channel: BroadcastChannel;

  constructor(
    name: string,
    /**
     * Closes or kills this thread's own browser when the pool stops the farm; resolves true if
     * there was one (only those threads answer: the pool counts the browsers it listed).
     */
    private readonly onStop: (how: 'close' | 'kill') => Promise<boolean>,
  ) {
    this.channel = new BroadcastChannel(name);
    this.channel.onmessage = (event) => this.received((event as { data: unknown }).data as ControlMessage);
    // Piscina's port keeps the thread alive; the channel must not keep it from exiting.
    this.channel.unref();
  }

  /** Runs `abort` if (or as soon as) the pool cancels `seq`; returns the un-registration. */
  watch(seq: number, abort: () => void): () => void {
    if (this.early.delete(seq)) {
      abort();
      return () => undefined;
    }
    this.running.set(seq, abort);
    return () => {
      if (this.running.get(seq) === abort) this.running.delete(seq);
    };
  }

  private received(msg: ControlMessage): void {
    if (typeof msg === 'number') return this.cancelled(msg);
    if ('stop' in msg) {
      void this.onStop(msg.stop)
        .catch(() => true)
        .then((had) => {
          if (had) this.channel.postMessage({ stopped: threadId } satisfies ControlMessage);
        });
    }
  }

  private cancelled(seq: number): void {
    const abort = this.running.get(seq);
    if (abort) {
      this.running.delete(seq);
      abort();
      return;
    }
    this.early.add(seq);
    if (this.early.size > EARLY_MAX) this.early.delete(this.early.values().next().value as number);
  }

  close(): void {
    this.channel.close();
  }
}
