/**
 * The AI assistants `llm1`, `llm2`, `llm3`: each question is a browser script on the
 * assistant's own chat page (plan.ts), built from chat-page data an operator can replace
 * (data.ts, `GLEANER_ASSISTANTS`); the answer is read from the page's stream where it has one
 * and from the page by selector (parse.ts).
 */
import type { TargetAdapter } from '../adapter.js';
import { checkData, isAssistant } from './data.js';
import { parseChatAnswer, parseSearchAnswer } from './parse.js';
import { planAssistant } from './plan.js';
import { ASSISTANT_ROUTES } from './routes.js';
import { ASSISTANT_OUTPUT_SCHEMAS } from './schemas.js';

export const assistants: TargetAdapter = {
  name: 'assistants',
  routes: ASSISTANT_ROUTES,
  plan: planAssistant,
  parsers: { llm1: parseChatAnswer, llm2: parseChatAnswer, llm3: parseSearchAnswer },
  outputSchemas: ASSISTANT_OUTPUT_SCHEMAS,
  checkTarget(token, cfg) {
    const errors: string[] = [];
    if (cfg.storageState !== undefined && (typeof cfg.storageState !== 'string' || cfg.storageState === '')) {
      errors.push('"storageState" must name a storage-state file');
    }
    // The chat-page data GLEANER_ASSISTANTS carried here (core/config.ts) or written inline.
    if (isAssistant(token)) for (const problem of checkData(token, cfg.assistant)) errors.push(`assistant data: ${problem}`);
    return errors;
  },
};

export { checkAssistants } from './data.js';
