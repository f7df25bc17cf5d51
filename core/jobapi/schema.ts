/**
 * The Job API's input (spec 2.6, 4.6) as one JSON Schema, compiled once. Defaults are filled
 * and echoed in job objects. Route-specific checks happen after mapping, with the registry's
 * own validators (map.ts), so both APIs enforce exactly the same rules.
 */
import { createAjv } from '../schema/ajv.js';
import type { FieldError } from '../errors.js';

export const USER_AGENT_TYPES = [
  'desktop',
  'desktop_chrome',
  'desktop_edge',
  'desktop_firefox',
  'desktop_opera',
  'desktop_safari',
  'mobile',
  'mobile_android',
  'mobile_ios',
  'tablet',
  'tablet_android',
  'tablet_ios',
] as const;

const value = { type: ['string', 'integer', 'number', 'boolean'] };

/** `url` and `query` are strings for single jobs and arrays of strings for batch. */
export function jobApiSchema(batch: boolean): Record<string, unknown> {
  const input = batch
    ? { type: 'array', minItems: 1, items: { type: 'string', minLength: 1, maxLength: 8192 } }
    : { type: 'string', minLength: 1, maxLength: 8192 };
  return {
    type: 'object',
    additionalProperties: false,
    required: ['source'],
    properties: {
      source: { type: 'string', minLength: 1, maxLength: 100 },
      url: input,
      query: input,
      geo_location: { type: ['string', 'null'], maxLength: 200, default: null },
      render: { enum: ['html', 'png', null], default: null },
      parse: { type: 'boolean', default: false },
      callback_url: { type: ['string', 'null'], maxLength: 2048, default: null },
      storage_type: { type: ['string', 'null'], default: null },
      storage_url: { type: ['string', 'null'], default: null },
      domain: { type: ['string', 'null'], maxLength: 20, default: null },
      locale: { type: ['string', 'null'], maxLength: 20, default: null },
      limit: { type: ['integer', 'null'], minimum: 1, maximum: 1000, default: null },
      pages: { type: 'integer', minimum: 1, maximum: 100, default: 1 },
      start_page: { type: 'integer', minimum: 1, maximum: 1000, default: 1 },
      subdomain: { type: ['string', 'null'], maxLength: 100, default: null },
      user_agent_type: { enum: USER_AGENT_TYPES, default: 'desktop' },
      context: {
        type: 'array',
        maxItems: 100,
        default: [],
        items: { type: 'object', additionalProperties: false, required: ['key', 'value'], properties: { key: { type: 'string', minLength: 1 }, value } },
      },
      client_notes: { type: ['string', 'null'], maxLength: 2048, default: null },
      content_encoding: { type: ['string', 'null'], enum: ['base64', null], default: null },
    },
  };
}

const ajv = createAjv({ useDefaults: true, allErrors: true, coerceTypes: false });
const single = ajv.compile(jobApiSchema(false));
const batch = ajv.compile(jobApiSchema(true));
const KNOWN = new Set(Object.keys((jobApiSchema(false) as { properties: Record<string, unknown> }).properties));

export type JobApiInput = Record<string, unknown> & { source: string };

/**
 * Top-level keys the Job API does not know, as warnings. Clients of this API commonly send
 * extra keys and the reference service ignores them, so the Job API does too (and says so on
 * the job); nested objects (`context[]` entries) and the Web API stay strict.
 */
function dropUnknownKeys(body: Record<string, unknown>): FieldError[] {
  const warnings: FieldError[] = [];
  for (const key of Object.keys(body)) {
    if (KNOWN.has(key)) continue;
    warnings.push({ pointer: `#/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, detail: 'unknown parameter; ignored' });
    delete body[key];
  }
  return warnings;
}

/**
 * Validates (defaults filled in place, unknown top-level keys removed and listed in
 * `warnings`) and returns every failing field as a JSON Pointer.
 */
export function checkJobApiInput(
  body: unknown,
  isBatch: boolean,
): { ok: true; input: JobApiInput; warnings: FieldError[] } | { ok: false; errors: FieldError[] } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return { ok: false, errors: [{ pointer: '#', detail: 'the body must be a JSON object' }] };
  }
  const warnings = dropUnknownKeys(body as Record<string, unknown>);
  const check = isBatch ? batch : single;
  if (check(body)) return { ok: true, input: body as JobApiInput, warnings };
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  for (const e of check.errors ?? []) {
    const extra = e.keyword === 'additionalProperties' ? `/${String((e.params as { additionalProperty: string }).additionalProperty)}` : '';
    const missing = e.keyword === 'required' ? `/${String((e.params as { missingProperty: string }).missingProperty)}` : '';
    const pointer = `#${e.instancePath}${extra}${missing}`;
    if (seen.has(pointer)) continue;
    seen.add(pointer);
    const detail = extra ? 'unknown parameter' : missing ? 'required' : (e.message ?? 'invalid');
    errors.push({ pointer, detail });
  }
  return { ok: false, errors };
}
