/**
 * The target simulator's plug-in shape. Each site module handles the requests it recognises
 * (returns true) and leaves the rest (returns false); `server.ts` tries them in order.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface SiteContext {
  /** Absolute origin of the simulator, e.g. `http://127.0.0.1:40123`. */
  origin: string;
  /** How many times each path+query has been requested, for fail-N-times pages. */
  hits: Map<string, number>;
}

export type SiteHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  ctx: SiteContext,
) => boolean | Promise<boolean>;
