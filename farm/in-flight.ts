/**
 * Pool side: one task in flight on a worker, and its answer. Settles exactly once, with the
 * worker's reply, or first with a cancel (the caller's signal, the backstop timer, destroy),
 * in which case the worker is told to stop through the farm's cancel channel.
 *
 * It is also the task's `signal` for Piscina (the event-emitter shape Piscina accepts), fired
 * only to terminate the thread: a worker that has not let go of the task (replied) BACKSTOP
 * after it should have stopped — its deadline, or a cancel — is stuck in synchronous work
 * (its own deadline timer would have answered within its cleanup grace), so its thread is
 * terminated and Piscina starts another. CPU work past its deadline therefore stops.
 *
 * A class rather than a bundle of closures: the pool makes one per task.
 */
import type { BroadcastChannel } from 'node:worker_threads';
import { GleanerError } from '../core/errors.js';
import type { TaskReply } from '../core/wire.js';

/** Why a task's thread went away under it (not the task's own overrun): the pool may retry it. */
export const WORKER_STOPPED_CAUSE = 'worker_stopped';

export const WORKER_STOPPED: TaskReply = {
  ok: false,
  error: { code: 'INTERNAL_ERROR', message: 'The worker running the task stopped.', data: { cause: WORKER_STOPPED_CAUSE } },
};

export class InFlightTask {
  /** Resolves with the answer the caller gets (never rejects). */
  readonly answered: Promise<TaskReply>;
  /** The thread was terminated because of this task (it overran). */
  terminated = false;
  private settle!: (reply: TaskReply) => void;
  private done = false;
  /** The worker replied (or its thread is gone): nothing of the task is left on it. */
  private released = false;
  private backstop: NodeJS.Timeout;
  private backstopAt: number;
  /** Piscina's abort listener (it terminates the thread running the task). */
  private onTerminate: (() => void) | undefined;

  constructor(
    private readonly seq: number,
    private readonly cancels: BroadcastChannel,
    private readonly signal: AbortSignal | undefined,
    /** When the pool answers by itself if the worker stays silent (epoch ms). */
    backstopAt: number,
    /** How long a worker may keep a task after a cancel before its thread is terminated. */
    private readonly graceMs: number,
  ) {
    this.answered = new Promise<TaskReply>((resolve) => (this.settle = resolve));
    signal?.addEventListener('abort', this, { once: true });
    this.backstopAt = backstopAt;
    this.backstop = setTimeout(onBackstop, Math.max(0, backstopAt - Date.now()), this);
  }

  /** The worker's reply (or its failure, mapped by the pool). */
  finish(reply: TaskReply): void {
    if (this.done) return;
    this.done = true;
    this.signal?.removeEventListener('abort', this);
    this.settle(reply);
  }

  /** Piscina settled the task: the worker replied, or its thread is gone. */
  release(): void {
    this.released = true;
    this.onTerminate = undefined;
    clearTimeout(this.backstop);
  }

  /**
   * Answers the caller with `reason` now and tells the worker to stop the task; if the worker
   * has not let go of it `graceMs` later (or at the backstop, if sooner), its thread goes.
   */
  cancel(reason: GleanerError): void {
    if (this.done) return;
    this.cancels.postMessage(this.seq);
    this.finish({ ok: false, error: reason.toWire() });
    const at = Date.now() + this.graceMs;
    if (!this.released && at < this.backstopAt) {
      clearTimeout(this.backstop);
      this.backstopAt = at;
      this.backstop = setTimeout(onBackstop, this.graceMs, this);
    }
  }

  /** The worker kept the task past its backstop: answer (if not yet) and terminate its thread. */
  overran(): void {
    this.cancel(new GleanerError('REQUEST_FAILED_SCRAPE_TIMEOUT'));
    if (this.released || !this.onTerminate) return;
    this.terminated = true;
    const terminate = this.onTerminate;
    this.onTerminate = undefined;
    terminate();
  }

  /** EventListener of the caller's signal (an object listener: no closure per task). */
  handleEvent(): void {
    this.cancel(cancelled(this.signal as AbortSignal));
  }

  // Piscina's signal interface (an event emitter with one 'abort' event). `aborted` stays false:
  // Piscina reads it before queueing, and the task is never aborted before it is sent.
  get aborted(): boolean {
    return this.terminated;
  }

  once(_event: 'abort', listener: () => void): void {
    this.onTerminate = listener;
  }

  off(_event: 'abort', listener: () => void): void {
    if (this.onTerminate === listener) this.onTerminate = undefined;
  }

  removeListener(event: 'abort', listener: () => void): void {
    this.off(event, listener);
  }
}

function onBackstop(d: InFlightTask): void {
  d.overran();
}

export function cancelled(signal: AbortSignal): GleanerError {
  const reason: unknown = signal.reason;
  return reason instanceof GleanerError ? reason : new GleanerError('SERVICE_UNAVAILABLE', 'The task was cancelled.');
}
