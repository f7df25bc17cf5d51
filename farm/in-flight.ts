/**
 * Pool side: one task in flight on a worker, and its answer. Settles exactly once, with the
 * worker's reply, or first with a cancel (the caller's signal, the backstop timer, destroy),
 * in which case the worker is told to stop through the farm's cancel channel.
 *
 * A worker that has not let go of the task (replied) BACKSTOP after it should have stopped —
 * its deadline, or a cancel — is stuck in synchronous work (its own deadline timer would have
 * answered within its cleanup grace), so the pool terminates the stalled thread (`terminate`)
 * and Piscina starts another. CPU work past its deadline therefore stops.
 *
 * Not Piscina's task `signal`: Piscina counts a thread running an abortable task as full
 * (its usage is Infinity), which cut every thread to one task at a time — a render thread
 * to one page — whatever the balancer said.
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

  constructor(
    private readonly seq: number,
    private readonly cancels: BroadcastChannel,
    private readonly signal: AbortSignal | undefined,
    /** When the pool answers by itself if the worker stays silent (epoch ms). */
    backstopAt: number,
    /** How long a worker may keep a task after a cancel before its thread is terminated. */
    private readonly graceMs: number,
    /** Terminates the threads stuck in synchronous work; true when one was. */
    private readonly terminate: () => boolean,
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
    if (this.released) return;
    this.terminated = this.terminate();
  }

  /** EventListener of the caller's signal (an object listener: no closure per task). */
  handleEvent(): void {
    this.cancel(cancelled(this.signal as AbortSignal));
  }
}

function onBackstop(d: InFlightTask): void {
  d.overran();
}

export function cancelled(signal: AbortSignal): GleanerError {
  const reason: unknown = signal.reason;
  return reason instanceof GleanerError ? reason : new GleanerError('SERVICE_UNAVAILABLE', 'The task was cancelled.');
}
