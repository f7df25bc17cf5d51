/**
 * Pool side: one task in flight on a worker, and its answer. Settles exactly once, with the
 * worker's reply, or first with a cancel (the caller's signal, the backstop timer, destroy),
 * in which case the worker is told to stop through the farm's cancel channel.
 *
 * A class rather than a bundle of closures: the pool makes one per task.
 */
import type { BroadcastChannel } from 'node:worker_threads';
import { GleanerError } from '../core/errors.js';
import type { TaskReply } from '../core/wire.js';

export const WORKER_STOPPED: TaskReply = {
  ok: false,
  error: { code: 'INTERNAL_ERROR', message: 'The worker running the task stopped.' },
};

export class InFlightTask {
  /** Resolves with the answer the caller gets (never rejects). */
  readonly answered: Promise<TaskReply>;
  private settle!: (reply: TaskReply) => void;
  private done = false;
  private readonly backstop: NodeJS.Timeout;

  constructor(
    private readonly seq: number,
    private readonly cancels: BroadcastChannel,
    private readonly signal: AbortSignal | undefined,
    /** When the pool answers by itself if the worker stays silent (epoch ms). */
    backstopAt: number,
  ) {
    this.answered = new Promise<TaskReply>((resolve) => (this.settle = resolve));
    signal?.addEventListener('abort', this, { once: true });
    this.backstop = setTimeout(onBackstop, Math.max(0, backstopAt - Date.now()), this);
  }

  /** The worker's reply (or its failure, mapped by the pool). */
  finish(reply: TaskReply): void {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.backstop);
    this.signal?.removeEventListener('abort', this);
    this.settle(reply);
  }

  /** Answers the caller with `reason` now and tells the worker to stop the task. */
  cancel(reason: GleanerError): void {
    if (this.done) return;
    this.cancels.postMessage(this.seq);
    this.finish({ ok: false, error: reason.toWire() });
  }

  /** EventListener of the caller's signal (an object listener: no closure per task). */
  handleEvent(): void {
    this.cancel(cancelled(this.signal as AbortSignal));
  }
}

function onBackstop(d: InFlightTask): void {
  d.cancel(new GleanerError('REQUEST_FAILED_SCRAPE_TIMEOUT'));
}

export function cancelled(signal: AbortSignal): GleanerError {
  const reason: unknown = signal.reason;
  return reason instanceof GleanerError ? reason : new GleanerError('SERVICE_UNAVAILABLE', 'The task was cancelled.');
}
