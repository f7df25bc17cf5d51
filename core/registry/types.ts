/**
 * The route registry's vocabulary. Every scrape path of spec part 4 is one `RouteSpec`; the
 * sync, async and batch HTTP paths, the JSON Schemas, `GET /v1/scrapers`, `OPTIONS`, the
 * OpenAPI document and the Job API's source names are all derived from these records.
 */

export type Mode = 'sync' | 'async' | 'batch';
export const MODES: readonly Mode[] = ['sync', 'async', 'batch'];

/** Usage-ledger product a route is billed under (spec 4.6 stats `product`). */
export type Product = 'serp_scraper_api' | 'ecommerce_scraper_api' | 'web_scraper_api';

export type Family = 'universal' | 'search_engine' | 'video' | 'assistant' | 'commerce';

/**
 * One parameter: a JSON Schema fragment (the subset the registry needs) plus facts the rest
 * of the system reads. `description` feeds OPTIONS, OpenAPI and the docs.
 */
export interface ParamSpec {
  type: 'string' | 'boolean' | 'integer' | 'number' | 'array' | 'object';
  description: string;
  items?: ParamSpec;
  properties?: Record<string, ParamSpec>;
  /** Required members of an object parameter. */
  required?: readonly string[];
  enum?: readonly (string | number)[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  pattern?: string;
  /** Human wording of `pattern` for error details: `must look like <patternHint>`. */
  patternHint?: string;
  format?: string;
  default?: unknown;
  /** Forwarded to the upstream exactly as sent (se1 `tbm`, `tbs`, `udm`, `cr`, ...). */
  verbatim?: boolean;
}

/** What `location` means on a route (spec 2.1). */
export type LocationKind = 'country' | 'postal';

export interface RouteSpec {
  /** Stable id and scrape path below `/v1/scrape`: `universal` for `/v1/scrape` itself, else e.g. `se1/search`. */
  readonly id: string;
  /** Path below `/v1/scrape/` (empty for the generic route). */
  readonly path: string;
  /** Target token of DESIGN.md: `universal`, `se1`, `se2`, `video`, `llm1`, `mkt1`, `mkt2`, ... */
  readonly target: string;
  readonly family: Family;
  readonly product: Product;
  readonly modes: readonly Mode[];
  /** The parameter that names what to fetch; in batch mode it becomes an array of strings. */
  readonly input: 'url' | 'query';
  /** Route-specific parameters, including `url` or `query`. The shared ones of spec 2.1 are added by the schema builder. */
  readonly params: Readonly<Record<string, ParamSpec>>;
  /** Required route-specific parameters. */
  readonly required: readonly string[];
  /**
   * Whether the route's adapter has a built-in parser (derived at assembly, never declared).
   * `none`: `output` with `json` needs a `json` object (prompt or schema); HTML and Markdown
   * work as on the generic route.
   */
  readonly parser: 'builtin' | 'none';
  /**
   * The spec gives the route no built-in parser and requires `json` with `output` containing
   * `json` (se1/maps, media/video/subtitles).
   */
  readonly requiresJson?: boolean;
  /**
   * `media`: the route returns a file, not a document (video download): `output` is `video`
   * or `audio` (or the generic array without `json`), and custom `json` extraction does not
   * apply. `answer`: the route's point is its parsed answer (the assistants): `results[].json`
   * is filled whatever `output` says, and `output` defaults to `["json"]` (HTML, Markdown or a
   * screenshot come alongside only when asked). Absent means `document`.
   */
  readonly outputKind?: 'document' | 'media' | 'answer';
  readonly location: LocationKind;
  /**
   * How `location` takes effect: `proxy` routes the fetch through that country's proxy pool
   * (none configured → LOCATION_UNAVAILABLE); `url` means the planner encodes it into the
   * upstream URL (search engines' geo-targeting), so a country pool is used when one exists
   * and the default pool otherwise.
   */
  readonly geo: 'proxy' | 'url';
  /** The route only works with scripts running (se1/aimode): `run_js` must be `true`. */
  readonly requiresRunJs?: boolean;
  /** Job API `source` name, e.g. `universal`, `se1_search`, `mkt1_product`. */
  readonly source: string;
  /** One line for discovery and OpenAPI. */
  readonly summary: string;
}

/** `POST /v1/search` is not a scrape route: it has its own parameters and response (spec 4.1). */
export interface SearchSpec {
  readonly id: 'search';
  readonly params: Readonly<Record<string, ParamSpec>>;
  readonly required: readonly string[];
  readonly summary: string;
}
