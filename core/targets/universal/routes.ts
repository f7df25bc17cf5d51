/**
 * The generic route `POST /v1/scrape` (spec 4.2): any page by URL. It has no built-in parser,
 * so `output` with `json` needs a `json` object, but HTML and Markdown need nothing more.
 */
import { ALL_MODES, defineRoute } from '../../registry/define.js';
import { url } from '../../registry/params.js';
import type { RouteSpec } from '../../registry/types.js';

export const UNIVERSAL: RouteSpec = defineRoute({
  path: '',
  target: 'universal',
  family: 'universal',
  modes: ALL_MODES,
  params: { url: url('Page to fetch: absolute http/https URL, at most 8192 characters.') },
  summary: 'Any web page by URL, as HTML, Markdown, screenshot or extracted JSON.',
});
