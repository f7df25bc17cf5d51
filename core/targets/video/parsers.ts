/**
 * The video family's built-in parsers by route id. `download` has none (its output is a media
 * file); `subtitles` has one, but the spec's rule stays that the route requires `json`: the
 * segments are what `json` is filled from.
 */
import type { PageParser } from '../../parsers/types.js';
import { parseChannel } from './channel.js';
import { parseSearch } from './search.js';
import { parseSubtitles } from './subtitles.js';
import { parseAutocomplete, parseTrainability } from './suggest.js';
import { parseWatch } from './watch.js';

export const PARSERS: Readonly<Record<string, PageParser>> = {
  'media/video/metadata': parseWatch,
  'media/video/subtitles': parseSubtitles,
  'media/video/channel': parseChannel,
  'media/video/search': parseSearch,
  'media/video/search/max': parseSearch,
  'media/video/autocomplete': parseAutocomplete,
  'media/video/video/trainability': parseTrainability,
};
