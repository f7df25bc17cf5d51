/**
 * The commerce family adapter (the 16 retail families of DESIGN.md's token table, 43 routes):
 * routes, planner, parsers, output schemas and the start-time check of each token's
 * GLEANER_TARGETS entry. README.md tells operators how to write an entry.
 */
import { COMMERCE_ROUTES } from '../../registry/commerce.js';
import type { TargetAdapter } from '../adapter.js';
import { checkTarget } from './config.js';
import { PARSERS } from './parsers.js';
import { planCommerce } from './plan.js';
import { OUTPUT_SCHEMAS } from './schemas.js';

export { checkTarget, OUTPUT_SCHEMAS, PARSERS, planCommerce };

export const COMMERCE: TargetAdapter = {
  name: 'commerce',
  routes: COMMERCE_ROUTES,
  plan: planCommerce,
  parsers: PARSERS,
  outputSchemas: OUTPUT_SCHEMAS,
  checkTarget,
};
