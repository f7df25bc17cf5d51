/**
 * The family evaluators `npm run eval:parsers` runs, one line each (see types.ts).
 */
import type { FamilyEval } from './types.js';

export const EVALUATORS: readonly FamilyEval[] = [];
