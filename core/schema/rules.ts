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
import { MKT1_DEFAULT_DOMAIN, MKT1_MARKETPLACES, type PostalRule } from '../registry/index.js';
import type { Mode, RouteSpec } from '../registry/types.js';

export type Body = Readonly<Record<string, unknown>>;

export interface CrossFieldRule {
  id: string;
  /** One line: what the rule enforces and why. */
  description: string;
  applies(route: RouteSpec, mode: Mode): boolean;
  check(body: Body, route: RouteSpec): FieldError[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const given = (v: unknown): boolean => v !== undefined && v !== null;
const outputHas = (body: Body, format: string): boolean => Array.isArray(body.output) && body.output.includes(format);
const hasParam = (route: RouteSpec, name: string): boolean => Object.hasOwn(route.params, name);

/** The marketplace domain an mkt1 URL belongs to: the longest table domain its host ends with. */
export function marketplaceOfUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  let host: string;
  try {
    host = new URL(value).hostname.toLowerCase();
  } catch {
    return undefined;
  }
  let best: string | undefined;
  for (const domain of Object.keys(MKT1_MARKETPLACES)) {
    if (host.endsWith(`.${domain}`) && (!best || domain.length > best.length)) best = domain;
  }
  return best;
}

/** Marketplaces the body targets: its `domain` (default com), or on `/mkt1` those of its URLs. */
function marketplacesOf(body: Body, route: RouteSpec): string[] {
  if (hasParam(route, 'domain')) {
    const domain = body.domain ?? MKT1_DEFAULT_DOMAIN;
    // An unknown domain is the schema's error; nothing to compare the postal code with.
    return typeof domain === 'string' && Object.hasOwn(MKT1_MARKETPLACES, domain) ? [domain] : [];
  }
  const urls = Array.isArray(body.url) ? body.url : [body.url];
  return [...new Set(urls.map(marketplaceOfUrl).filter((d): d is string => d !== undefined))];
}

function postalMismatch(code: string, domain: string, rule: PostalRule): FieldError {
  return {
    pointer: '#/location',
    detail: `must be a postal code of the ${domain} marketplace: ${rule.shape}, e.g. ${rule.example} (got "${code}")`,
  };
}

export const RULES: readonly CrossFieldRule[] = [
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
    description: 'A dedicated route without a built-in parser needs json and output containing json (spec 2.1).',
    // The generic route has no parser either, but answers HTML and Markdown without `json`.
    applies: (route) => route.parser === 'none' && route.id !== 'universal',
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
    id: 'mkt1-postal-fits-marketplace',
    description: 'On mkt1 the location postal code must belong to the marketplace selected by domain (spec 2.1).',
    applies: (route) => route.location === 'postal',
    check(body, route) {
      const code = body.location;
      if (typeof code !== 'string') return [];
      for (const domain of marketplacesOf(body, route)) {
        const rule = MKT1_MARKETPLACES[domain]!;
        if (!rule.pattern.test(code)) return [postalMismatch(code, domain, rule)];
      }
      return [];
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

/** The rules of one endpoint, in table order. */
export function rulesFor(route: RouteSpec, mode: Mode): CrossFieldRule[] {
  return RULES.filter((rule) => rule.applies(route, mode));
}
