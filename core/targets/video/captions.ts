/**
 * Caption tracks: the list the player response declares
 * (`captions.playerCaptionsTracklistRenderer.captionTracks[] {baseUrl, name, vssId, languageCode,
 * kind}`; `kind: "asr"` is an auto-generated track), the choice of one track by
 * `language_code` and `subtitle_origin`, and the two answers that carry its text: the track in
 * its JSON format (`fmt=json3`: `events[] {tStartMs, dDurationMs, segs[] {utf8}}`) and the
 * transcript panel (`get_transcript`: `...transcriptSegmentListRenderer.initialSegments[]
 * .transcriptSegmentRenderer {startMs, endMs, snippet.runs}`), both as `{start_ms, end_ms, text}`.
 */
import { arr, at, int, obj, str, textOf, type Obj } from './json.js';
import { base64, message } from './proto.js';

export type Origin = 'uploader_provided' | 'auto_generated';

export interface CaptionTrack {
  language_code: string;
  name: string | null;
  origin: Origin;
  /** The track URL as the page lists it (no format parameter). */
  url: string | null;
  /** `asr` for auto-generated tracks, empty otherwise: the transcript panel's track selector. */
  kind: string;
}

export interface Segment {
  start_ms: number;
  end_ms: number;
  text: string;
}

export function captionTracks(player: Obj | undefined): CaptionTrack[] {
  const out: CaptionTrack[] = [];
  for (const t of arr(at(player, 'captions', 'playerCaptionsTracklistRenderer', 'captionTracks'))) {
    const lang = str(at(t, 'languageCode'));
    if (!lang) continue;
    const kind = str(at(t, 'kind')) ?? '';
    out.push({
      language_code: lang,
      name: textOf(at(t, 'name')),
      origin: kind === 'asr' || String(at(t, 'vssId') ?? '').startsWith('a.') ? 'auto_generated' : 'uploader_provided',
      url: str(at(t, 'baseUrl')),
      kind: kind === 'asr' ? 'asr' : '',
    });
  }
  return out;
}

/**
 * The track a request asks for. `language_code` matches exactly (case-insensitive), else by base
 * language (`en` takes `en-GB`, `pt-BR` takes `pt`); without it the first track of the page's
 * default order. `subtitle_origin` restricts the origin; omitted, every origin qualifies and an
 * uploader-provided track is preferred over an auto-generated one of the same language.
 */
export function chooseTrack(tracks: readonly CaptionTrack[], language?: string | null, origin?: string | null): CaptionTrack | undefined {
  const allowed = tracks.filter((t) => !origin || t.origin === origin);
  const rank = (t: CaptionTrack) => (t.origin === 'uploader_provided' ? 0 : 1);
  const byOrigin = (list: CaptionTrack[]) => [...list].sort((a, b) => rank(a) - rank(b))[0];
  if (!language) return byOrigin(allowed);
  const want = language.toLowerCase().replace(/_/g, '-');
  const exact = allowed.filter((t) => t.language_code.toLowerCase() === want);
  if (exact.length > 0) return byOrigin(exact);
  const baseOf = (code: string) => code.toLowerCase().split(/[-_]/)[0];
  return byOrigin(allowed.filter((t) => baseOf(t.language_code) === baseOf(want)));
}

/** The track URL asking for the JSON format (`fmt=json3`, replacing any format already set). */
export function json3Url(url: string): string {
  const hash = url.indexOf('#');
  const bare = hash >= 0 ? url.slice(0, hash) : url;
  const cleaned = bare.replace(/([?&])fmt=[^&]*(&|$)/, (_, pre: string, post: string) => (post ? pre : '')).replace(/[?&]$/, '');
  return `${cleaned}${cleaned.includes('?') ? '&' : '?'}fmt=json3`;
}

/** Segments of a `fmt=json3` track; undefined when the body is not one. */
export function json3Segments(body: string): Segment[] | undefined {
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch {
    return undefined;
  }
  const events = at(doc, 'events');
  if (!Array.isArray(events)) return undefined;
  const out: Segment[] = [];
  for (const e of events) {
    const segs = at(e, 'segs');
    const start = int(at(e, 'tStartMs'));
    if (!Array.isArray(segs) || start === null) continue;
    // Auto-generated tracks split a line into word segments and add "\n" append events; the
    // words of one event are one line.
    const text = segs.map((s) => (typeof at(s, 'utf8') === 'string' ? (at(s, 'utf8') as string) : '')).join('').replace(/\s+/g, ' ').trim();
    if (!text) continue;
    out.push({ start_ms: start, end_ms: start + (int(at(e, 'dDurationMs')) ?? 0), text });
  }
  return out;
}

export interface TranscriptAnswer {
  segments: Segment[];
  /** The language menu's selected entry (`English (auto-generated)`), when shown. */
  selected: string | null;
}

/** Segments of a `get_transcript` answer; undefined when the body is not one. */
export function transcriptSegments(body: string): TranscriptAnswer | undefined {
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch {
    return undefined;
  }
  let panel: unknown;
  for (const a of arr(at(doc, 'actions'))) {
    panel ??= at(a, 'updateEngagementPanelAction', 'content', 'transcriptRenderer', 'content', 'transcriptSearchPanelRenderer');
  }
  if (!obj(panel)) return undefined;
  const out: Segment[] = [];
  for (const s of arr(at(panel, 'body', 'transcriptSegmentListRenderer', 'initialSegments'))) {
    const r = at(s, 'transcriptSegmentRenderer');
    const start = int(at(r, 'startMs'));
    const end = int(at(r, 'endMs'));
    const text = textOf(at(r, 'snippet'))?.replace(/\s+/g, ' ').trim();
    if (start === null || !text) continue;
    out.push({ start_ms: start, end_ms: end ?? start, text });
  }
  let selected: string | null = null;
  for (const item of arr(at(panel, 'footer', 'transcriptFooterRenderer', 'languageMenu', 'sortFilterSubMenuRenderer', 'subMenuItems'))) {
    if (at(item, 'selected') === true) selected = str(at(item, 'title'));
  }
  return { segments: out, selected };
}

/**
 * The transcript panel's `params` for one track, as the page's own language menu builds them:
 * `{1: video id, 2: urlencode(base64({1: kind, 2: language, 3: ""})), 3: 1, 5: panel id, 6: 1,
 * 7: 1, 8: 1}`.
 */
export function transcriptParams(videoId: string, track: Pick<CaptionTrack, 'kind' | 'language_code'>): string {
  const selector = encodeURIComponent(base64(message([[1, track.kind], [2, track.language_code], [3, '']])));
  return base64(
    message([
      [1, videoId],
      [2, selector],
      [3, 1],
      [5, 'engagement-panel-searchable-transcript-search-panel'],
      [6, 1],
      [7, 1],
      [8, 1],
    ]),
  );
}

/** Whether the watch page offers the transcript panel at all. */
export function hasTranscriptPanel(data: Obj | undefined): boolean {
  return arr(at(data, 'engagementPanels')).some((p) =>
    /searchable-transcript|engagement-panel-transcript/.test(String(at(p, 'engagementPanelSectionListRenderer', 'targetId') ?? '')),
  );
}
