/**
 * Search engine `se2` (spec 4.3). Billed as serp_scraper_api; both routes have all three modes.
 */
import { ALL_MODES, defineRoute, pick } from '../../registry/define.js';
import { COMMON, query, strEnum, url } from '../../registry/params.js';
import type { RouteSpec } from '../../registry/types.js';

export const SE2_ROUTES: readonly RouteSpec[] = [
  defineRoute({
    path: 'se2/search',
    target: 'se2',
    family: 'search_engine',
    modes: ALL_MODES,
    params: {
      query: query('Search terms.'),
      ...pick(COMMON, ['domain', 'locale', 'pages']),
      // A string on se2 (spec 4.3); the three levels the engine offers.
      safe_search: strEnum('Adult-content filter level.', ['off', 'moderate', 'strict']),
      start_page: COMMON.start_page,
    },
    summary: 'se2 web search results, parsed.',
  }),
  defineRoute({
    path: 'se2',
    target: 'se2',
    family: 'search_engine',
    modes: ALL_MODES,
    params: { url: url('Any se2 result page address (absolute http/https URL).'), locale: COMMON.locale },
    summary: 'Any se2 page by URL, parsed by its page type.',
  }),
];
