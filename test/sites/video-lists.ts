/**
 * The video simulator's listings: search results (page and continuations, answering the `sp`
 * filter), a channel's tabs with continuations, and its About panel. Every result derives from
 * the query and its number, so tests can compute what a page shows. Continuation tokens are
 * opaque to clients (base64 of `kind|subject|extra|offset`).
 */
import { hash } from './se-data.js';
import { CHANNEL_ID, CHANNEL_NAME, HANDLE, clock, grouped, pageHtml, scriptJson, thumbs } from './video-data.js';

export const SEARCH_PAGE = 20;
export const CHANNEL_PAGE = 30;
export const CHANNEL_VIDEOS = 75;

export const token = (...parts: (string | number)[]) => Buffer.from(parts.join('|')).toString('base64url');
export function untoken(t: string): string[] {
  return Buffer.from(t, 'base64url').toString('utf8').split('|');
}

const continuation = (t: string, request: string) => ({
  continuationItemRenderer: { trigger: 'CONTINUATION_TRIGGER_ON_ITEM_SHOWN', continuationEndpoint: { continuationCommand: { token: t, request } } },
});

/** A search result of a query: the n-th of its universe, with everything filters look at. */
export interface Hit {
  n: number;
  kind: 'video' | 'channel' | 'playlist';
  id: string;
  title: string;
  duration: number;
  views: number;
  ageHours: number;
  live: boolean;
  features: Set<string>;
}

const FEATURE_BITS = ['hd', 'subtitles', 'creative_commons', '3d', 'purchased', '4k', '360', 'hdr', 'vr180'];
const DURATIONS = [95, 200, 330, 900, 1500, 3000];

export function hits(query: string): Hit[] {
  const size = query.includes('__none__') ? 0 : query.includes('__few__') ? 5 : 300;
  const key = hash(query).toString(36).padStart(6, '0').slice(0, 6);
  const out: Hit[] = [];
  for (let n = 1; n <= size; n++) {
    const h = hash(`${query}#${n}`);
    const kind = n % 25 === 3 ? 'channel' : n % 25 === 7 ? 'playlist' : 'video';
    const features = new Set(FEATURE_BITS.filter((_, i) => (h >>> (i + 3)) % 5 === 0));
    out.push({
      n, kind, id: kind === 'channel' ? `UC${key}${String(n).padStart(16, '0')}` : kind === 'playlist' ? `PL${key}${String(n).padStart(8, '0')}` : `s${String(n).padStart(4, '0')}${key}`,
      title: `${query} result ${n}`, duration: DURATIONS[h % DURATIONS.length] as number, views: h % 2_000_000, ageHours: (h >>> 8) % 9000,
      live: kind === 'video' && n % 40 === 10, features,
    });
  }
  return out;
}

/** The filter fields of an `sp` value, decoded independently of the code under test. */
export function decodeSp(sp: string | null): { sort: number; filters: Map<number, number> } {
  const filters = new Map<number, number>();
  let sort = 0;
  if (!sp) return { sort, filters };
  const bytes = Buffer.from(decodeURIComponent(sp), 'base64');
  const read = (buf: Buffer, at: { i: number }) => {
    let v = 0;
    let shift = 1;
    for (;;) {
      const b = buf[at.i++] as number;
      v += (b & 0x7f) * shift;
      shift *= 128;
      if (!(b & 0x80)) return v;
    }
  };
  const top = { i: 0 };
  while (top.i < bytes.length) {
    const tag = read(bytes, top);
    if ((tag & 7) === 0) {
      const v = read(bytes, top);
      if (tag >> 3 === 1) sort = v;
    } else {
      const len = read(bytes, top);
      const inner = bytes.subarray(top.i, top.i + len);
      top.i += len;
      const at = { i: 0 };
      while (at.i < inner.length) {
        const t = read(inner, at);
        filters.set(t >> 3, read(inner, at));
      }
    }
  }
  return { sort, filters };
}

const FEATURE_FIELDS: Record<number, string> = { 4: 'hd', 5: 'subtitles', 6: 'creative_commons', 7: '3d', 9: 'purchased', 14: '4k', 15: '360', 25: 'hdr', 26: 'vr180' };
const MAX_AGE: Record<number, number> = { 1: 1, 2: 24, 3: 168, 4: 720, 5: 8760 };

/** The hits a filter lets through, in the order it asks for. */
export function filtered(query: string, sp: string | null): Hit[] {
  const { sort, filters } = decodeSp(sp);
  let list = hits(query).filter((h) => {
    const type = filters.get(2);
    if (type && (type === 4 || h.kind !== ['', 'video', 'channel', 'playlist'][type])) return false;
    const age = filters.get(1);
    if (age && (h.kind !== 'video' || h.ageHours > (MAX_AGE[age] ?? Infinity))) return false;
    const d = filters.get(3);
    if (d && (h.kind !== 'video' || h.live || (d === 1 && h.duration >= 240) || (d === 2 && h.duration <= 1200) || (d === 3 && (h.duration < 240 || h.duration > 1200)))) return false;
    if (filters.get(8) && !h.live) return false;
    for (const [field, name] of Object.entries(FEATURE_FIELDS)) if (filters.get(Number(field)) && !h.features.has(name)) return false;
    return true;
  });
  if (sort === 2) list = [...list].sort((a, b) => a.ageHours - b.ageHours || a.n - b.n);
  if (sort === 3) list = [...list].sort((a, b) => b.views - a.views || a.n - b.n);
  return list;
}

function ago(hours: number): string {
  if (hours < 24) return `${Math.max(1, hours)} hours ago`;
  if (hours < 24 * 30) return `${Math.floor(hours / 24)} days ago`;
  if (hours < 24 * 365) return `${Math.floor(hours / 720)} months ago`;
  return `${Math.floor(hours / 8760)} years ago`;
}

const ownerRuns = () => ({ runs: [{ text: CHANNEL_NAME, navigationEndpoint: { browseEndpoint: { browseId: CHANNEL_ID, canonicalBaseUrl: `/${HANDLE}` } } }] });

function card(h: Hit): Record<string, unknown> {
  if (h.kind === 'channel') {
    return { channelRenderer: { channelId: h.id, title: { simpleText: h.title }, navigationEndpoint: { browseEndpoint: { browseId: h.id, canonicalBaseUrl: `/@chan${h.n}` } }, subscriberCountText: { simpleText: `@chan${h.n}` }, videoCountText: { simpleText: `${h.n}.5K subscribers` }, descriptionSnippet: { runs: [{ text: `About ${h.title}` }] }, thumbnail: thumbs(h.id) } };
  }
  if (h.kind === 'playlist') {
    return { lockupViewModel: { contentId: h.id, contentType: 'LOCKUP_CONTENT_TYPE_PLAYLIST', contentImage: { collectionThumbnailViewModel: { primaryThumbnail: { thumbnailViewModel: { image: { sources: [{ url: `https://img.example/pl/${h.id}.jpg`, width: 480, height: 270 }] }, overlays: [{ thumbnailOverlayBadgeViewModel: { thumbnailBadges: [{ thumbnailBadgeViewModel: { text: `${h.n} videos` } }] } }] } } } }, metadata: { lockupMetadataViewModel: { title: { content: h.title }, metadata: { contentMetadataViewModel: { metadataRows: [{ metadataParts: [{ text: { content: CHANNEL_NAME, commandRuns: [{ onTap: { innertubeCommand: { browseEndpoint: { browseId: CHANNEL_ID } } } }] } }] }] } } } } } };
  }
  const badges = [...(h.features.has('4k') ? ['4K'] : []), ...(h.features.has('subtitles') ? ['CC'] : []), ...(h.live ? ['LIVE'] : [])];
  return {
    videoRenderer: {
      videoId: h.id, thumbnail: thumbs(h.id), title: { runs: [{ text: h.title }] }, longBylineText: ownerRuns(), ownerText: ownerRuns(),
      ...(h.live ? { viewCountText: { runs: [{ text: '1,234' }, { text: ' watching' }] } } : { publishedTimeText: { simpleText: ago(h.ageHours) }, lengthText: { simpleText: clock(h.duration) }, viewCountText: { simpleText: `${grouped(h.views)} views` } }),
      badges: badges.map((label) => ({ metadataBadgeRenderer: { style: label === 'LIVE' ? 'BADGE_STYLE_TYPE_LIVE_NOW' : 'BADGE_STYLE_TYPE_SIMPLE', label } })),
      descriptionSnippet: { runs: [{ text: `Snippet of ${h.title}` }] },
      navigationEndpoint: { commandMetadata: { webCommandMetadata: { url: `/watch?v=${h.id}` } }, watchEndpoint: { videoId: h.id } },
    },
  };
}

/** Shorts the unfiltered first page shows in a shelf after the fifth result. */
export const shortIds = (query: string) => [1, 2, 3, 4].map((i) => `sh${i}${hash(query).toString(36).padStart(8, '0').slice(0, 8)}`);

function shortsShelf(query: string): Record<string, unknown> {
  return { gridShelfViewModel: { header: { sectionHeaderViewModel: { headline: { content: 'Shorts' } } }, contents: shortIds(query).map((id, i) => ({ shortsLockupViewModel: { entityId: `shorts-shelf-item-${id}`, accessibilityText: `short ${i + 1}`, onTap: { innertubeCommand: { reelWatchEndpoint: { videoId: id } } }, overlayMetadata: { primaryText: { content: `${query} short ${i + 1}` }, secondaryText: { content: `${i + 1}.2K views` } }, thumbnail: { sources: [{ url: `https://img.example/vi/${id}/frame0.jpg`, width: 405, height: 720 }] } } })) } };
}

/** Cards of the list from `offset`, and the continuation token when more follow. */
function searchSlice(query: string, sp: string | null, offset: number): { cards: unknown[]; next: string | null } {
  const list = filtered(query, sp);
  const cards: unknown[] = list.slice(offset, offset + SEARCH_PAGE).map(card);
  if (offset === 0 && !sp && list.length > 5) cards.splice(5, 0, shortsShelf(query));
  const more = offset + SEARCH_PAGE < list.length;
  return { cards, next: more ? token('search', query, sp ?? '', offset + SEARCH_PAGE) : null };
}

export function searchPage(query: string, sp: string | null): string {
  const corrected = query.includes('runing') ? query.replace('runing', 'running') : null;
  const shown = corrected ?? query;
  const { cards, next } = searchSlice(shown, sp, 0);
  if (corrected) cards.unshift({ showingResultsForRenderer: { correctedQuery: { runs: [{ text: corrected, italics: true }] }, originalQuery: { simpleText: query }, showingResultsFor: { runs: [{ text: 'Showing results for' }] } } });
  const data = {
    responseContext: {},
    estimatedResults: String(filtered(shown, sp).length * 1000),
    contents: { twoColumnSearchResultsRenderer: { primaryContents: { sectionListRenderer: { contents: [{ itemSectionRenderer: { contents: cards } }, ...(next ? [continuation(next, 'CONTINUATION_REQUEST_TYPE_SEARCH')] : [])] } } } },
    refinements: [`${shown} tutorial`, `${shown} for beginners`],
  };
  return pageHtml(shown, null, `<script>var ytInitialData = ${scriptJson(data)};</script>`);
}

export function searchContinuation(query: string, sp: string, offset: number): string {
  const { cards, next } = searchSlice(query, sp || null, offset);
  return JSON.stringify({
    responseContext: {},
    estimatedResults: String(filtered(query, sp || null).length * 1000),
    onResponseReceivedCommands: [{ appendContinuationItemsAction: { continuationItems: [{ itemSectionRenderer: { contents: cards } }, ...(next ? [continuation(next, 'CONTINUATION_REQUEST_TYPE_SEARCH')] : [])] } }],
  });
}

