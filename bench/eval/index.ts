/**
 * The family evaluators `npm run eval:parsers` runs, one line each (see types.ts).
 */
import { COMMERCE_LISTING_EVAL, COMMERCE_PRODUCT_EVAL } from './commerce.js';
import type { FamilyEval } from './types.js';

export const EVALUATORS: readonly FamilyEval[] = [COMMERCE_PRODUCT_EVAL, COMMERCE_LISTING_EVAL];
