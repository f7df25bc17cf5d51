/**
 * `POST /v1/search` (spec 4.1, 2.2): the configured engines are queried in parallel through the
 * farm (each its own task and deadline), their parsed first pages merged, de-duplicated and
 * ranked (core/search/merge.ts), and the list capped at `max_results`.
 *
 * - An engine counts as failed when its fetch fails, or its page is not recognised as results.
 * - One engine failing still answers `state: "done"`; all failing answers 500
 *   REQUEST_FAILED_AFTER_MANY_RETRIES with `state: "faulted"` and `params`, not charged.
 * - Engines without a `GLEANER_TARGETS` entry are not queried; with neither configured the
 *   search is refused before anything is admitted or charged: 501 TARGET_NOT_CONFIGURED, as on
 *   every dedicated route whose target has no upstream.
 */
import { GleanerError, toWireError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { mergeResults, type EngineResults } from '../../core/search/merge.js';
import { validate } from '../../core/schema/index.js';
import type { ScrapeOutcome } from '../../core/wire.js';
import type { Handler, Services } from '../context.js';
import type { Reply } from '../http.js';
import type { QuotaHold } from '../quota.js';
import { charge } from '../usage.js';

/** Engines in rank-tie order, with their weight in the merge. */
const ENGINES = [
  { target: 'se1', routeId: 'se1/search', weight: 1 },
  { target: 'se2', routeId: 'se2/search', weight: 0.9 },
] as const;

/** Each engine's share of the sync deadline; a slow engine is dropped, not waited for. */
const ENGINE_DEADLINE_MS = 30_000;

interface EngineAnswer {
  engine: (typeof ENGINES)[number];
  params: Record<string, unknown>;
  outcome?: ScrapeOutcome;
  results?: EngineResults;
  error?: string;
}

interface ParsedSerp {
  organic?: Array<{ title: string; url: string; snippet: string | null; position: number }>;
  people_also_ask?: Array<{ question: string; title: string | null; snippet: string | null }>;
  related_searches?: Array<{ query: string }>;
}

async function ask(svc: Services, engine: (typeof ENGINES)[number], query: Record<string, unknown>, clientId: number, signal: AbortSignal): Promise<EngineAnswer> {
  const checked = validate({ kind: 'scrape', routeId: engine.routeId, mode: 'sync' }, { query: query.query, location: query.location, output: ['json'] });
  if (!checked.ok) return { engine, params: {}, error: `invalid engine request: ${checked.errors[0].detail}` };
  const params = checked.params;
  try {
    const deadline = Date.now() + Math.min(ENGINE_DEADLINE_MS, svc.config.syncTimeoutMs);
    const outcome = await svc.farm!.run({ id: newId(), routeId: engine.routeId, params, accountId: clientId, deadline }, signal);
    const page = outcome.results[0];
    if (!page || page.metadata.parse_status === 'unrecognised') return { engine, params, outcome, error: 'page not recognised as search results' };
    const serp = (page.json ?? {}) as ParsedSerp;
    return {
      engine,
      params,
      outcome,
      results: {
        engine: engine.target,
        organic: serp.organic ?? [],
        related_questions: serp.people_also_ask ?? [],
        related_searches: serp.related_searches ?? [],
      },
    };
  } catch (err) {
    return { engine, params, error: toWireError(err).message };
  }
}

/** A search's answer: the 200 body, or the faulted search's problem (all engines failed). */
export type SearchAnswer = { ok: true; body: Record<string, unknown> } | { ok: false; detail: string; params: Record<string, unknown> };

/** Runs one validated search (the HTTP route and the MCP `search` tool). */
/** `reply`, when the search answers over HTTP, carries the quota headers. */
export async function runSearch(svc: Services, validated: Record<string, unknown>, clientId: number, signal: AbortSignal, requestId: string, reply?: Reply): Promise<SearchAnswer> {
  if (!svc.farm) throw new GleanerError('SERVICE_UNAVAILABLE');
  const params = { query: validated.query, location: validated.location ?? null, max_results: validated.max_results };
  const engines = ENGINES.filter((e) => svc.config.targets[e.target]);
  if (engines.length === 0) {
    throw new GleanerError(
      'TARGET_NOT_CONFIGURED',
      'No search engine is configured on this server: the operator adds {"se1": {"baseUrl": "https://..."}} (or se2) to the GLEANER_TARGETS file.',
      { targets: ENGINES.map((e) => e.target) },
    );
  }
  if (!svc.admission.acquire(clientId)) throw new GleanerError('TOO_MANY_REQUESTS');
  let answers: EngineAnswer[];
  let ok: Array<EngineAnswer & { results: EngineResults; outcome: ScrapeOutcome }>;
  let hold: QuotaHold | undefined;
  try {
    // One page per engine asked, held until the engines that answered are charged (durably, before the answer).
    hold = svc.quota.reserve(clientId, { pages: Math.max(1, engines.length), rendered: false }, reply);
    answers = await Promise.all(engines.map((e) => ask(svc, e, params, clientId, signal)));
    ok = answers.filter((a): a is EngineAnswer & { results: EngineResults; outcome: ScrapeOutcome } => a.results !== undefined);
    await Promise.all(ok.map((a) => charge(svc, { clientId, routeId: a.engine.routeId, params: a.params, mode: 'realtime', usage: a.outcome.usage })));
  } finally {
    hold?.release();
    svc.admission.release(clientId);
  }
  for (const failed of answers.filter((a) => a.error)) {
    svc.log.warn({ request_id: requestId, engine: failed.engine.target, error: failed.error }, 'search engine failed');
  }
  if (ok.length === 0) {
    return { ok: false, detail: 'Every search engine failed.', params };
  }
  const merged = mergeResults(
    ok.map((a) => a.results),
    { maxResults: params.max_results as number, weights: Object.fromEntries(ENGINES.map((e) => [e.target, e.weight])) },
  );
  return {
    ok: true,
    body: {
      state: 'done',
      results: merged.results,
      related_questions: merged.related_questions,
      related_searches: merged.related_searches,
      params,
      metadata: { timestamp: Math.floor(Date.now() / 1000), request_id: requestId },
    },
  };
}

export const search: Handler = async (ctx, svc) => {
  const answer = await runSearch(svc, ctx.params, ctx.account!.clientId, ctx.reply.signal, ctx.requestId, ctx.reply);
  if (!answer.ok) {
    return ctx.reply.problem('REQUEST_FAILED_AFTER_MANY_RETRIES', { requestId: ctx.requestId, detail: answer.detail, state: 'faulted', params: answer.params });
  }
  ctx.reply.json(200, answer.body);
};
