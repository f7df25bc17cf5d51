/**
 * AI assistants `llm1`, `llm2`, `llm3` (spec 4.3): async and batch only, no sync path.
 * Billed as web_scraper_api. Answers may differ between identical requests.
 */
import { ASYNC_BATCH, defineRoute } from '../../registry/define.js';
import { ASSISTANT_QUERY_MAX, bool, query } from '../../registry/params.js';
import type { ParamSpec, RouteSpec } from '../../registry/types.js';

const QUESTION = query('The question to ask.', ASSISTANT_QUERY_MAX);

/** The answer is the point of these routes: `json` is always filled (spec 2.3), `output` defaults to json. */
const assistant = (target: string, params: Record<string, ParamSpec>, summary: string): RouteSpec =>
  defineRoute({ path: target, target, family: 'assistant', modes: ASYNC_BATCH, params, summary, outputKind: 'answer' });

export const ASSISTANT_ROUTES: readonly RouteSpec[] = [
  assistant(
    'llm1',
    {
      query: QUESTION,
      // No default: the spec says neither value is neutral, so an omitted flag leaves the
      // assistant's own behaviour and is not echoed.
      search: bool('true lets the assistant browse and cite sources; false answers from training data only.'),
    },
    'llm1 answer: response_text, markdown_text, model.',
  ),
  assistant('llm2', { query: QUESTION }, 'llm2 answer: response_text, markdown_text, model.'),
  assistant('llm3', { query: QUESTION }, 'llm3 answer with cited sources: answer_results, related_queries.'),
];
