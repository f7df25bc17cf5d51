/**
 * The family evaluators `npm run eval:parsers` runs, one line each (see types.ts).
 */
import type { FamilyEval } from './types.js';
import { VIDEO_EVAL } from './video.js';

export const EVALUATORS: readonly FamilyEval[] = [VIDEO_EVAL];
