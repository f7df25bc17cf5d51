/** The search engine `se2`: its routes, URL vocabulary (plan.ts) and parser (one page kind). */
import type { TargetAdapter } from '../adapter.js';
import { SE_OUTPUT_SCHEMAS } from '../se1/schemas.js';
import { parseSe2Search } from './parse.js';
import { planSe2 } from './plan.js';
import { SE2_ROUTES } from './routes.js';

export const se2: TargetAdapter = {
  name: 'se2',
  routes: SE2_ROUTES,
  plan: planSe2,
  parsers: { 'se2/search': parseSe2Search, se2: parseSe2Search },
  outputSchemas: SE_OUTPUT_SCHEMAS,
};
