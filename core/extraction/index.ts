/**
 * Custom extraction (seam: owned by the extraction work): the caller's `json.schema` or
 * `json.prompt` shapes `results[].json`, overriding the built-in parser.
 */
import type { LlmConfig } from '../config.js';
import type { JsonSource } from '../wire.js';
import { GleanerError } from '../errors.js';

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
  /** Schema fields that could not be filled. */
  unfilled?: string[];
}

export interface ExtractionOptions {
  llm: LlmConfig | undefined;
  signal?: AbortSignal;
}

export async function extractJson(
  input: ExtractionInput,
  spec: ExtractionSpec,
  opts: ExtractionOptions,
): Promise<ExtractionResult> {
  void input;
  void spec;
  void opts;
  throw new GleanerError('EXTRACTION_FAILED', 'extraction is not built yet');
}
