/** The search engine `se1`: its routes, URL vocabulary (plan.ts), parsers and output schemas. */
import type { TargetAdapter } from '../adapter.js';
import { SE1_PARSERS } from './parsers.js';
import { planSe1 } from './plan.js';
import { SE1_ROUTES } from './routes.js';
import { SE_OUTPUT_SCHEMAS } from './schemas.js';

export const se1: TargetAdapter = {
  name: 'se1',
  routes: SE1_ROUTES,
  plan: planSe1,
  parsers: SE1_PARSERS,
  outputSchemas: SE_OUTPUT_SCHEMAS,
};
