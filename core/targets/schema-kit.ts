/**
 * Building blocks of the families' output schemas (`results[].json` per route, for OpenAPI, the
 * MCP tools and the typed client): one way to write a closed object, an array, a nullable type.
 */
export type Schema = Record<string, unknown>;

/** A schema of a JSON type (or a list of types), with extra keywords. */
export const s = (type: string | string[], extra: Schema = {}): Schema => ({ type, ...extra });
/** The same with only a description. */
export const described = (type: string | string[], description: string): Schema => ({ type, description });

export const str = s('string');
export const strN = s(['string', 'null']);
export const int = s('integer');
export const intN = s(['integer', 'null']);
export const num = s('number');
export const numN = s(['number', 'null']);
export const bool = s('boolean');
export const boolN = s(['boolean', 'null']);

/** A closed object: every property required except those named `optional`. */
export const obj = (props: Record<string, Schema>, description?: string, optional: readonly string[] = []): Schema => ({
  type: 'object',
  ...(description ? { description } : {}),
  properties: props,
  required: Object.keys(props).filter((k) => !optional.includes(k)),
  additionalProperties: false,
});

export const arr = (items: Schema, description?: string): Schema => ({ type: 'array', ...(description ? { description } : {}), items });

/** An object keyed by free names (labels, languages) whose values share one schema. */
export const map = (values: Schema, description?: string): Schema => ({ type: 'object', ...(description ? { description } : {}), additionalProperties: values });

export const nullable = (schema: Schema): Schema => ({ anyOf: [schema, { type: 'null' }] });

/** One of the values, or null. */
export const enumN = (values: string[]): Schema => ({ enum: [...values, null] });
