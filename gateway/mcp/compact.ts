/**
 * Compact input schemas for the MCP tool list. An agent pays for every byte of the list in its
 * context, so a tool's listed schema keeps what helps it write a call — types, enums, defaults,
 * bounds on numbers, required members and one short line per parameter — and leaves out what
 * only the server needs: patterns, string lengths, formats, `x-` annotations, closed-object
 * markers. The call is still checked by the route's full compiled validator, whose errors name
 * each failing field, so nothing the compact schema omits goes unchecked.
 */
import type { JsonSchema } from '../../core/schema/index.js';

/** Kept as they are: what an agent needs to choose values. */
const KEPT = ['enum', 'default', 'minimum', 'maximum'] as const;
/** Longest parameter description kept whole; longer ones keep their first clause. */
const DESCRIPTION_MAX = 60;

/** The first clause of a description when it is long: `Delivery postal code; must belong to ...` → `Delivery postal code`. */
export function shortDescription(text: string, max = DESCRIPTION_MAX): string {
  const t = text.trim().replace(/\.$/, '');
  if (t.length <= max) return t;
  const clause = /^(.{12,}?)(?:[.;:]\s|\s\(|,\s(?:and|or|which|as|so|at)\s|\s[–—-]\s)/.exec(t);
  if (clause && (clause[1] as string).length <= max) return clause[1] as string;
  const cut = t.slice(0, max);
  return `${cut.slice(0, cut.lastIndexOf(' '))}…`;
}

/** Words that say nothing a parameter's name does not. */
const FILLER = new Set(['only', 'results', 'result', 'with', 'the', 'feature', 'a', 'an', 'of', 'to', 'is', 'set', 'whether']);

/** Whether a description only restates the name (`"360": "Only results with the 360 feature"`). */
function restates(name: string, description: string): boolean {
  const own = new Set(name.toLowerCase().split(/[^a-z0-9]+/));
  return description
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '' && !FILLER.has(w))
    .every((w) => own.has(w));
}

function typeOf(schema: JsonSchema): string | undefined {
  const declared = schema.type;
  const types = (Array.isArray(declared) ? declared : declared === undefined ? [] : [declared]).filter((t) => t !== 'null') as string[];
  return types[0];
}

/**
 * One parameter's compact schema. `describe: false` drops its description (parameters whose
 * name says it all in a list of many: `pages`, `start_page`).
 */
export function compactSchema(schema: JsonSchema, describe = true, name = ''): JsonSchema {
  const out: JsonSchema = {};
  const type = typeOf(schema);
  if (type) out.type = type;
  if (describe && typeof schema.description === 'string' && !restates(name, schema.description)) out.description = shortDescription(schema.description);
  for (const key of KEPT) if (schema[key] !== undefined && schema[key] !== null) out[key] = schema[key];
  if (out.default === false && type === 'boolean') delete out.default;
  if (schema.items && typeof schema.items === 'object') out.items = compactSchema(schema.items as JsonSchema, false);
  if (schema.properties && typeof schema.properties === 'object') {
    out.properties = Object.fromEntries(Object.entries(schema.properties as Record<string, JsonSchema>).map(([k, v]) => [k, compactSchema(v, describe, k)]));
    if (Array.isArray(schema.required) && schema.required.length > 0) out.required = schema.required;
  }
  return out;
}

/** An object schema of compact properties. */
export function objectSchema(properties: Record<string, JsonSchema>, required: readonly string[], description?: string): JsonSchema {
  return {
    type: 'object',
    ...(description ? { description } : {}),
    properties,
    ...(required.length > 0 ? { required: [...required] } : {}),
  };
}
