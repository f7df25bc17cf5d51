/**
 * One fetched page → one `results[]` entry (spec 2.3): one key per requested format, the rest
 * null. `json` comes from custom extraction when `params.json` has a schema or prompt, else
 * from the route's built-in parser.
 */
import type { LlmConfig } from '../../core/config.js';
import { htmlToMarkdown } from '../../core/markdown/index.js';
import type { PageInput } from '../../core/parsers/types.js';
import { extractionPage, parsePage } from '../../core/targets/index.js';
import type { OutputFormat, PageMetadata, PageResult } from '../../core/wire.js';
import type { TaskAbort } from './abort.js';
import type { MarkdownHelper } from './markdown-helper.js';

import { lazy } from './lazy.js';

/** Custom extraction (the schema compiler, the LLM client, undici) loads with the first task that asks for it (lazy.ts). */
const extraction = lazy('../../core/extraction/index.js', () => import('../../core/extraction/index.js'));

export interface FetchedPage {
  url: string;
  status: number;
  /** Text of the page (rendered DOM with run_js); base64 when `binary`. */
  body: string;
  isHtml: boolean;
  binary: boolean;
  screenshot: string | null;
  runJs: boolean;
  requestBytes: number;
  responseBytes: number;
}

const FORMATS: readonly OutputFormat[] = ['html', 'markdown', 'json', 'screenshot'];

export function outputFormats(output: unknown): Set<OutputFormat> {
  const list = Array.isArray(output) ? output : typeof output === 'string' ? [output] : [];
  const set = new Set(list.filter((f): f is OutputFormat => FORMATS.includes(f as OutputFormat)));
  if (set.size === 0) set.add('html');
  return set;
}

export interface OutputContext {
  routeId: string;
  params: Record<string, unknown>;
  page: number;
  formats: Set<OutputFormat>;
  llm: LlmConfig | undefined;
  /** The task's abort state; extraction gets a real AbortSignal from it. */
  abort: TaskAbort;
  /** Bodies the page's flow kept besides the page (continuations, fragments), for the parser. */
  parts?: Readonly<Record<string, readonly string[]>>;
  /** A render thread's helper for the Markdown of pages it did not render (markdown-helper.ts). */
  markdown?: MarkdownHelper;
}

function toMarkdown(p: FetchedPage, ctx: OutputContext): string | Promise<string> {
  return ctx.markdown && !p.runJs ? ctx.markdown.markdown(p.body, p.url, ctx.abort.signal) : htmlToMarkdown(p.body, p.url);
}

export async function pageResult(p: FetchedPage, ctx: OutputContext): Promise<PageResult> {
  const metadata: PageMetadata = { page: ctx.page, run_js: p.runJs, url: p.url, status_code: p.status };
  const wantsMarkdown = ctx.formats.has('markdown');
  let markdown: string | null = null;
  if (wantsMarkdown) markdown = p.binary ? '' : p.isHtml ? await toMarkdown(p, ctx) : p.body;
  let json: unknown = null;
  if (ctx.formats.has('json') && !p.binary) {
    const spec = ctx.params.json as { schema?: Record<string, unknown> | null; prompt?: string | null } | null | undefined;
    if (spec && (spec.schema || spec.prompt)) {
      // Subtitles: the answer is in the flow's later requests, which only the parser joins.
      const parsedDoc = extractionPage(ctx.routeId, pageInput(p, ctx));
      const extracted = await (await extraction()).extractJson(
        parsedDoc !== undefined ? { html: parsedDoc, url: p.url } : { html: p.body, url: p.url, ...(markdown !== null ? { markdown } : {}) },
        { schema: spec.schema ?? null, prompt: spec.prompt ?? null },
        { llm: ctx.llm, signal: ctx.abort.signal },
      );
      json = extracted.json;
      metadata.json_source = extracted.source;
      if (extracted.unfilled !== undefined) metadata.unfilled = extracted.unfilled;
      if (extracted.fields !== undefined) metadata.json_fields = extracted.fields;
    } else {
      const parsed = parsePage(ctx.routeId, pageInput(p, ctx));
      if (parsed) {
        json = parsed.json;
        metadata.json_source = 'builtin';
        metadata.parse_status = parsed.status;
        if (parsed.missing?.length) metadata.missing_sections = parsed.missing;
      }
    }
  }
  return {
    html: ctx.formats.has('html') ? p.body : null,
    markdown,
    screenshot: ctx.formats.has('screenshot') ? p.screenshot : null,
    json,
    metadata,
  };
}

function pageInput(p: FetchedPage, ctx: OutputContext): PageInput {
  return { html: p.body, url: p.url, page: ctx.page, params: ctx.params, ...(ctx.parts && Object.keys(ctx.parts).length ? { parts: ctx.parts } : {}) };
}
