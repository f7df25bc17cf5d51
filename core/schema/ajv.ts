/**
 * The ajv instance every Gleaner schema is compiled with: JSON Schema 2020-12 (the dialect of
 * OpenAPI 3.1), all errors, defaults filled, and our formats and keywords:
 *   - format `http-url`: an absolute http or https URL with a host and no whitespace or control
 *     characters (the error detail says which rule failed, httpUrlProblem);
 *   - format `country`: an ISO 3166-1 alpha-2 code, either case;
 *   - keyword `x-serialized-length` `{min, max, depth?}`: bounds the length of
 *     JSON.stringify(value) (spec 8: `json.schema` is 10 to 65535 characters) and, first, the
 *     value's nesting depth, so that nothing recursive (stringify, ajv's compiler, the
 *     extractors) ever runs on a structure nested thousands deep;
 *   - annotations `x-verbatim`, `x-pattern-hint`, `x-detail` (read by the error mapper).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, Options } from 'ajv';
import { isCountryCode } from './countries.js';

export function isHttpUrl(value: string): boolean {
  return httpUrlProblem(value) === undefined;
}

const WHITESPACE_NAMES: Record<string, string> = { ' ': 'a space', '\t': 'a tab', '\n': 'a line break', '\r': 'a carriage return' };

/**
 * Why `value` is not an absolute http or https URL with a host, in words a caller can act on
 * ("contains a space at character 14: encode it as %20"), or undefined when it is one.
 * Whitespace and control characters are refused rather than encoded: URL parsing would trim or
 * drop them silently, and the request would fetch another address than the one sent.
 */
export function httpUrlProblem(value: string): string | undefined {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value.trim());
  if (!scheme) return 'must be an absolute URL starting with http:// or https:// (this one has no scheme)';
  const name = (scheme[1] as string).toLowerCase();
  if (name !== 'http' && name !== 'https') return `must be an http or https URL (the scheme is ${name.slice(0, 20)})`;
  const bad = /[\s\u0000-\u001f\u007f]/.exec(value);
  if (bad) return whitespaceProblem(value, bad[0], bad.index);
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return 'is not a valid URL: its host or port cannot be parsed';
  }
  if (parsed.hostname === '') return 'must name a host (http://host/...)';
  return undefined;
}

function whitespaceProblem(value: string, ch: string, index: number): string {
  const at = index + 1;
  const code = ch.charCodeAt(0);
  const hex = code.toString(16).toUpperCase().padStart(2, '0');
  const what = WHITESPACE_NAMES[ch] ?? (code < 0x20 || code === 0x7f ? `a control character (U+00${hex})` : `whitespace (U+${hex.padStart(4, '0')})`);
  if (value.trim() !== value && (index === 0 || index === value.length - 1)) return `must not start or end with whitespace: remove ${what} at character ${at}`;
  // Where the authority ends: a host cannot carry an encoded character, a path or query can.
  const afterScheme = value.indexOf('//') + 2;
  const rest = value.slice(afterScheme).search(/[/?#]/);
  const inHost = rest < 0 || index < afterScheme + rest;
  if (inHost) return `is not a valid URL: its host contains ${what} at character ${at}`;
  return `is not a valid URL: it contains ${what} at character ${at}; percent-encode it${code <= 0x7f ? ` (%${hex})` : ''}`;
}

interface LengthBounds {
  min: number;
  max: number;
  /** Deepest nesting of objects and arrays (the value itself is level 1). */
  depth?: number;
}

/** Whether `value` nests objects and arrays deeper than `max` levels (iterative: no recursion). */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const [v, level] = item;
    if (v === null || typeof v !== 'object') continue;
    if (level > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === 'object') stack.push([child, level + 1]);
  }
  return false;
}

/** The length of a value's JSON text, or -1 when it cannot be serialised (too deeply nested). */
export function serializedLength(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? -1;
  } catch {
    return -1;
  }
}

/** Adds Gleaner's formats, keywords and annotations to an ajv instance (also used by tests). */
export function addGleanerVocabulary(ajv: Ajv2020): Ajv2020 {
  ajv.addFormat('http-url', { type: 'string', validate: isHttpUrl });
  ajv.addFormat('country', { type: 'string', validate: isCountryCode });
  ajv.addVocabulary(['x-verbatim', 'x-pattern-hint', 'x-detail']);
  ajv.addKeyword({
    keyword: 'x-serialized-length',
    type: 'object',
    schemaType: 'object',
    errors: true,
    metaSchema: {
      type: 'object',
      properties: { min: { type: 'integer' }, max: { type: 'integer' }, depth: { type: 'integer' } },
      required: ['min', 'max'],
      additionalProperties: false,
    },
    validate: function check(bounds: LengthBounds, data: unknown): boolean {
      if (bounds.depth !== undefined && nestsDeeperThan(data, bounds.depth)) {
        const message = `must nest at most ${bounds.depth} levels of objects and arrays`;
        (check as { errors?: Partial<ErrorObject>[] }).errors = [{ keyword: 'x-serialized-length', message, params: { depth: bounds.depth } }];
        return false;
      }
      const length = serializedLength(data);
      if (length >= bounds.min && length <= bounds.max) return true;
      const message =
        length < 0
          ? 'cannot be serialised as JSON (too deeply nested)'
          : `must be ${bounds.min} to ${bounds.max} characters as JSON text (is ${length})`;
      (check as { errors?: Partial<ErrorObject>[] }).errors = [{ keyword: 'x-serialized-length', message, params: { length } }];
      return false;
    },
  });
  return ajv;
}

export function createAjv(extra: Options = {}): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    useDefaults: true,
    // Keep the failing schema on each error: the mapper reads `x-pattern-hint` and `x-detail`.
    verbose: true,
    strict: true,
    allowUnionTypes: true,
    // Formats are our own; ajv's built-in format list is not loaded.
    validateFormats: true,
    ...extra,
  });
  return addGleanerVocabulary(ajv);
}
