/**
 * The search filter parameter `sp`: a small protobuf the platform's own client sends with
 * `/results` and the internal search call.
 *
 *   message SearchParams { sort_by = 1 (varint); filters = 2 (message) }
 *   message Filters {
 *     upload_date = 1  (1 last hour, 2 today, 3 this week, 4 this month, 5 this year)
 *     type = 2         (1 video, 2 channel, 3 playlist, 4 movie)
 *     duration = 3     (1 under 4 minutes, 2 over 20 minutes, 3 between 4 and 20)
 *     features, each a bool: hd 4, subtitles 5, creative_commons 6, 3d 7, live 8,
 *                            purchased 9, 4k 14, 360 15, location 23, hdr 25, vr180 26
 *   }
 *   sort_by: 0 relevance (omitted), 1 rating, 2 upload date, 3 view count
 *
 * Fields are written in field order and only when set, as the client does, so the result
 * equals the values the site itself puts in its filter links (`EgIQAQ==` videos only, `CAI=`
 * newest first, `EgJAAQ==` live). Base64 with padding; the URL layer encodes `=` as `%3D`.
 */
import { base64, message, type Field } from './proto.js';

const UPLOAD_DATE: Readonly<Record<string, number>> = { last_hour: 1, today: 2, this_week: 3, this_month: 4, this_year: 5 };
const TYPE: Readonly<Record<string, number>> = { videos: 1, channels: 2, playlists: 3, movies: 4 };
const DURATION: Readonly<Record<string, number>> = { '<4': 1, '>20': 2, '4-20': 3 };
const SORT_BY: Readonly<Record<string, number>> = { relevance: 0, rating: 1, upload_date: 2, view_count: 3 };
/** Boolean request parameters (spec 4.3) and their field numbers, in field order. */
export const FEATURES: readonly (readonly [string, number])[] = [
  ['hd', 4],
  ['subtitles', 5],
  ['creative_commons', 6],
  ['3d', 7],
  ['live', 8],
  ['purchased', 9],
  ['4k', 14],
  ['360', 15],
  ['hdr', 25],
  ['vr180', 26],
];

export interface SearchFilter {
  upload_date?: unknown;
  type?: unknown;
  duration?: unknown;
  sort_by?: unknown;
  [feature: string]: unknown;
}

/** The `sp` value for a request's filters, or undefined when none is set (no `sp` at all). */
export function searchFilter(params: SearchFilter): string | undefined {
  const filters: Field[] = [];
  const pick = (table: Readonly<Record<string, number>>, v: unknown) => (typeof v === 'string' ? table[v] : undefined);
  const upload = pick(UPLOAD_DATE, params.upload_date);
  if (upload) filters.push([1, upload]);
  const type = pick(TYPE, params.type);
  if (type) filters.push([2, type]);
  const duration = pick(DURATION, params.duration);
  if (duration) filters.push([3, duration]);
  for (const [name, field] of FEATURES) if (params[name] === true) filters.push([field, true]);
  const top: Field[] = [];
  const sort = pick(SORT_BY, params.sort_by);
  if (sort) top.push([1, sort]);
  if (filters.length > 0) top.push([2, message(filters)]);
  return top.length > 0 ? base64(message(top)) : undefined;
}
