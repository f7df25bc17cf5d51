/**
 * Running one MCP tool call through the same walk as the HTTP routes: entitlement, the
 * endpoint's compiled validator (defaults filled), the extraction pre-check, admission, the
 * farm, the usage ledger. A refusal or failure is a tool error (`isError`) carrying the problem
 * document's title and detail — never a protocol error, so agents can read and correct it.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { GleanerError, toWireError, type FieldError, type WireError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { problemFromWire, type ProblemDocument } from '../../core/problem.js';
import { checkJsonText, validate } from '../../core/schema/index.js';
import { entitled, type Account } from '../../core/store/accounts.js';
import type { JobRecord } from '../../core/store/jobs.js';
import type { PageResult, ScrapeTask } from '../../core/wire.js';
import type { Services } from '../context.js';
import { collectionBody, submitJobs } from '../handlers/jobs.js';
import { runAdmitted, scrapeResponse } from '../handlers/scrape.js';
import { runSearch } from '../handlers/search.js';
import { refuseUnrunnable } from '../runnable.js';
import { EXTRACT_FIELDS, type ToolDef } from './tools.js';
import { isCrawlTool, runCrawlTool } from './crawl-tools.js';

export interface CallContext {
  svc: Services;
  account: Account;
  /** Aborted by the client's `notifications/cancelled` (or its going away). */
  signal: AbortSignal;
  /** Tells the client the call is still alive (a progress notification, when it asked for them). */
  progress(message: string): void;
}

function errorResult(problem: ProblemDocument): CallToolResult {
  const lines = [`${problem.title}: ${problem.detail}`];
  for (const e of problem.errors ?? []) lines.push(`${e.pointer}: ${e.detail}`);
  return { isError: true, content: [{ type: 'text', text: lines.join('\n') }, { type: 'text', text: JSON.stringify(problem) }] };
}

function refusal(wire: WireError, requestId: string): CallToolResult {
  return errorResult(problemFromWire(wire, { requestId }));
}

/** Page bodies as MCP content: Markdown and HTML as text, screenshots as images, JSON as text too. */
export function scrapeResult(body: { status: unknown; results: PageResult[]; params: unknown; metadata: unknown }): CallToolResult {
  const content: CallToolResult['content'] = [];
  for (const page of body.results) {
    if (page.markdown !== null && page.markdown !== undefined) content.push({ type: 'text', text: page.markdown });
    if (page.html !== null && page.html !== undefined) content.push({ type: 'text', text: page.html });
    if (page.screenshot) content.push({ type: 'image', data: page.screenshot, mimeType: 'image/png' });
    if (page.json !== null && page.json !== undefined) content.push({ type: 'text', text: JSON.stringify(page.json) });
  }
  if (content.length === 0) content.push({ type: 'text', text: `No content (status ${String(body.status)}).` });
  return {
    content,
    structuredContent: {
      status: body.status,
      results: body.results.map((page) => ({ json: page.json ?? null, metadata: page.metadata })),
      params: body.params,
      metadata: body.metadata,
    },
  };
}

/** The `extract` tool's flat arguments as a generic-route body; pointers map back to them. */
function extractBody(args: Record<string, unknown>): Record<string, unknown> | FieldError {
  const { prompt, schema, ...rest } = args;
  if ((prompt === undefined) === (schema === undefined)) return { pointer: '#/prompt', detail: 'give exactly one of prompt and schema' };
  return { ...rest, output: ['json'], json: prompt !== undefined ? { prompt } : { schema } };
}

function extractPointer(pointer: string): string {
  for (const field of EXTRACT_FIELDS) if (pointer.startsWith(`#/json/${field}`)) return `#/${pointer.slice('#/json/'.length)}`;
  return pointer === '#/json' ? '#' : pointer;
}

/**
 * Runs a call and records it in the console's activity like the HTTP request it stands for
 * (latency of sync work, the problem title of a refusal). A cancelled call is not recorded.
 */
export async function callTool(tool: ToolDef, rawArgs: Record<string, unknown>, cc: CallContext): Promise<CallToolResult> {
  const started = performance.now();
  const result = await runTool(tool, rawArgs, cc);
  const problem = result.isError ? (JSON.parse((result.content[1] as { text: string } | undefined)?.text ?? '{}') as Partial<ProblemDocument>) : undefined;
  cc.svc.activity.request(tool.kind === 'search' ? 'search' : 'scrape', problem?.status ?? 200, performance.now() - started, problem?.title);
  return result;
}

async function runTool(tool: ToolDef, rawArgs: Record<string, unknown>, cc: CallContext): Promise<CallToolResult> {
  const { svc, account } = cc;
  const requestId = newId();
  try {
    if (!entitled(account.entitlements, tool.entitlement)) {
      throw new GleanerError('FORBIDDEN', `This account is not entitled to the ${tool.name} tool (route ${tool.entitlement}).`);
    }
    // The HTTP API's checks on any body: well-formed text (no lone surrogate), bounded nesting.
    const badText = checkJsonText(rawArgs);
    if (badText) throw new GleanerError('VALIDATION_ERROR', undefined, { errors: [badText] });
    if (isCrawlTool(tool)) return await runCrawlTool(tool, rawArgs, cc);
    let args: Record<string, unknown> = { ...tool.defaults, ...rawArgs };
    if (tool.kind === 'extract') {
      const mapped = extractBody(rawArgs);
      if ('pointer' in mapped) throw new GleanerError('VALIDATION_ERROR', undefined, { errors: [mapped] });
      args = mapped;
    }
    const checked = validate(tool.endpoint, args);
    if (!checked.ok) {
      const errors = tool.kind === 'extract' ? checked.errors.map((e) => ({ ...e, pointer: extractPointer(e.pointer) })) : checked.errors;
      throw new GleanerError('VALIDATION_ERROR', undefined, { errors });
    }
    const params = checked.params;
    refuseUnrunnable(tool.endpoint.kind === 'scrape' ? tool.endpoint.routeId : undefined, params, svc);
    if (tool.kind === 'search') {
      const answer = await runSearch(svc, params, account.clientId, cc.signal, requestId);
      if (!answer.ok) return errorResult(problemFromWire({ code: 'REQUEST_FAILED_AFTER_MANY_RETRIES', message: answer.detail }, { requestId, state: 'faulted', params: answer.params }));
      return { content: [{ type: 'text', text: JSON.stringify(answer.body) }], structuredContent: answer.body };
    }
    if (tool.endpoint.kind === 'scrape' && tool.endpoint.mode === 'async') return await viaJob(tool.endpoint.routeId, params, cc);
    const routeId = tool.endpoint.kind === 'scrape' ? tool.endpoint.routeId : 'universal';
    const task: ScrapeTask = { id: requestId, routeId, params, accountId: account.clientId, deadline: Date.now() + svc.config.syncTimeoutMs };
    const outcome = await runAdmitted(svc, task, { signal: cc.signal });
    const body = scrapeResponse(outcome, params, requestId);
    return scrapeResult(body as { status: number; results: PageResult[]; params: unknown; metadata: unknown });
  } catch (err) {
    if (cc.signal.aborted) throw err;
    return refusal(toWireError(err), requestId);
  }
}

/**
 * Routes without a sync mode: submit one async job (committed like any other, so it is
 * charged and delivered the same way), then wait for its final event. Cancelling the call
 * stops the wait; the job itself runs to its end, as an HTTP-submitted one would.
 */
async function viaJob(routeId: string, params: Record<string, unknown>, cc: CallContext): Promise<CallToolResult> {
  const { svc, account } = cc;
  // Admitted against the quota like an HTTP submission (no response headers to carry it here).
  const submitted = await submitJobs(svc, account.clientId, routeId, 'async', params);
  const jobId = (submitted.metadata as { request_id: string }).request_id;
  cc.progress(`job ${jobId} accepted`);
  const job = await new Promise<JobRecord>((resolve, reject) => {
    // Subscribe first, then check the store: a job that finished in between is not missed.
    const stop = svc.events.subscribe((event) => {
      if (event.jobId !== jobId) return;
      if (event.type === 'started') cc.progress(`job ${jobId} running`);
      if (event.type === 'done' || event.type === 'failed') settle();
    });
    const onAbort = (): void => {
      stop();
      reject(cc.signal.reason);
    };
    const settle = (): void => {
      svc.store.jobs.get(jobId).then((record) => {
        if (!record || (record.status !== 'done' && record.status !== 'faulted')) return;
        stop();
        cc.signal.removeEventListener('abort', onAbort);
        resolve(record);
      }, reject);
    };
    cc.signal.addEventListener('abort', onAbort, { once: true });
    settle();
  });
  const body = await collectionBody(svc, job);
  if (job.status === 'faulted' && job.error) return refusal(job.error, job.id);
  return scrapeResult({ status: body.status_code, results: body.results as PageResult[], params: body.params, metadata: body.metadata });
}
