/**
 * Worker side: the byte budget of one task (GLEANER_TASK_MAX_BYTES). Every fetch of the task
 * (its pages, their continuations and setup steps, on both network paths) is capped at what is
 * left of the budget, or at the per-response cap if that is smaller; so a request for 100 pages
 * of 20 MiB fails as soon as its bytes pass the budget, in the middle of the page that passes
 * it, having held no more than the budget, instead of after gigabytes.
 *
 * The failure is RESPONSE_TOO_LARGE (the closed table's code for "what was fetched is too
 * large"), with a detail and `data.scope: 'request'` that say it is this request's total.
 * Media downloads stream to disk and keep their own cap (GLEANER_MEDIA_MAX_BYTES).
 */
import { GleanerError } from '../../core/errors.js';

export class TaskBudget {
  private spent = 0;

  constructor(
    /** The task's budget (bytes). */
    readonly total: number,
    /** The cap on one response (bytes). */
    private readonly perResponse: number,
  ) {}

  /** The cap for the next fetch: the smaller of the per-response cap and what is left. */
  cap(): number {
    return Math.max(0, Math.min(this.perResponse, this.total - this.spent));
  }

  /** Counts a fetched response; throws when the task is past its budget. */
  spend(bytes: number): void {
    this.spent += bytes;
    if (this.spent > this.total) throw this.exceeded();
  }

  /**
   * A fetch that failed as too large under `cap` (what `cap()` gave it): when the budget, not
   * the per-response cap, set that limit, the request's total is what was exceeded.
   */
  explain(err: unknown, cap: number): unknown {
    if (err instanceof GleanerError && err.code === 'RESPONSE_TOO_LARGE' && cap < this.perResponse) return this.exceeded();
    return err;
  }

  private exceeded(): GleanerError {
    return new GleanerError(
      'RESPONSE_TOO_LARGE',
      `The pages of this request are larger than ${this.total} bytes in total (GLEANER_TASK_MAX_BYTES); ask for fewer pages.`,
      { maxBytes: this.total, scope: 'request' },
    );
  }
}
