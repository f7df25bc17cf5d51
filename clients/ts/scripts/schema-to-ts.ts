/**
 * JSON Schema → TypeScript type text, for the subset Gleaner's schemas use: `type` (also as a
 * list), `enum`, `const`, `properties`/`required`, `items`, `anyOf`/`oneOf`/`allOf`, the
 * `if`/`then`/`else` of the video-download `output`, and `$ref` to named component schemas.
 * Output is deterministic (schema order is kept), so the generated client diffs cleanly.
 */
export type Schema = Record<string, unknown>;

export interface Emitter {
  /** Type name for `#/components/schemas/<name>` references. */
  refName(name: string): string;
  /** A shared alias for a property schema, or undefined to inline it. */
  alias?(schema: Schema, property: string): string | undefined;
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function propertyKey(name: string): string {
  return IDENT.test(name) ? name : JSON.stringify(name);
}

/** A JSDoc block, or nothing; `*\/` inside a description cannot end the comment. */
export function doc(text: unknown, indent: string): string {
  if (typeof text !== 'string' || text === '') return '';
  return `${indent}/** ${text.replace(/\*\//g, '*\\/').replace(/\s*\n\s*/g, ' ')} */\n`;
}

const PRIMITIVE: Record<string, string> = { string: 'string', integer: 'number', number: 'number', boolean: 'boolean', null: 'null' };

function union(parts: string[]): string {
  const unique = [...new Set(parts)];
  if (unique.length === 0) return 'never';
  return unique.length === 1 ? unique[0] : unique.map((p) => (p.includes(' & ') ? `(${p})` : p)).join(' | ');
}

function objectType(schema: Schema, e: Emitter, indent: string): string {
  const properties = schema.properties as Record<string, Schema> | undefined;
  if (!properties || Object.keys(properties).length === 0) return 'Record<string, unknown>';
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const inner = `${indent}  `;
  const lines = Object.entries(properties).map(([name, sub]) => {
    const alias = e.alias?.(sub, name);
    const type = alias ?? toTs(sub, e, inner);
    return `${alias ? '' : doc(sub.description, inner)}${inner}${propertyKey(name)}${required.has(name) ? '' : '?'}: ${type};`;
  });
  return `{\n${lines.join('\n')}\n${indent}}`;
}

function ofType(type: string, schema: Schema, e: Emitter, indent: string): string {
  if (type === 'object') return objectType(schema, e, indent);
  if (type === 'array') {
    const items = schema.items as Schema | undefined;
    const inner = items ? toTs(items, e, indent) : 'unknown';
    return /^[\w.]+$/.test(inner) ? `${inner}[]` : `Array<${inner}>`;
  }
  return PRIMITIVE[type] ?? 'unknown';
}

export function toTs(schema: Schema | boolean | undefined, e: Emitter, indent = ''): string {
  if (schema === undefined || schema === true) return 'unknown';
  if (schema === false) return 'never';
  const ref = schema.$ref;
  if (typeof ref === 'string') return e.refName(ref.slice(ref.lastIndexOf('/') + 1));
  if (Array.isArray(schema.enum)) return union(schema.enum.map((v) => JSON.stringify(v)));
  if ('const' in schema) return JSON.stringify(schema.const);
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(schema[key])) return union((schema[key] as Schema[]).map((s) => toTs(s, e, indent)));
  }
  if (Array.isArray(schema.allOf)) return (schema.allOf as Schema[]).map((s) => toTs(s, e, indent)).join(' & ');
  if (schema.if && (schema.then || schema.else)) {
    return union([toTs(schema.then as Schema, e, indent), toTs(schema.else as Schema, e, indent)]);
  }
  const type = schema.type;
  if (Array.isArray(type)) return union(type.map((t) => ofType(String(t), schema, e, indent)));
  if (typeof type === 'string') return ofType(type, schema, e, indent);
  if (schema.properties) return objectType(schema, e, indent);
  return 'unknown';
}
