/** The generic route (`POST /v1/scrape`): the caller's URL, one fetch, no built-in parser. */
import type { TargetAdapter } from '../adapter.js';
import { requireUrl } from '../base.js';
import { single } from '../flow.js';
import { UNIVERSAL } from './routes.js';

export const universal: TargetAdapter = {
  name: 'universal',
  routes: [UNIVERSAL],
  plan: (route, params) => [single(requireUrl(route, params))],
  parsers: {},
};
