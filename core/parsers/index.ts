/**
 * Built-in parsers (seam: owned by the parser work). `parsePage` returns undefined when the
 * route has no built-in parser; otherwise the parsed JSON and whether the page was recognised.
 */
import type { ParseStatus } from '../wire.js';

export interface PageInput {
  html: string;
  /** Final URL of the page. */
  url: string;
  /** 1-based page number within the request. */
  page: number;
  /** The validated request parameters. */
  params: Record<string, unknown>;
}

export interface Parsed {
  json: unknown;
  status: ParseStatus;
}

export function parsePage(routeId: string, input: PageInput): Parsed | undefined {
  void routeId;
  void input;
  return undefined;
}
