/**
 * The family evaluators `npm run eval:parsers` runs, one line each (see types.ts).
 */
import { MKT1_EVAL } from './mkt1.js';
import type { FamilyEval } from './types.js';

export const EVALUATORS: readonly FamilyEval[] = [MKT1_EVAL];
