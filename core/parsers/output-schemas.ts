/**
 * JSON Schemas of `results[].json` per route id, for OpenAPI and docs. Each parser adds its
 * route's schema here.
 */
import { SE_OUTPUT_SCHEMAS } from './se-schemas.js';

export const OUTPUT_SCHEMAS: Record<string, Record<string, unknown>> = {
  ...SE_OUTPUT_SCHEMAS,
};
