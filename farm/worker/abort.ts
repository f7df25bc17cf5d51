/**
 * A task's abort state (deadline, cancel) without an AbortSignal on the plain path. Node's
 * AbortSignal is an EventTarget: making one and adding and removing a listener measured
 * ~10 µs, several times per task, on a path whose whole worker cost is ~200 µs per page.
 * Hooks here are plain callbacks; a real AbortSignal is made only when something asks for one
 * (the browser path, LLM extraction) and is aborted together with the hooks.
 *
 * Single-threaded: lives and fires on its worker's event loop only.
 */

import type { Abortable } from '../../core/retry.js';

export type { Abortable };

/** The task's cancellation object: aborted at `deadline` (run-task.ts arms it) or on cancel. */
export class TaskAbort implements Abortable {
  constructor(readonly deadline?: number) {}

  aborted = false;
  reason: unknown = undefined;
  private hooks: Array<() => void> | undefined;
  private controller: AbortController | undefined;

  /** A real AbortSignal tied to this task, made on first use. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.controller?.abort(reason);
    const hooks = this.hooks;
    this.hooks = undefined;
    if (hooks) for (const fn of hooks) fn();
  }

  onAbort(fn: () => void): () => void {
    if (this.aborted) {
      fn();
      return noop;
    }
    (this.hooks ??= []).push(fn);
    return () => {
      const i = this.hooks?.indexOf(fn) ?? -1;
      if (i >= 0) this.hooks?.splice(i, 1);
    };
  }
}

function noop(): void {}
