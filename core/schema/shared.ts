/**
 * JSON Schema fragments: a registry `ParamSpec` as JSON Schema, and the shared parameters of
 * spec 2.1 that every scrape route accepts.
 *
 * The parameters whose default is null (`json`, `location`, `callback_url`, `storage`) also
 * accept an explicit null, and so do `json.prompt`/`json.schema`: the echoed `params` of a
 * response can then be sent back as a request and mean the same thing.
 */
import type { LocationKind, ParamSpec } from '../registry/types.js';

export type JsonSchema = Record<string, unknown>;

export const OUTPUT_FORMATS = ['html', 'markdown', 'json', 'screenshot'] as const;
export const MEDIA_OUTPUTS = ['video', 'audio'] as const;
export const STORAGE_TYPES = ['s3', 's3_gzip', 's3_compatible', 'gcs', 'tos'] as const;
export const DEVICES = ['desktop', 'mobile'] as const;
export const PROMPT_MAX = 8192;
export const SCHEMA_MIN = 10;
export const SCHEMA_MAX = 65535;
/** Deepest nesting of `json.schema` (32 levels: 15 levels of nested object properties and more). */
export const SCHEMA_MAX_DEPTH = 32;
export const CALLBACK_URL_MAX = 2048;

/** A registry parameter as JSON Schema; objects are closed (`additionalProperties: false`). */
export function paramSchema(p: ParamSpec): JsonSchema {
  const s: JsonSchema = { type: p.type, description: p.description };
  const copied = [
    'enum', 'minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems', 'uniqueItems', 'pattern', 'format', 'default',
  ] as const;
  for (const key of copied) if (p[key] !== undefined) s[key] = p[key];
  if (p.patternHint) s['x-pattern-hint'] = p.patternHint;
  if (p.verbatim) s['x-verbatim'] = true;
  if (p.items) s.items = paramSchema(p.items);
  if (p.type === 'object') {
    s.properties = Object.fromEntries(Object.entries(p.properties ?? {}).map(([k, v]) => [k, paramSchema(v)]));
    if (p.required?.length) s.required = [...p.required];
    s.additionalProperties = false;
  }
  return s;
}

/** The batch form of a route's input: one job per value, each value with the singular bounds. */
export function batchInputSchema(p: ParamSpec): JsonSchema {
  const item = paramSchema(p);
  delete item.description;
  return { type: 'array', description: `One job per value. Each: ${p.description}`, minItems: 1, items: item };
}

/** `answer`: routes whose parsed answer is always returned (assistants) default to json. */
export function outputSchema(answer = false): JsonSchema {
  return {
    type: 'array',
    description: answer
      ? 'Formats to return besides json, which is always filled on this route: html, markdown, screenshot (needs run_js: true).'
      : 'Formats to return: html, markdown, json (parsed or extracted fields), screenshot (needs run_js: true).',
    items: { type: 'string', enum: [...OUTPUT_FORMATS] },
    minItems: 1,
    uniqueItems: true,
    default: [answer ? 'json' : 'html'],
  };
}

/** Video download: `video` or `audio`, or the generic array without `json` (a file is not a document). */
export function mediaOutputSchema(): JsonSchema {
  return {
    description: 'video or audio; the generic output array (html, markdown, screenshot) is also accepted.',
    default: 'video',
    if: { type: 'string' },
    then: { enum: [...MEDIA_OUTPUTS] },
    else: {
      type: 'array',
      'x-detail': 'must be "video", "audio" or an array of output formats',
      items: { type: 'string', enum: OUTPUT_FORMATS.filter((f) => f !== 'json') },
      minItems: 1,
      uniqueItems: true,
    },
  };
}

export function jsonParamSchema(): JsonSchema {
  return {
    type: ['object', 'null'],
    description: 'Custom extraction: {prompt} or {schema}, never both. Overrides the built-in parser.',
    properties: {
      prompt: {
        type: ['string', 'null'],
        description: 'Natural-language extraction instructions, at most 8192 characters.',
        minLength: 1,
        maxLength: PROMPT_MAX,
      },
      schema: {
        type: ['object', 'null'],
        description: 'JSON Schema (or OpenAPI schema object) of the output, 10 to 65535 characters as JSON text, nesting at most 32 levels of objects and arrays.',
        'x-serialized-length': { min: SCHEMA_MIN, max: SCHEMA_MAX, depth: SCHEMA_MAX_DEPTH },
      },
    },
    additionalProperties: false,
    default: null,
  };
}

export function locationSchema(kind: LocationKind): JsonSchema {
  if (kind === 'postal') {
    return {
      type: ['string', 'null'],
      description: 'Delivery postal code; must belong to the marketplace selected by domain.',
      minLength: 2,
      maxLength: 16,
      pattern: '^[A-Za-z0-9][A-Za-z0-9 -]*$',
      'x-pattern-hint': 'a postal code (letters, digits, spaces and hyphens)',
      default: null,
    };
  }
  return {
    type: ['string', 'null'],
    description: 'ISO 3166-1 alpha-2 country code the request originates from.',
    format: 'country',
    default: null,
  };
}

export function deviceSchema(): JsonSchema {
  return { type: 'string', description: 'Device to emulate.', enum: [...DEVICES], default: 'desktop' };
}

export function runJsSchema(): JsonSchema {
  return { type: 'boolean', description: 'Run page JavaScript before capture (slower).', default: false };
}

export function callbackUrlSchema(): JsonSchema {
  return {
    type: ['string', 'null'],
    description: 'Webhook called when each job finishes: absolute http/https URL, at most 2048 characters.',
    maxLength: CALLBACK_URL_MAX,
    format: 'http-url',
    default: null,
  };
}

export function storageSchema(): JsonSchema {
  return {
    type: ['object', 'null'],
    description: 'Deliver the result to a bucket instead of the response.',
    properties: {
      type: { type: 'string', description: 'Bucket type.', enum: [...STORAGE_TYPES] },
      // Deliberately not validated (spec 2.1): a bad address fails at delivery, not here.
      url: { type: 'string', description: 'Bucket address; not validated here, a bad one fails at delivery.' },
    },
    required: ['type', 'url'],
    additionalProperties: false,
    default: null,
  };
}
