/**
 * The `OPTIONS /v1/{endpoint}` example body (spec 2.4): every parameter of the endpoint's
 * schema mapped to a type marker — `"string"`, `"bool"`, `"int"`, `"number"` (non-integer
 * numbers, e.g. commerce prices), a nested object for objects with members (`storage` →
 * `{type, url}`), `{}` for free-form objects (`json.schema`), a one-element array for arrays
 * (`["string"]`). Parameters whose shape varies (video download `output`) show `"string"`.
 */
import { type Endpoint, jsonSchemaFor } from './build.js';
import type { JsonSchema } from './shared.js';

const MARKER: Record<string, string> = { string: 'string', boolean: 'bool', integer: 'int', number: 'number' };

function markerOf(schema: JsonSchema): unknown {
  const declared = schema.type;
  const types = Array.isArray(declared) ? declared.filter((t) => t !== 'null') : [declared];
  const type = types[0];
  if (type === 'object') {
    const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
    return Object.fromEntries(Object.entries(props).map(([name, sub]) => [name, markerOf(sub)]));
  }
  if (type === 'array') return [markerOf((schema.items ?? {}) as JsonSchema)];
  return typeof type === 'string' && MARKER[type] ? MARKER[type] : 'string';
}

/** The example body of an endpoint; async and batch endpoints include `callback_url` and `storage`. */
export function exampleBody(endpoint: Endpoint): Record<string, unknown> {
  return markerOf(jsonSchemaFor(endpoint)) as Record<string, unknown>;
}
