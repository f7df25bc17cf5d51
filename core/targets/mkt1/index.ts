/**
 * The large marketplace `mkt1`: its routes, URL vocabulary and flows (plan.ts, location.ts),
 * parsers per page kind, output schemas, and its validation (postal codes per marketplace).
 */
import type { TargetAdapter } from '../adapter.js';
import { PARSERS } from './parsers.js';
import { planMkt1 } from './plan.js';
import { MARKETPLACE_ROUTES } from './routes.js';
import { checkTarget, MKT1_RULES } from './rules.js';
import { OUTPUT_SCHEMAS } from './schemas.js';

export const mkt1: TargetAdapter = {
  name: 'mkt1',
  routes: MARKETPLACE_ROUTES,
  plan: planMkt1,
  parsers: PARSERS,
  outputSchemas: OUTPUT_SCHEMAS,
  rules: MKT1_RULES,
  checkTarget,
  // Its robot check answers a client it does not believe: a real browser on a fresh address
  // is the last thing worth trying before the wall is returned as `blocked`.
  escalation: { browser: true },
};
