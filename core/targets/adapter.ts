/**
 * A target adapter: everything Gleaner knows about one target family, in one folder
 * (`core/targets/<family>/`). The registry, the planner table, the parser table, the output
 * schemas and the family's validation rules are assembled from the adapters listed in
 * `core/targets/index.ts`; a new family is one folder plus one line there.
 */
import type { TargetConfig } from '../config.js';
import type { FieldError } from '../errors.js';
import type { PageParser } from '../parsers/types.js';
import type { Mode, RouteSpec } from '../registry/types.js';
import type { Params, Targets } from './base.js';
import type { Flow } from './flow.js';

export type { Params, Targets } from './base.js';
/** A request body as sent (before defaults), as the cross-field rules read it. */
export type Body = Readonly<Record<string, unknown>>;

/** A check JSON Schema cannot state: applies to endpoints by their registry facts. */
export interface CrossFieldRule {
  id: string;
  /** One line: what the rule enforces and why. */
  description: string;
  applies(route: RouteSpec, mode: Mode): boolean;
  check(body: Body, route: RouteSpec): FieldError[];
}

export interface TargetAdapter {
  /** The family folder's name: `se1`, `mkt1`, `commerce`, `video`, ... */
  readonly name: string;
  /**
   * The family's routes. Whether a route has a built-in parser is not declared here: the
   * assembly derives it from `parsers`, so a route cannot claim a parser it lacks.
   */
  readonly routes: readonly RouteSpec[];
  /** One flow per page of a validated request (`pages`, `start_page`). Pure; may throw GleanerError. */
  plan(route: RouteSpec, params: Params, targets: Targets): Flow[];
  /** Built-in parsers by route id. */
  readonly parsers: Readonly<Record<string, PageParser>>;
  /** JSON Schemas of `results[].json` by route id (OpenAPI, MCP, the typed client). */
  readonly outputSchemas?: Readonly<Record<string, Record<string, unknown>>>;
  /** Cross-field rules of this family (they join the generic rule table). */
  readonly rules?: readonly CrossFieldRule[];
  /** GLEANER_TARGETS tokens the family reads besides its routes' targets (`video_api`, ...). */
  readonly hosts?: readonly string[];
  /**
   * Checks the GLEANER_TARGETS entry of one of its tokens at start; each string names one
   * problem (an unknown template placeholder, a missing template). Empty when good.
   */
  checkTarget?(token: string, cfg: TargetConfig): string[];
  /**
   * What the farm may do when this family's check calls a plain page a bot wall or a
   * JavaScript challenge (`wallCheck`), after the plain attempts (each on the next proxy with a
   * fresh session and identity) all met one. `browser: true`: one more attempt with the page
   * step rendered in the browser, charged as the page it returns. Data, not a code path: the
   * planner copies it onto the family's flows (`Flow.escalate`). Absent: no escalation.
   */
  readonly escalation?: Escalation;
}

export interface Escalation {
  /** One last attempt in the browser (the walls of this family yield to a real browser, not only to another address). */
  readonly browser: boolean;
}
