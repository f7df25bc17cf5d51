/**
 * A stream's message count for a gauge (the queue depth, the outbox's pending deliveries):
 * asked of the server at most once a second, in the background, so that a metrics scrape never
 * waits on the cluster; between answers the last count stands. A change this node made marks it
 * stale, and the next read asks again.
 */
import type { Handles } from './connection.js';

const GAUGE_MS = 1_000;

export class StreamGauge {
  private count = 0;
  private at = 0;

  constructor(
    private readonly h: Handles,
    private readonly stream: string,
  ) {}

  read(): number {
    if (Date.now() - this.at > GAUGE_MS) {
      this.at = Date.now();
      this.h.jsm.streams.info(this.stream).then(
        (info) => (this.count = info.state.messages),
        () => {},
      );
    }
    return this.count;
  }

  /** The count moved here: the next read asks the server. */
  stale(): void {
    this.at = 0;
  }
}
