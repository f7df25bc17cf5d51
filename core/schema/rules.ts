/**
 * Cross-field rules: the checks JSON Schema cannot state clearly. ONE table; a rule applies to
 * an endpoint by the route's registry facts, and checks the request body AS SENT (before
 * defaults), so that it can tell a missing field from a wrong one.
 *
 * Bodies reach the rules even when the schema already failed, so every check is defensive
 * about types: a field of the wrong type is left to the schema's error.
 *
 * Details of errors about a field that may be absent start with `is required`: the pointer
 * then names the missing member (its parent exists in the body).
 */
import type { FieldError } from '../errors.js';
import type { Mode, RouteSpec } from '../registry/types.js';
import type { Body, CrossFieldRule } from '../targets/adapter.js';
import { FAMILY_RULES } from '../targets/index.js';

export type { Body, CrossFieldRule } from '../targets/adapter.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const given = (v: unknown): boolean => v !== undefined && v !== null;
const outputHas = (body: Body, format: string): boolean => Array.isArray(body.output) && body.output.includes(format);
const hasParam = (route: RouteSpec, name: string): boolean => Object.hasOwn(route.params, name);

/** The generic rules; the families' own rules (core/targets/<family>) follow them in RULES. */
const GENERIC_RULES: readonly CrossFieldRule[] = [
  {
    id: 'json-prompt-xor-schema',
    description: 'json carries exactly one of prompt and schema (spec 4.2 rule 1).',
    applies: (route) => route.outputKind !== 'media',
    check(body) {
      const json = body.json;
      if (!isObject(json)) return [];
      const prompt = given(json.prompt);
      const schema = given(json.schema);
      if (prompt && schema) return [{ pointer: '#/json', detail: 'give json.prompt or json.schema, not both' }];
      if (!prompt && !schema) return [{ pointer: '#/json', detail: 'must contain prompt or schema' }];
      return [];
    },
  },
  {
    id: 'screenshot-needs-run-js',
    description: 'A screenshot is taken of the rendered page, so it needs run_js: true (spec 4.2 rule 2).',
    applies: () => true,
    check: (body) => (outputHas(body, 'screenshot') && body.run_js !== true ? [{ pointer: '#/output', detail: 'screenshot requires run_js: true' }] : []),
  },
  {
    id: 'dedicated-no-parser-needs-json',
    description: 'A dedicated route the spec gives no built-in parser needs json and output containing json (spec 2.1).',
    // Other routes without a parser (the generic route, families whose parsers are not built)
    // answer HTML and Markdown without `json`.
    applies: (route) => route.requiresJson === true,
    check(body) {
      const errors: FieldError[] = [];
      if (!isObject(body.json)) {
        errors.push({ pointer: '#/json', detail: 'is required on this route (it has no built-in parser): give json.prompt or json.schema' });
      }
      if (body.output === undefined) {
        errors.push({ pointer: '#/output', detail: 'is required on this route and must contain json (it has no built-in parser)' });
      } else if (Array.isArray(body.output) && !body.output.includes('json')) {
        errors.push({ pointer: '#/output', detail: 'must contain json on this route (it has no built-in parser)' });
      }
      return errors;
    },
  },
  {
    id: 'json-output-needs-json-object',
    description: 'Without a built-in parser, output json is produced from json.prompt or json.schema (spec 4.2 rule 3).',
    applies: (route) => route.parser === 'none',
    check: (body) => (outputHas(body, 'json') && !isObject(body.json) ? [{ pointer: '#/json', detail: 'is required when output contains json' }] : []),
  },
  {
    id: 'run-js-required',
    description: 'Routes that only work with scripts running (se1/aimode) need run_js: true (spec 4.3).',
    applies: (route) => route.requiresRunJs === true,
    check(body) {
      if (body.run_js === undefined) return [{ pointer: '#/run_js', detail: 'is required and must be true on this route' }];
      return body.run_js === false ? [{ pointer: '#/run_js', detail: 'must be true on this route' }] : [];
    },
  },
  {
    id: 'price-range-ordered',
    description: 'min_price must not exceed max_price.',
    applies: (route) => hasParam(route, 'min_price') && hasParam(route, 'max_price'),
    check: ({ min_price: lo, max_price: hi }) =>
      typeof lo === 'number' && typeof hi === 'number' && lo > hi ? [{ pointer: '#/min_price', detail: 'must not be greater than max_price' }] : [],
  },
  {
    id: 'media-needs-storage',
    description: 'A media download is uploaded to the job\'s bucket, never returned in the result: storage is required.',
    applies: (route, mode) => route.outputKind === 'media' && mode !== 'sync',
    // A storage of the wrong type is the schema's error.
    check: (body) => (given(body.storage) ? [] : [{ pointer: '#/storage', detail: 'is required on this route: the downloaded file is uploaded to the bucket it names' }]),
  },
  {
    id: 'time-range-ordered',
    description: 'A download range ends after it starts.',
    applies: (route) => hasParam(route, 'start_at') && hasParam(route, 'end_at'),
    check({ start_at: start, end_at: end }) {
      const time = /^[0-9]{2}:[0-5][0-9]:[0-5][0-9]$/;
      // Fixed-width hh:mm:ss compares correctly as text.
      if (typeof start !== 'string' || typeof end !== 'string' || !time.test(start) || !time.test(end)) return [];
      return end <= start ? [{ pointer: '#/end_at', detail: 'must be later than start_at' }] : [];
    },
  },
];

export const RULES: readonly CrossFieldRule[] = [...GENERIC_RULES, ...FAMILY_RULES];

/** The rules of one endpoint, in table order. */
export function rulesFor(route: RouteSpec, mode: Mode): CrossFieldRule[] {
  return RULES.filter((rule) => rule.applies(route, mode));
}
