/** The commerce targets (one token per retail family): routes only so far; pages follow the default convention. */
import type { TargetAdapter } from '../adapter.js';
import { planDefault } from '../default.js';
import { COMMERCE_ROUTES } from './routes.js';

export const commerce: TargetAdapter = { name: 'commerce', routes: COMMERCE_ROUTES, plan: planDefault, parsers: {} };
