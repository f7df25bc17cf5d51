/**
 * Worker side: a task's `results[]` as its pages complete. For a task that asks for them
 * serialised (ScrapeTask.encode: the Web API's sync scrape), each page is written to UTF-8 JSON
 * as soon as it is done and its strings let go, so the worker never holds a page's body, its
 * outputs and their JSON all at once for every page; the buffers are then transferred to the
 * main thread (worker/main.ts), which places them in the answer as they are.
 */
import type { PageResult, ParseStatus } from '../../core/wire.js';

export class PageResults {
  /** The pages kept as objects (tasks that do not encode). */
  readonly kept: PageResult[] = [];
  /** The pages as UTF-8 JSON, one buffer each (tasks that encode); each buffer its own (transferable). */
  readonly encoded: Uint8Array[] | undefined;
  count = 0;
  /** Upstream status of the first page (spec 2.3 `status`). */
  status = 0;
  /** Pages by their built-in parser's status (the task's usage: layout drift is counted). */
  readonly parse: Partial<Record<ParseStatus, number>> = {};
  private readonly encoder: TextEncoder | undefined;

  constructor(encode: boolean) {
    this.encoded = encode ? [] : undefined;
    this.encoder = encode ? new TextEncoder() : undefined;
  }

  add(result: PageResult): void {
    if (this.count++ === 0) this.status = result.metadata.status_code;
    const parsed = result.metadata.parse_status;
    if (parsed) this.parse[parsed] = (this.parse[parsed] ?? 0) + 1;
    // TextEncoder gives each page a buffer of its own: a Buffer from Node's pool must not be transferred.
    if (this.encoder && this.encoded) this.encoded.push(this.encoder.encode(JSON.stringify(result)));
    else this.kept.push(result);
  }
}
