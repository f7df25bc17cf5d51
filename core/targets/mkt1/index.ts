/**
 * The mkt1 target adapter (large marketplace): routes, URL vocabulary and flows, parsers,
 * output schemas and rules in one object, for the adapter assembly of core/targets.
 * The routes still live in core/registry/marketplace.ts (they move here with the assembly).
 */
import { MARKETPLACE_ROUTES } from '../../registry/marketplace.js';
import type { TargetAdapter } from '../adapter.js';
import { PARSERS } from './parsers.js';
import { planMkt1 } from './plan.js';
import { checkTarget, RULES } from './rules.js';
import { OUTPUT_SCHEMAS } from './schemas.js';

export const MKT1: TargetAdapter = {
  name: 'mkt1',
  routes: MARKETPLACE_ROUTES,
  plan: planMkt1,
  parsers: PARSERS,
  outputSchemas: OUTPUT_SCHEMAS,
  rules: RULES,
  checkTarget,
};

export { PARSERS, OUTPUT_SCHEMAS, planMkt1, RULES };
