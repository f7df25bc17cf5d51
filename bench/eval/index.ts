/**
 * The family evaluators `npm run eval:parsers` runs, one line each (see types.ts).
 */
import { SEARCH_ENGINES } from './search-engines.js';
import type { FamilyEval } from './types.js';
import { VIDEO_EVAL } from './video.js';

export const EVALUATORS: readonly FamilyEval[] = [SEARCH_ENGINES, VIDEO_EVAL];
