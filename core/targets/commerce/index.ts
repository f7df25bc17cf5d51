/**
 * The commerce family adapter (the 16 retail families of DESIGN.md's token table, 43 routes):
 * routes, planner, parsers, output schemas and the start-time check of each token's
 * GLEANER_TARGETS entry. README.md tells operators how to write an entry.
 */
import type { TargetAdapter } from '../adapter.js';
import { checkTarget } from './config.js';
import { PARSERS } from './parsers.js';
import { planCommerce } from './plan.js';
import { COMMERCE_ROUTES } from './routes.js';
import { OUTPUT_SCHEMAS } from './schemas.js';

export const commerce: TargetAdapter = {
  name: 'commerce',
  routes: COMMERCE_ROUTES,
  plan: planCommerce,
  parsers: PARSERS,
  outputSchemas: OUTPUT_SCHEMAS,
  checkTarget,
  // Retail bot managers (challenge scripts, captcha vendors) let a real browser through where
  // a plain client is walled: one rendered attempt before the wall is returned as `blocked`.
  escalation: { browser: true },
};
