/** The large marketplace `mkt1`: routes and postal-code validation; pages follow the default convention so far. */
import type { TargetAdapter } from '../adapter.js';
import { planDefault } from '../default.js';
import { MARKETPLACE_ROUTES } from './routes.js';
import { MKT1_RULES } from './rules.js';

export const mkt1: TargetAdapter = { name: 'mkt1', routes: MARKETPLACE_ROUTES, plan: planDefault, parsers: {}, rules: MKT1_RULES };
