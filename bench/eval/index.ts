/**
 * The family evaluators `npm run eval:parsers` runs, one line each (see types.ts).
 */
import { COMMERCE_LISTING_EVAL, COMMERCE_PRODUCT_EVAL } from './commerce.js';
import { MKT1_EVAL } from './mkt1.js';
import { SEARCH_ENGINES } from './search-engines.js';
import type { FamilyEval } from './types.js';
import { VIDEO_EVAL } from './video.js';

export const EVALUATORS: readonly FamilyEval[] = [SEARCH_ENGINES, MKT1_EVAL, VIDEO_EVAL, COMMERCE_PRODUCT_EVAL, COMMERCE_LISTING_EVAL];
