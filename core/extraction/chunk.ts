/**
 * Page text for a language model: Markdown cleaned of inline data, cut into chunks that fit a
 * token budget (estimated at ~4 characters per token), and the chunk answers merged back
 * (objects key by key, arrays concatenated without duplicates, scalars first non-null).
 */
import { isPlainObject } from './model.js';

export const CHARS_PER_TOKEN = 4;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** Markdown without what costs tokens and says nothing: data URIs, runs of blank lines. */
export function tidyMarkdown(md: string): string {
  return md
    .replace(/\]\(data:[^)]*\)/g, ']()')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Splits at paragraph breaks, then lines, then hard, so every chunk is at most `maxChars`. */
export function chunkText(text: string, maxChars: number): string[] {
  const size = Math.max(500, maxChars);
  if (text.length <= size) return [text];
  const pieces: string[] = [];
  for (const block of text.split(/\n{2,}/)) {
    if (block.length <= size) pieces.push(block);
    else
      for (const line of block.split('\n')) {
        for (let i = 0; i < line.length; i += size) pieces.push(line.slice(i, i + size));
      }
  }
  const chunks: string[] = [];
  let cur = '';
  for (const p of pieces) {
    if (cur !== '' && cur.length + 2 + p.length > size) {
      chunks.push(cur);
      cur = '';
    }
    cur = cur === '' ? p : `${cur}\n\n${p}`;
  }
  if (cur !== '') chunks.push(cur);
  return chunks;
}

/** Merges chunk answers: the earlier chunk wins for scalars, arrays are unioned. */
export function mergeAnswers(a: unknown, b: unknown): unknown {
  if (a === undefined || a === null) return b;
  if (b === undefined || b === null) return a;
  if (Array.isArray(a) && Array.isArray(b)) {
    const seen = new Set<string>();
    const out: unknown[] = [];
    for (const x of [...a, ...b]) {
      const k = JSON.stringify(x);
      if (!seen.has(k)) {
        seen.add(k);
        out.push(x);
      }
    }
    return out;
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const out: Record<string, unknown> = { ...a };
    for (const [k, v] of Object.entries(b)) out[k] = mergeAnswers(a[k], v);
    return out;
  }
  return a;
}

/**
 * The JSON in a model's answer: plain, fenced in ```json, or wrapped in a sentence. Throws a
 * SyntaxError naming the problem when there is none.
 */
export function parseAnswer(text: string): unknown {
  const t = text.trim();
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(t);
  const body = fenced ? (fenced[1] as string).trim() : t;
  try {
    return JSON.parse(body);
  } catch (err) {
    const start = body.search(/[{[]/);
    const end = Math.max(body.lastIndexOf('}'), body.lastIndexOf(']'));
    if (start >= 0 && end > start) {
      try {
        return JSON.parse(body.slice(start, end + 1));
      } catch {
        // fall through to the first error, which describes the answer as sent
      }
    }
    throw new SyntaxError(`the answer is not JSON (${(err as Error).message})`);
  }
}

const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const SCHEMA_ONE = new Set(['items', 'additionalProperties', 'not', 'contains', 'if', 'then', 'else', 'propertyNames', 'additionalItems']);
const SCHEMA_LIST = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);

/** The schema with every field optional and nullable: what one chunk of a page can answer. */
export function lenientSchema(schema: unknown): unknown {
  if (!isPlainObject(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'required' || k === 'minItems' || k === 'minProperties') continue;
    if (SCHEMA_MAPS.has(k) && isPlainObject(v)) out[k] = Object.fromEntries(Object.entries(v).map(([n, sub]) => [n, lenientSchema(sub)]));
    else if (SCHEMA_ONE.has(k)) out[k] = lenientSchema(v);
    else if (SCHEMA_LIST.has(k) && Array.isArray(v)) out[k] = v.map(lenientSchema);
    else out[k] = v;
  }
  if (typeof out.type === 'string' && out.type !== 'null') out.type = [out.type, 'null'];
  else if (Array.isArray(out.type) && !out.type.includes('null')) out.type = [...out.type, 'null'];
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  return out;
}
