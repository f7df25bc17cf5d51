/**
 * ajv errors → the `errors[]` of a VALIDATION_ERROR: one `{pointer, detail}` per failing field.
 * Pointers are JSON Pointers (RFC 6901 escaping) behind `#`, not percent-encoded:
 * `#/max_results`, `#/json/prompt`, `#/query/3`, `#/storage/type`. A missing required member
 * and an unknown member are reported at the member's own pointer.
 */
import type { ErrorObject } from 'ajv';
import type { FieldError } from '../errors.js';
import { httpUrlProblem } from './ajv.js';

export function escapePointerToken(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

const ARTICLE: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

function list(values: readonly unknown[]): string {
  return values.map((v) => JSON.stringify(v)).join(', ');
}

function typeDetail(expected: unknown): string {
  const types = (Array.isArray(expected) ? expected : String(expected).split(',')) as string[];
  return `must be ${types.map((t) => ARTICLE[t] ?? t).join(' or ')}`;
}

function formatDetail(format: string, data: unknown): string {
  if (format === 'http-url') return (typeof data === 'string' ? httpUrlProblem(data) : undefined) ?? 'must be an absolute http or https URL';
  if (format === 'country') return 'must be an ISO 3166-1 alpha-2 country code';
  return `must be a valid ${format}`;
}

/** The detail of one ajv error, or undefined when the error is noise (an `if` branch marker). */
function detailOf(e: ErrorObject): string | undefined {
  const p = e.params as Record<string, unknown>;
  const parent = (e.parentSchema ?? {}) as Record<string, unknown>;
  switch (e.keyword) {
    case 'if':
      return undefined;
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'unknown parameter';
    case 'type':
      return typeof parent['x-detail'] === 'string' ? parent['x-detail'] : typeDetail(p.type);
    case 'enum':
      return `must be one of ${list(p.allowedValues as unknown[])}`;
    case 'const':
      return `must be ${JSON.stringify(p.allowedValue)}`;
    case 'minimum':
      return `must be at least ${p.limit}`;
    case 'maximum':
      return `must be at most ${p.limit}`;
    case 'exclusiveMinimum':
      return `must be greater than ${p.limit}`;
    case 'exclusiveMaximum':
      return `must be less than ${p.limit}`;
    case 'minLength':
      return `must be at least ${p.limit} character${p.limit === 1 ? '' : 's'} long`;
    case 'maxLength':
      return `must be at most ${p.limit} characters long`;
    case 'minItems':
      return `must contain at least ${p.limit} item${p.limit === 1 ? '' : 's'}`;
    case 'maxItems':
      return `must contain at most ${p.limit} items`;
    case 'uniqueItems':
      return `must not contain duplicates (items ${p.j} and ${p.i} are equal)`;
    case 'pattern':
      return typeof parent['x-pattern-hint'] === 'string' ? `must look like ${parent['x-pattern-hint']}` : `must match ${p.pattern}`;
    case 'format':
      return formatDetail(String(p.format), e.data);
    default:
      return e.message ?? `failed ${e.keyword}`;
  }
}

function pointerOf(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  if (e.keyword === 'required') return `#${e.instancePath}/${escapePointerToken(String(p.missingProperty))}`;
  if (e.keyword === 'additionalProperties') return `#${e.instancePath}/${escapePointerToken(String(p.additionalProperty))}`;
  return `#${e.instancePath}`;
}

/** Appends field errors for ajv's errors, skipping pointers already reported (first wins). */
export function appendAjvErrors(out: FieldError[], seen: Set<string>, errors: readonly ErrorObject[] | null | undefined): void {
  for (const e of errors ?? []) {
    const detail = detailOf(e);
    if (detail === undefined) continue;
    const pointer = pointerOf(e);
    if (seen.has(pointer)) continue;
    seen.add(pointer);
    out.push({ pointer, detail });
  }
}

/** Appends field errors, skipping pointers already reported (first wins). */
export function appendFieldErrors(out: FieldError[], seen: Set<string>, errors: readonly FieldError[]): void {
  for (const e of errors) {
    if (seen.has(e.pointer)) continue;
    seen.add(e.pointer);
    out.push(e);
  }
}
