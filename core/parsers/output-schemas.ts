/**
 * JSON Schemas of `results[].json` per route id, for OpenAPI and docs. Each parser adds its
 * route's schema here.
 */
export const OUTPUT_SCHEMAS: Record<string, Record<string, unknown>> = {};
