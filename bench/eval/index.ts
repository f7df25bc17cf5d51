/**
 * The family evaluators `npm run eval:parsers` runs, one line each (see types.ts).
 */
import { GENERIC_EVAL, RETAIL_EVAL } from './commerce.js';
import { MKT1_EVAL } from './mkt1.js';
import { SE1_EVAL, SE2_EVAL } from './search-engines.js';
import type { FamilyEval } from './types.js';
import { VIDEO_EVAL } from './video.js';

export const EVALUATORS: readonly FamilyEval[] = [SE1_EVAL, SE2_EVAL, MKT1_EVAL, RETAIL_EVAL, VIDEO_EVAL, GENERIC_EVAL];
