/**
 * The parse contract every built-in parser implements: a pure function of one fetched page
 * (and the other responses its flow kept) to the route's JSON and a parse status. Parsers run
 * in farm workers, never throw on a strange page, and do no I/O.
 */
import type { ParseStatus } from '../wire.js';

export type { ParseStatus } from '../wire.js';

export interface PageInput {
  /** Body of the page response as text: HTML, or JSON text when the upstream answers JSON. */
  html: string;
  /** Final URL of the page. */
  url: string;
  /** 1-based page number of this page (the upstream's page number: `start_page: 3` gives 3). */
  page: number;
  /** The validated request parameters. */
  params: Record<string, unknown>;
  /**
   * Bodies of the flow's other kept responses, by step name, in fetch order (a step that
   * repeats, such as continuation pages, keeps one body per fetch). Absent for one-fetch flows.
   */
  parts?: Readonly<Record<string, readonly string[]>>;
}

export interface Parsed {
  json: unknown;
  /**
   * `parsed`; `partial` when some blocks failed; `unrecognised` when nothing known was found;
   * `blocked` when the page is a bot wall or captcha (the farm retries it on another proxy).
   */
  status: ParseStatus;
  /**
   * On a `partial` page: the expected sections the parser could not find (and blocks that
   * failed), by name — `metadata.missing_sections` of the result (blocks.ts).
   */
  missing?: string[];
}

export type PageParser = (input: PageInput) => Parsed;
