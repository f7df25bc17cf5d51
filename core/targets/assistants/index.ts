/** The AI assistants `llm1`, `llm2`, `llm3`: routes only so far; pages follow the default convention. */
import type { TargetAdapter } from '../adapter.js';
import { planDefault } from '../default.js';
import { ASSISTANT_ROUTES } from './routes.js';

export const assistants: TargetAdapter = { name: 'assistants', routes: ASSISTANT_ROUTES, plan: planDefault, parsers: {} };
