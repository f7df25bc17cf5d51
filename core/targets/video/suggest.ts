/**
 * The two small JSON endpoints: search suggestions (`media/video/autocomplete`) and the
 * trainability resource (`media/video/video/trainability`).
 *
 * Suggestions come from the suggest host's `/complete/search` as JSONP
 * (`window.google.ac.h(["q",[["suggestion",0,[512]],...],{...}])`) or, with `xhr=t`, as the
 * bare array; either way the suggestions are at `[1][i][0]`.
 *
 * Trainability is the platform owner's public data resource `/v3/videoTrainability?id=...`:
 * `{kind, etag, videoId, permitted: ["all"] | ["none"] | [party, ...]}`.
 */
import { parseJson, valueEnd } from '../../parsers/embedded.js';
import type { PageInput, Parsed } from '../../parsers/types.js';
import { arr, at, obj, str } from './json.js';

export interface AutocompleteJson {
  query: string | null;
  suggestions: string[];
}

export interface TrainabilityJson {
  video_id: string | null;
  permitted: string[];
  etag: string | null;
}

/** The array of a JSONP call or of a bare (possibly `)]}'`-guarded) JSON answer. */
function suggestArray(body: string): unknown[] | undefined {
  const text = body.trimStart().replace(/^\)\]\}'\s*/, '');
  const start = text.startsWith('[') ? 0 : text.indexOf('(') >= 0 ? text.indexOf('[', text.indexOf('(')) : -1;
  if (start < 0) return undefined;
  const end = valueEnd(text, start);
  const value = end > 0 ? parseJson(text.slice(start, end)) : undefined;
  return Array.isArray(value) ? value : undefined;
}

export function parseAutocomplete(input: PageInput): Parsed {
  const data = suggestArray(input.html);
  if (!data || !Array.isArray(data[1])) return { json: null, status: 'unrecognised' };
  const suggestions: string[] = [];
  for (const entry of arr(data[1])) {
    const s = Array.isArray(entry) ? entry[0] : entry;
    if (typeof s === 'string' && s !== '' && !suggestions.includes(s)) suggestions.push(s);
  }
  const json: AutocompleteJson = { query: typeof data[0] === 'string' ? data[0] : str(input.params.query), suggestions };
  return { json, status: 'parsed' };
}

export function parseTrainability(input: PageInput): Parsed {
  const doc = obj(parseJson(input.html.trim()));
  const permitted = at(doc, 'permitted');
  if (!doc || !Array.isArray(permitted)) return { json: null, status: 'unrecognised' };
  const json: TrainabilityJson = {
    video_id: str(doc.videoId) ?? str(input.params.query),
    permitted: permitted.filter((p): p is string => typeof p === 'string'),
    etag: str(doc.etag),
  };
  return { json, status: 'parsed' };
}
