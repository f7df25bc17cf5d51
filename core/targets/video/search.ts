/**
 * Search results (`media/video/search`, `media/video/search/max`): the results page's initial
 * data (`contents.twoColumnSearchResultsRenderer.primaryContents.sectionListRenderer.contents[]
 * .itemSectionRenderer.contents[]`), the internal search API's answer (the same tree), and its
 * continuation answers (`onResponseReceivedCommands[].appendContinuationItemsAction
 * .continuationItems[]`), which `search/max` gathers as the flow's follow-up bodies. Items are
 * grouped by kind with one running `position` across kinds and pages, de-duplicated by id.
 *
 * Recommendation shelves the page mixes in ("People also watched", "Popular in ...") are not
 * results of the query and are left out; shorts shelves are results and count as shorts. The
 * server-rendered page of 2013-2020 (no initial data) is read from its tiles (lockups.ts).
 */
import { Blocks } from '../../parsers/blocks.js';
import type { PageInput, PageParser, Parsed } from '../../parsers/types.js';
import { itemOf, type ChannelItem, type PlaylistItem, type ShortItem, type VideoItem } from './items.js';
import { arr, at, findAll, int, obj, str, textOf, type Obj } from './json.js';
import { lockupResults } from './lockups.js';
import { localised, pageData, siteBase } from './page.js';
import { wallOf } from './wall.js';

export interface SearchJson {
  query: string | null;
  /** The platform's estimate of the number of results. */
  result_count: number | null;
  /** The query the results are for when the platform corrected the spelling ("Showing results for"). */
  corrected_query: string | null;
  /** A suggested spelling the platform did not apply ("Did you mean"). */
  did_you_mean: string | null;
  refinements: string[];
  videos: VideoItem[];
  shorts: ShortItem[];
  channels: ChannelItem[];
  playlists: PlaylistItem[];
  /** Token of the next page, when the last body read has one. */
  continuation: string | null;
}

/** The sections of one body: a results page/first API answer, or a continuation answer. */
export function sectionsOf(data: Obj | undefined): unknown[] | undefined {
  const primary = at(data, 'contents', 'twoColumnSearchResultsRenderer', 'primaryContents');
  // The grid layout tried in 2021 lists its cards in a rich grid (its continuations: below).
  const first = at(primary, 'sectionListRenderer', 'contents') ?? at(primary, 'richGridRenderer', 'contents');
  if (Array.isArray(first)) return first;
  const commands = [...arr(at(data, 'onResponseReceivedCommands')), ...arr(at(data, 'onResponseReceivedActions'))];
  let found: unknown[] | undefined;
  for (const c of commands) {
    const items = at(c, 'appendContinuationItemsAction', 'continuationItems') ?? at(c, 'reloadContinuationItemsCommand', 'continuationItems');
    if (Array.isArray(items)) found = [...(found ?? []), ...items];
  }
  return found;
}

export function tokenOf(section: unknown): string | null {
  return str(at(section, 'continuationItemRenderer', 'continuationEndpoint', 'continuationCommand', 'token'));
}

class Collector {
  readonly out: Pick<SearchJson, 'videos' | 'shorts' | 'channels' | 'playlists'> = { videos: [], shorts: [], channels: [], playlists: [] };
  private readonly seen = new Set<string>();
  private position = 0;

  add(card: unknown, base: string | null): void {
    const hit = itemOf(card, base);
    if (!hit || this.seen.has(`${hit.kind}:${hit.item.id}`)) return;
    this.seen.add(`${hit.kind}:${hit.item.id}`);
    hit.item.position = ++this.position;
    if (hit.kind === 'video') this.out.videos.push(hit.item);
    else if (hit.kind === 'short') this.out.shorts.push(hit.item);
    else if (hit.kind === 'channel') this.out.channels.push(hit.item);
    else this.out.playlists.push(hit.item);
  }

  get count(): number {
    return this.position;
  }
}

interface Notes {
  corrected: string | null;
  original: string | null;
  didYouMean: string | null;
  refinements: string[];
}

function readCard(card: unknown, base: string | null, into: Collector, notes: Notes): void {
  const o = obj(card);
  if (!o) return;
  if (o.showingResultsForRenderer) {
    notes.corrected ??= textOf(at(o, 'showingResultsForRenderer', 'correctedQuery'));
    notes.original ??= textOf(at(o, 'showingResultsForRenderer', 'originalQuery'));
  } else if (o.didYouMeanRenderer) {
    notes.didYouMean ??= textOf(at(o, 'didYouMeanRenderer', 'correctedQuery'));
  } else if (o.horizontalCardListRenderer) {
    for (const c of arr(at(o, 'horizontalCardListRenderer', 'cards'))) {
      const q = textOf(at(c, 'searchRefinementCardRenderer', 'query'));
      if (q && !notes.refinements.includes(q)) notes.refinements.push(q);
    }
  } else if (o.reelShelfRenderer || o.gridShelfViewModel) {
    const list = arr(at(o, 'reelShelfRenderer', 'items') ?? at(o, 'gridShelfViewModel', 'contents'));
    for (const c of list) into.add(c, base);
  } else if (!o.shelfRenderer) {
    into.add(card, base);
  }
}

/** Reads one body's results into `into`; false when the body is no search answer. */
function readBody(body: string, base: string | null, into: Collector, notes: Notes): { ok: boolean; token: string | null; data: Obj | undefined; estimate: number | null } {
  const { data } = pageData(body);
  // A search answer past the last page carries its estimate and nothing else: no results, not a wall.
  const sections = sectionsOf(data) ?? (at(data, 'estimatedResults') !== undefined ? [] : undefined);
  if (!sections) return { ok: false, token: null, data, estimate: null };
  let token: string | null = null;
  for (const s of sections) {
    token = tokenOf(s) ?? token;
    const cards = at(s, 'itemSectionRenderer', 'contents');
    // The grid layout's continuations list the cards themselves (`richItemRenderer`), no section
    // around them; its `richSectionRenderer` shelves are recommendations and read as nothing.
    if (Array.isArray(cards)) for (const card of cards) readCard(card, base, into, notes);
    else readCard(s, base, into, notes);
  }
  for (const r of arr(at(data, 'refinements'))) if (typeof r === 'string' && !notes.refinements.includes(r)) notes.refinements.push(r);
  return { ok: true, token, data, estimate: int(at(data, 'estimatedResults')) };
}

function queryOf(input: PageInput, data: Obj | undefined, notes: Notes): string | null {
  const fromParams = str(input.params.query);
  if (fromParams) return fromParams;
  if (notes.original) return notes.original;
  const fromFilters = findAll(at(data, 'header'), 'searchEndpoint', 1)[0];
  const q = str(at(fromFilters, 'query'));
  if (q) return q;
  try {
    return str(new URL(input.url).searchParams.get('search_query'));
  } catch {
    return null;
  }
}

function readSearch(input: PageInput): Parsed {
  const base = siteBase(input.url);
  const into = new Collector();
  const notes: Notes = { corrected: null, original: null, didYouMean: null, refinements: [] };
  const first = readBody(input.html, base, into, notes);
  if (!first.ok) {
    if (wallOf(input.html, input.url)) return { json: null, status: 'blocked' };
    // The server-rendered page (before the initial data was embedded) lists tiles in markup.
    const tiles = lockupResults(input.html, base);
    if (!tiles) return { json: null, status: 'unrecognised' };
    const b = new Blocks();
    // Video tiles in the markup that yielded no video: the tile layout changed.
    b.expect('videos', tiles.videos.length > 0 || !input.html.includes('yt-lockup-video'));
    return b.result({ ...tiles, query: str(input.params.query) ?? tiles.query ?? queryOf(input, undefined, notes) }, true);
  }
  let token = first.token;
  // search/max: the continuation answers the flow gathered, in fetch order.
  for (const bodies of Object.values(input.parts ?? {})) {
    for (const body of bodies) {
      if (body === input.html) continue;
      const next = readBody(body, base, into, notes);
      if (next.ok) token = next.token;
    }
  }
  const json: SearchJson = {
    query: queryOf(input, first.data, notes),
    result_count: first.estimate,
    corrected_query: notes.corrected,
    did_you_mean: notes.didYouMean,
    refinements: notes.refinements,
    ...into.out,
    continuation: token,
  };
  const b = new Blocks();
  // Result cards in the data that yielded no item: the renderer names changed.
  b.expect('videos', into.count > 0 || !/"(?:videoRenderer|lockupViewModel)"/.test(input.html));
  return b.result(json, true);
}

/** Counts and dates read in the page's interface language (page.ts `localised`). */
export const parseSearch: PageParser = localised(readSearch);
