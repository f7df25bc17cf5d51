/**
 * mkt1 checks the route schemas cannot state: `sort_by` and `condition` take the values the
 * planner can put on the wire (vocabulary.ts), so a typo is a 400 naming the accepted values
 * instead of an upstream request the storefront silently ignores.
 */
import type { FieldError } from '../../errors.js';
import type { RouteSpec } from '../../registry/types.js';
import type { CrossFieldRule } from '../adapter.js';
import { CONDITION_FILTERS, SORT_VALUES } from './vocabulary.js';

const has = (route: RouteSpec, name: string): boolean => route.target === 'mkt1' && Object.hasOwn(route.params, name);

function oneOf(value: unknown, accepted: readonly string[], pointer: string): FieldError[] {
  if (typeof value !== 'string' || accepted.includes(value)) return [];
  return [{ pointer, detail: `must be one of ${accepted.join(', ')}` }];
}

export const RULES: readonly CrossFieldRule[] = [
  {
    id: 'mkt1-sort-by-known',
    description: 'mkt1 sort_by is one of the orders the storefront has (its own s= values or their plain names).',
    applies: (route) => has(route, 'sort_by'),
    check: (body) => oneOf(body.sort_by, Object.keys(SORT_VALUES), '#/sort_by'),
  },
  {
    id: 'mkt1-condition-known',
    description: 'mkt1 condition is one of the all-offers filters (new, used, used_like_new, ...).',
    applies: (route) => has(route, 'condition'),
    check: (body) => oneOf(body.condition, Object.keys(CONDITION_FILTERS), '#/condition'),
  },
];

/** Problems of the `mkt1` GLEANER_TARGETS entry: its base URL may hold `{domain}` only. */
export function checkTarget(token: string, cfg: { baseUrl: string }): string[] {
  const unknown = [...cfg.baseUrl.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]).filter((p) => p !== 'domain');
  return unknown.map((p) => `${token}: baseUrl holds an unknown placeholder {${p}} (mkt1 fills {domain} only)`);
}
