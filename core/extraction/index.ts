/**
 * Custom extraction: the caller's `json.schema` or `json.prompt` shapes `results[].json`,
 * overriding the built-in parser (spec 2.1, 4.2).
 *
 * - `json.prompt` needs a language model (GLEANER_LLM_URL): without one, LLM_NOT_CONFIGURED.
 * - `json.schema` uses the model when one is configured, else the offline extractor, which
 *   reads the page's structured data, tables, labels and text (offline.ts), fills only fields
 *   it is confident of, and says where each value was read (`fields`).
 * - The answer validates against the caller's schema: values that do not fit are nulled or
 *   dropped, and declared fields left empty are listed in `unfilled` as JSON Pointers into
 *   the result (`/price`, `/products/2/rating`; see fit.ts).
 * - Every failure is a GleanerError (EXTRACTION_FAILED, LLM_NOT_CONFIGURED, VALIDATION_ERROR)
 *   whose message and data never contain the model key.
 */
import type { LlmConfig } from '../config.js';
import { GleanerError } from '../errors.js';
import { htmlToMarkdown } from '../markdown/index.js';
import type { JsonSource } from '../wire.js';
import { redact } from './llm-http.js';
import { extractWithLlm } from './llm.js';
import type { SourceTree } from './fill.js';
import { extractOffline } from './offline.js';
import { type CompiledSchema, type SchemaObject, compileSchema } from './schema.js';

export interface ExtractionInput {
  html: string;
  url: string;
  /** Markdown of the page when already produced (saves converting twice). */
  markdown?: string;
}

export interface ExtractionSpec {
  schema?: Record<string, unknown> | null;
  prompt?: string | null;
}

export interface ExtractionResult {
  json: unknown;
  source: Exclude<JsonSource, 'builtin'>;
  /** Declared schema fields that could not be filled: JSON Pointers into `json` (`/price`, `/items/0/rating`). */
  unfilled?: string[];
  /** Offline only: where each value was read, in the answer's shape (`{heading: "h1", offer: {price: "jsonld:Product.offers.price"}}`). */
  fields?: SourceTree;
  /** LLM only: how many chunks of the page were sent. */
  chunks?: number;
  /** LLM only: the page was longer than `maxChunks` chunks and its end was not read. */
  truncated?: boolean;
}

export interface ExtractionOptions {
  llm: LlmConfig | undefined;
  signal?: AbortSignal;
  /** Deadline for the whole model exchange, retries included (default 60 000 ms). */
  timeoutMs?: number;
  /** Retries after 429, 5xx or a dropped connection (default 3). */
  maxRetries?: number;
  /** Page tokens per request, estimated at 4 characters per token (default 16 000). */
  maxInputTokens?: number;
  /** Most chunks of one page sent to the model (default 4). */
  maxChunks?: number;
}

export const EXTRACTION_DEFAULTS = { timeoutMs: 60_000, maxRetries: 3, maxInputTokens: 16_000, maxChunks: 4 } as const;

function llmReady(llm: LlmConfig | undefined): llm is LlmConfig {
  return llm !== undefined && typeof llm.url === 'string' && llm.url !== '';
}

function compileOrRefuse(schema: Record<string, unknown>): CompiledSchema {
  try {
    return compileSchema(schema as SchemaObject);
  } catch (err) {
    const detail = `json.schema is not a valid JSON Schema: ${(err as Error).message}`.slice(0, 500);
    throw new GleanerError('VALIDATION_ERROR', detail, { errors: [{ pointer: '#/json/schema', detail }] });
  }
}

/**
 * Refuses, before anything is fetched, what extraction could never do: neither or both of
 * prompt and schema, a schema ajv cannot compile, a prompt with no model configured.
 */
export function checkExtractionConfig(spec: ExtractionSpec, llm: LlmConfig | undefined): void {
  const hasPrompt = typeof spec.prompt === 'string';
  const hasSchema = spec.schema !== undefined && spec.schema !== null;
  if (hasPrompt === hasSchema) {
    const detail = hasPrompt ? 'json takes either prompt or schema, not both.' : 'json needs a prompt or a schema.';
    throw new GleanerError('VALIDATION_ERROR', detail, { errors: [{ pointer: '#/json', detail }] });
  }
  if (hasSchema) compileOrRefuse(spec.schema as Record<string, unknown>);
  if (hasPrompt && !llmReady(llm)) throw new GleanerError('LLM_NOT_CONFIGURED');
}

function scrub(err: unknown, key: string | undefined): GleanerError {
  if (!(err instanceof GleanerError)) {
    // Not one of ours: its text is unknown and may carry anything, so it is not passed on.
    return new GleanerError('EXTRACTION_FAILED', 'Custom extraction failed unexpectedly.');
  }
  if (!key) return err;
  const data = err.data === undefined ? undefined : (JSON.parse(redact(JSON.stringify(err.data), key)) as Record<string, unknown>);
  return new GleanerError(err.code, redact(err.message, key), data);
}

export async function extractJson(input: ExtractionInput, spec: ExtractionSpec, opts: ExtractionOptions): Promise<ExtractionResult> {
  const key = opts.llm?.key;
  try {
    checkExtractionConfig(spec, opts.llm);
    const compiled = spec.schema ? compileOrRefuse(spec.schema) : undefined;
    if (!llmReady(opts.llm)) {
      const r = extractOffline(input.html, input.url, compiled as CompiledSchema);
      return { json: r.json, source: 'offline', unfilled: r.unfilled, fields: r.fields ?? {} };
    }
    opts.signal?.throwIfAborted();
    const markdown = input.markdown ?? htmlToMarkdown(input.html, input.url);
    const r = await extractWithLlm(
      { url: input.url, markdown, schema: compiled, prompt: spec.prompt ?? undefined },
      {
        llm: opts.llm,
        signal: opts.signal,
        timeoutMs: opts.timeoutMs ?? EXTRACTION_DEFAULTS.timeoutMs,
        maxRetries: opts.maxRetries ?? EXTRACTION_DEFAULTS.maxRetries,
        maxInputTokens: opts.maxInputTokens ?? EXTRACTION_DEFAULTS.maxInputTokens,
        maxChunks: opts.maxChunks ?? EXTRACTION_DEFAULTS.maxChunks,
      },
    );
    const out: ExtractionResult = { json: r.json, source: 'llm', chunks: r.chunks, truncated: r.truncated };
    if (r.unfilled) out.unfilled = r.unfilled;
    return out;
  } catch (err) {
    if (opts.signal?.aborted && !(err instanceof GleanerError)) throw new GleanerError('EXTRACTION_FAILED', 'The extraction was cancelled.');
    throw scrub(err, key);
  }
}
