/**
 * The language-model extractor: the page as Markdown within a token budget (chunked when long),
 * structured output through `response_format` json_schema when the endpoint takes it (else
 * JSON mode with the schema in the prompt, else plain prompting), each answer validated with
 * ajv and repaired by one re-ask carrying the validation errors.
 */
import type { LlmConfig } from '../config.js';
import { GleanerError } from '../errors.js';
import { chunkText, lenientSchema, mergeAnswers, parseAnswer, tidyMarkdown, CHARS_PER_TOKEN } from './chunk.js';
import { fitToSchema, unfilledFields } from './fit.js';
import { ParameterRejected, callChat, chatUrl } from './llm-http.js';
import { type CompiledSchema, type SchemaObject, compileSchema, describeErrors } from './schema.js';

export interface LlmOptions {
  llm: LlmConfig;
  signal?: AbortSignal | undefined;
  timeoutMs: number;
  maxRetries: number;
  maxInputTokens: number;
  maxChunks: number;
}

export interface LlmTask {
  url: string;
  markdown: string;
  schema?: CompiledSchema | undefined;
  prompt?: string | undefined;
}

export interface LlmResult {
  json: unknown;
  unfilled?: string[];
  /** How many chunks of the page were sent, and whether the page was cut to `maxChunks`. */
  chunks: number;
  truncated: boolean;
}

type Format = 'json_schema' | 'json_object' | 'none';
interface Capabilities {
  format: Format;
  temperature: boolean;
}

/**
 * What each endpoint accepted, learnt from its 400s (per worker thread: a race between two
 * calls only costs one more rejected request).
 */
const CAPS = new Map<string, Capabilities>();

const SYSTEM =
  'You extract data from web pages. Reply with JSON only: no prose, no code fences. ' +
  'Use only facts the page states; where it says nothing, use null.';

type Message = { role: 'system' | 'user' | 'assistant'; content: string };

function schemaName(schema: SchemaObject): string {
  const t = typeof schema.title === 'string' ? schema.title.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 64) : '';
  return t || 'extraction';
}

/** OpenAI's strict mode takes only closed objects whose every property is required. */
function strictCompatible(node: unknown): boolean {
  if (Array.isArray(node)) return node.every(strictCompatible);
  if (typeof node !== 'object' || node === null) return true;
  const n = node as Record<string, unknown>;
  if (n.properties && typeof n.properties === 'object') {
    const keys = Object.keys(n.properties);
    const req = Array.isArray(n.required) ? n.required : [];
    if (n.additionalProperties !== false || !keys.every((k) => req.includes(k))) return false;
  }
  return Object.entries(n).every(([k, v]) => k === 'enum' || k === 'const' || strictCompatible(v));
}

function userMessage(task: LlmTask, chunk: string, part: { i: number; n: number }, format: Format, schema: SchemaObject | undefined): string {
  const lines = [`Page URL: ${task.url}`];
  if (part.n > 1) lines.push(`This is part ${part.i + 1} of ${part.n} of the page: answer from this part only, null for what it does not say.`);
  if (task.prompt) lines.push('', 'Task:', task.prompt);
  if (schema && format !== 'json_schema') lines.push('', 'Return JSON that validates against this JSON Schema:', JSON.stringify(schema));
  else if (schema) lines.push('', 'Fill the requested JSON structure from the page.');
  else lines.push('', 'Return the result as one JSON object.');
  lines.push('', 'Page content (Markdown):', '<<<', chunk, '>>>');
  return lines.join('\n');
}

interface Asked {
  /** The opening messages for a request format (the schema goes in the text unless json_schema carries it). */
  opening: (format: Format) => Message[];
  /** The re-ask exchange, once there is one. */
  followUps: Message[];
  schema: SchemaObject | undefined;
  validate: ((v: unknown) => string | undefined) | undefined;
}

function endpointKey(url: string): string {
  try {
    return chatUrl(url);
  } catch {
    return url; // callChat reports the bad URL
  }
}

async function ask(asked: Asked, o: LlmOptions, deadline: number): Promise<string> {
  const key = endpointKey(o.llm.url);
  for (let tries = 0; tries < 4; tries++) {
    const caps = CAPS.get(key) ?? { format: 'json_schema', temperature: true };
    const format: Format = asked.schema ? caps.format : caps.format === 'none' ? 'none' : 'json_object';
    const messages = [...asked.opening(format), ...asked.followUps];
    const body: Record<string, unknown> = { messages };
    if (o.llm.model) body.model = o.llm.model;
    if (caps.temperature) body.temperature = 0;
    if (format === 'json_schema' && asked.schema) {
      body.response_format = { type: 'json_schema', json_schema: { name: schemaName(asked.schema), schema: asked.schema, strict: strictCompatible(asked.schema) } };
    } else if (format === 'json_object') body.response_format = { type: 'json_object' };
    try {
      return await callChat(o.llm, body, { deadline, signal: o.signal, maxRetries: o.maxRetries, timeoutMs: o.timeoutMs });
    } catch (err) {
      if (!(err instanceof ParameterRejected)) throw err;
      if (err.parameter === 'temperature') CAPS.set(key, { ...caps, temperature: false });
      else CAPS.set(key, { ...caps, format: format === 'json_schema' ? 'json_object' : 'none' });
      if (err.parameter === 'response_format' && format === 'none') throw new GleanerError('EXTRACTION_FAILED', 'The language model endpoint rejected the request format.');
    }
  }
  throw new GleanerError('EXTRACTION_FAILED', 'The language model endpoint rejected every request format tried.');
}

/** Asks for one chunk; an invalid answer gets one re-ask that carries the problem. */
async function askChunk(asked: Asked, o: LlmOptions, deadline: number): Promise<unknown> {
  let problem: string | undefined;
  for (let round = 0; round < 2; round++) {
    const content = await ask(asked, o, deadline);
    let value: unknown;
    try {
      value = parseAnswer(content);
      problem = typeof value === 'object' && value !== null ? asked.validate?.(value) : 'the answer is not a JSON object or array';
    } catch (err) {
      problem = (err as Error).message;
    }
    if (problem === undefined) return value;
    asked.followUps = [
      { role: 'assistant', content: content.slice(0, 20_000) },
      { role: 'user', content: `Your answer is invalid: ${problem}. Reply again with corrected JSON only.` },
    ];
  }
  throw new GleanerError('EXTRACTION_FAILED', `The language model's answer is still invalid after one repair attempt: ${problem}.`, {
    reason: 'invalid_answer',
    problem,
  });
}

/** Every field nullable and optional, but the answer itself still an object (structured outputs need one). */
function lenientRoot(schema: SchemaObject): SchemaObject {
  const out = lenientSchema(schema) as SchemaObject;
  if (schema.type !== undefined) out.type = schema.type;
  else delete out.type;
  return out;
}

export async function extractWithLlm(task: LlmTask, o: LlmOptions): Promise<LlmResult> {
  const deadline = Date.now() + o.timeoutMs;
  const schemaText = task.schema ? JSON.stringify(task.schema.schema) : '';
  const overhead = SYSTEM.length + (task.prompt?.length ?? 0) + schemaText.length + 600;
  const all = chunkText(tidyMarkdown(task.markdown), o.maxInputTokens * CHARS_PER_TOKEN - overhead);
  const chunks = all.slice(0, o.maxChunks);
  // One chunk may lack some fields: each answers the lenient schema, the merge is fitted after.
  const perChunk = task.schema && all.length > 1 ? compileSchema(lenientRoot(task.schema.schema)) : task.schema;
  const validate = perChunk ? (v: unknown): string | undefined => (perChunk.validate(v) ? undefined : describeErrors(perChunk.validate.errors)) : undefined;
  const answers: unknown[] = [];
  let firstInvalid: GleanerError | undefined;
  for (let i = 0; i < chunks.length; i++) {
    const chunk = chunks[i] as string;
    const opening = (format: Format): Message[] => [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: userMessage(task, chunk, { i, n: all.length }, format, perChunk?.schema) },
    ];
    try {
      answers.push(await askChunk({ opening, followUps: [], schema: perChunk?.schema, validate }, o, deadline));
    } catch (err) {
      // With several chunks, one chunk's unusable answer does not sink the others.
      if (chunks.length > 1 && err instanceof GleanerError && err.data?.reason === 'invalid_answer') firstInvalid ??= err;
      else throw err;
    }
  }
  if (answers.length === 0) throw firstInvalid ?? new GleanerError('EXTRACTION_FAILED', 'The page has no content to extract from.');
  const merged = answers.reduce((a, b) => mergeAnswers(a, b));
  const result: LlmResult = { json: merged, chunks: chunks.length, truncated: all.length > chunks.length };
  if (task.schema) {
    const fitted = fitToSchema(merged, task.schema);
    result.json = fitted.json;
    result.unfilled = unfilledFields(fitted.json, task.schema.schema, task.schema.schema);
  }
  return result;
}
