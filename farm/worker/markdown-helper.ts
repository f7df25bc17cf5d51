/**
 * A render thread's Markdown helper: a thread of its own (a Piscina pool of one) that converts
 * the pages the render thread fetched without rendering them (plain pages through the browser's
 * network stack, the default for https under `GLEANER_PLAIN_CLIENT=auto`).
 *
 * Why: such a page costs the render thread ~2.5 CPU-ms of protocol traffic and ~3 of Markdown
 * (87 KB). The render thread is the one thread that talks to the browser; while it converts a
 * page, the protocol messages of the other pages in flight wait, and the browser idles. With the
 * conversion here, the same pages ran at ~1.25× the pages/s (bench/README "Markdown off the
 * render thread"). Rendered pages keep converting inline: their cost is the browser's, and a
 * node that only renders never starts this thread (its memory counts against the
 * rendered-memory budget).
 *
 * - The thread starts with the first page that asks and ends after `idleMs` without work (the
 *   browser's idle time; 0 keeps it).
 * - Fallback: if the thread cannot start, dies or fails a page, `markdown()` converts inline, so
 *   a page's result never depends on this thread; after a failure the helper is not used for
 *   FAILED_PAUSE_MS.
 * - Every ask waits on the task's AbortSignal (its deadline or a cancel).
 * - Small pages convert inline: the round trip would cost more than it frees.
 */
import type { ResourceLimits } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { htmlToMarkdown } from '../../core/markdown/index.js';
import type { MarkdownAsk } from './markdown-thread.js';

/** Pages below this many characters convert inline. */
export const MIN_OFFLOAD_CHARS = 16_384;
const FAILED_PAUSE_MS = 60_000;

export class MarkdownHelper {
  private pool: Piscina<MarkdownAsk, string> | undefined;
  private failedAt = -Infinity;
  private closed = false;
  /** Pages the helper thread converted (tests). */
  answered = 0;

  constructor(
    private readonly idleMs: number,
    /** The helper thread's heap limits (V8's defaults when unset). */
    private readonly limits?: ResourceLimits,
  ) {}

  /** Whether the helper thread is up. */
  get running(): boolean {
    return (this.pool?.threads.length ?? 0) > 0;
  }

  /** The page's Markdown: on the helper thread when it is worth it and usable, else inline. */
  async markdown(html: string, url: string, signal: AbortSignal): Promise<string> {
    if (html.length < MIN_OFFLOAD_CHARS || this.closed || Date.now() - this.failedAt < FAILED_PAUSE_MS) return htmlToMarkdown(html, url);
    signal.throwIfAborted();
    try {
      const markdown = await this.start().run({ html, url }, { signal });
      this.answered++;
      return markdown;
    } catch (err) {
      if (signal.aborted) throw signal.reason;
      this.failedAt = Date.now();
      return htmlToMarkdown(html, url);
    }
  }

  /** Ends the helper thread; later pages convert inline. */
  async close(): Promise<void> {
    this.closed = true;
    await this.discard();
  }

  /** Destroys the pool: what waits in it is rejected (and converted inline by its caller). */
  private async discard(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    await pool?.destroy();
  }

  private start(): Piscina<MarkdownAsk, string> {
    if (this.pool) return this.pool;
    const fromSource = import.meta.url.endsWith('.ts');
    const pool = new Piscina<MarkdownAsk, string>({
      filename: new URL(fromSource ? './markdown-thread.ts' : './markdown-thread.js', import.meta.url).href,
      execArgv: fromSource ? ['--import', 'tsx'] : [],
      // An idle time of 0 keeps the thread (as GLEANER_BROWSER_IDLE_MS=0 keeps the browser): one
      // thread at least, and Piscina ends none below that.
      minThreads: this.idleMs > 0 ? 0 : 1,
      maxThreads: 1,
      idleTimeout: this.idleMs,
      recordTiming: false,
      ...(this.limits ? { resourceLimits: this.limits } : {}),
    });
    // A thread that dies while starting is not started again by Piscina, and the page waiting
    // for it would wait until its deadline: the pool is dropped and the page converted inline.
    pool.on('error', () => {
      if (this.pool !== pool) return; // a pool dropped before
      this.failedAt = Date.now();
      void this.discard();
    });
    this.pool = pool;
    return pool;
  }
}
