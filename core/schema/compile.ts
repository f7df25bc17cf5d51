/**
 * Compiling the endpoint schemas with ajv, sharing what they have in common.
 *
 * The ~170 endpoint schemas repeat the same parameter schemas (`output`, `json`, `storage`,
 * `domain`, `pages`, ...). Compiled inline, each copy is generated and compiled again; here a
 * top-level property schema that occurs in two or more endpoints becomes one shared
 * definition, compiled once and referenced (`inlineRefs: false`), which makes compiling
 * every validator several times faster. Defaults stay beside the `$ref`, where ajv's
 * `useDefaults` reads them. The public schemas (`jsonSchemaFor`, OpenAPI) stay self-contained;
 * only the compiled form uses references.
 */
import type { ValidateFunction } from 'ajv';
import { createAjv } from './ajv.js';
import { allEndpoints, jsonSchemaFor } from './build.js';
import type { JsonSchema } from './shared.js';

const SHARED_ID = 'urn:gleaner:schema:shared';

interface Compiler {
  compile(schema: JsonSchema): ValidateFunction;
}

function buildCompiler(): Compiler {
  // Count identical top-level property schemas across every endpoint (by their JSON text).
  const counts = new Map<string, { schema: JsonSchema; n: number }>();
  for (const endpoint of allEndpoints()) {
    const props = (jsonSchemaFor(endpoint).properties ?? {}) as Record<string, JsonSchema>;
    for (const schema of Object.values(props)) {
      const key = JSON.stringify(schema);
      const seen = counts.get(key);
      if (seen) seen.n++;
      else counts.set(key, { schema, n: 1 });
    }
  }
  const defs: Record<string, JsonSchema> = {};
  const defOf = new Map<string, string>();
  for (const [key, { schema, n }] of counts) {
    if (n < 2) continue;
    const name = `d${defOf.size}`;
    defOf.set(key, name);
    // The default stays on the referencing property: ajv fills defaults from `properties`.
    const { default: _ignored, ...rest } = schema;
    defs[name] = rest;
  }

  const ajv = createAjv({ inlineRefs: false });
  // One schema per definition, each with its own id: ajv compiles an added schema once, while
  // a fragment reference into a bigger schema would be compiled again for every referrer.
  for (const [name, def] of Object.entries(defs)) ajv.addSchema(def, `${SHARED_ID}:${name}`);

  return {
    compile(schema) {
      const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const linked: Record<string, JsonSchema> = {};
      for (const [name, sub] of Object.entries(props)) {
        const def = defOf.get(JSON.stringify(sub));
        linked[name] = def === undefined ? sub : { $ref: `${SHARED_ID}:${def}`, ...('default' in sub ? { default: sub.default } : {}) };
      }
      return ajv.compile({ ...schema, properties: linked });
    },
  };
}

let compiler: Compiler | undefined;

/** Compiles an endpoint's request schema (the caller caches the result). */
export function compileSchema(schema: JsonSchema): ValidateFunction {
  compiler ??= buildCompiler();
  return compiler.compile(schema);
}
