/**
 * Request schemas and validators of the Web API, generated from the route registry, plus the
 * discovery documents built from them (OPTIONS example bodies, OpenAPI).
 */
export { type Endpoint, allEndpoints, endpointKey, jsonSchemaFor, resolveEndpoint } from './build.js';
export { compileAll, validate, warmValidators, type ValidationResult } from './validate.js';
export { checkJsonText, MAX_BODY_DEPTH } from './json-text.js';
export { exampleBody } from './example.js';
export { openApiDocument } from './openapi.js';
export { RULES, rulesFor, type CrossFieldRule } from './rules.js';
export { addGleanerVocabulary, createAjv, isHttpUrl } from './ajv.js';
export type { JsonSchema } from './shared.js';
