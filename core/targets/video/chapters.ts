/**
 * Chapters of a watch page, from where the page lists them: the chapter markers of the player
 * bar (`multiMarkersPlayerBarRenderer` → `chapterRenderer {title, timeRangeStartMillis}`), or
 * the chapters engagement panel (`macroMarkersListRenderer` → `macroMarkersListItemRenderer
 * {title, timeDescription, onTap.watchEndpoint.startTimeSeconds}`), description chapters and
 * auto-chapters alike. Each chapter ends where the next begins, the last at the duration.
 */
import { clockSeconds } from './counts.js';
import { arr, at, findAll, int, textOf, type Obj } from './json.js';

export interface Chapter {
  title: string;
  start_time: number;
  end_time: number | null;
}

function fromPlayerBar(data: Obj | undefined): { title: string; start: number }[] {
  const out: { title: string; start: number }[] = [];
  for (const c of findAll(at(data, 'playerOverlays'), 'chapterRenderer')) {
    const title = textOf(at(c, 'title'));
    const ms = int(at(c, 'timeRangeStartMillis'));
    if (title && ms !== null) out.push({ title, start: Math.round(ms / 1000) });
  }
  return out;
}

function fromPanels(data: Obj | undefined): { title: string; start: number }[] {
  for (const p of arr(at(data, 'engagementPanels'))) {
    const panel = at(p, 'engagementPanelSectionListRenderer');
    const target = String(at(panel, 'targetId') ?? at(panel, 'panelIdentifier') ?? '');
    // Key moments and walkthrough panels use the same renderer but are not chapters.
    if (!/macro-markers-(description-chapters|auto-chapters)/.test(target)) continue;
    const out: { title: string; start: number }[] = [];
    for (const item of arr(at(panel, 'content', 'macroMarkersListRenderer', 'contents'))) {
      const m = at(item, 'macroMarkersListItemRenderer');
      const title = textOf(at(m, 'title'));
      const start = int(at(m, 'onTap', 'watchEndpoint', 'startTimeSeconds')) ?? clockSeconds(textOf(at(m, 'timeDescription')));
      if (title && start !== null) out.push({ title, start });
    }
    if (out.length > 0) return out;
  }
  return [];
}

export function chaptersOf(data: Obj | undefined, duration: number | null): Chapter[] {
  let marks = fromPlayerBar(data);
  if (marks.length === 0) marks = fromPanels(data);
  // The player bar may list the same chapters once per marker kind.
  const seen = new Set<string>();
  marks = marks.filter((m) => !seen.has(`${m.start}|${m.title}`) && seen.add(`${m.start}|${m.title}`) !== undefined);
  marks.sort((a, b) => a.start - b.start);
  return marks.map((m, i) => ({
    title: m.title,
    start_time: m.start,
    end_time: i + 1 < marks.length ? (marks[i + 1] as { start: number }).start : duration && duration > 0 ? duration : null,
  }));
}
