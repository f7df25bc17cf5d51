/**
 * The se1 News tab (`tbm=nws`). Two shapes cover the captures from 2013 to 2025:
 *
 * - a card link (2019-2025): one link to the article wraps the whole card — source line (after a
 *   favicon), title (a `role=heading` block since 2020, a plain block in 2019), snippet, date,
 *   thumbnail — inside the results column (`#rso`);
 * - a title link (2013-2018, and the basic HTML page): the title heading (`h3 > a`, or a bare
 *   `/url?q=` link) followed, in its result block, by a "source - date" line (`cite`, or text
 *   with a date) and the snippet.
 *
 * Only links to outside pages count; engine pages (tabs, "more news", settings) never do. Titles
 * come from headings when the markup has them, else from line order (source, title, snippet).
 */
import type { Document, Element } from '../../../parsers/dom.js';
import { all, attr, closest, contains, hostOf, linkTarget, one, text } from '../../../parsers/dom.js';
import { dateIn, type Line, linesOf } from './lines.js';
import { inRegion } from './regions.js';

export interface NewsResult {
  position: number;
  title: string;
  url: string;
  source: string | null;
  /** The date as the page prints it ("3 hours ago", "Apr 20, 2019"). */
  date: string | null;
  snippet: string | null;
  thumbnail: string | null;
}

/** Hosts of the engine itself (account, help, cache, maps links around the results). */
export function isEngineHost(url: string): boolean {
  const h = hostOf(url);
  return /(^|\.)google\.[a-z.]+$/.test(h) || /(^|\.)(googleusercontent|gstatic|googleadservices|doubleclick)\.[a-z.]+$/.test(h) || /^accounts\./.test(h);
}

/** The results column of every generation, else the whole page. */
export function resultsRoot(doc: Document): Element | Document {
  return one('#rso', doc) ?? one('#search', doc) ?? one('#ires', doc) ?? one('#res', doc) ?? one('#center_col', doc) ?? one('#main', doc) ?? doc;
}

function isHeadingEl(e: Element): boolean {
  return /^h[1-6]$/.test(e.name) || attr(e, 'role') === 'heading';
}

/** An http(s) picture inside `box` that is not a favicon (data: URIs carry no address). */
export function thumbnailIn(box: Element): string | null {
  for (const img of all('img', box)) {
    const w = Number(attr(img, 'width') ?? '0');
    if (w > 0 && w <= 32) continue;
    const src = [attr(img, 'data-src'), attr(img, 'src')].find((s) => s && /^(?:https?:)?\/\//.test(s));
    if (src) return src.startsWith('//') ? `https:${src}` : src;
  }
  return null;
}

interface Cand {
  anchor: Element;
  url: string;
  heading: Element | null;
  lines: Line[];
}

function candidates(doc: Document, pageUrl: string): Cand[] {
  const out: Cand[] = [];
  for (const a of all('a[href]', resultsRoot(doc))) {
    const url = linkTarget(a.attribs.href, pageUrl);
    if (!url || isEngineHost(url) || inRegion(a, 'ads', 'paa', 'panel', 'shopping')) continue;
    if (closest(a, (e) => e.name === 'cite' || attr(e, 'role') === 'navigation' || e.attribs.id === 'foot' || e.attribs.id === 'botstuff', 30)) continue;
    const heading = one('h1, h2, h3, h4, [role="heading"]', a) ?? closest(a, isHeadingEl, 3);
    const lines = linesOf(a, (e) => e.name === 'script' || e.name === 'style');
    if (lines.length === 0) continue;
    out.push({ anchor: a, url, heading, lines });
  }
  return out;
}

/** Source, title, snippet and date from the lines of a card link. */
function fromCardLines(lines: Line[]): { source: string | null; title: string; snippet: string | null; date: string | null } {
  const dateLine = lines.find((l) => dateIn(l.text) !== null && !l.heading);
  const date = dateLine ? dateIn(dateLine.text) : null;
  const rest = lines.filter((l) => l !== dateLine);
  const h = rest.findIndex((l) => l.heading);
  if (h >= 0) {
    return { source: rest[h - 1]?.text ?? null, title: rest[h].text, snippet: rest[h + 1]?.text ?? null, date };
  }
  // 2019 cards: no heading; the source line comes first (after its favicon), then title, snippet.
  if (rest.length >= 3) return { source: rest[0].text, title: rest[1].text, snippet: rest[2].text, date };
  if (rest.length === 2) return { source: null, title: rest[0].text, snippet: rest[1].text, date };
  return { source: null, title: rest[0]?.text ?? '', snippet: null, date };
}

/** The result block of a title link: its largest ancestor holding no other title link. */
function blockOf(anchor: Element, others: Element[]): Element {
  let box: Element = anchor;
  for (let i = 0; i < 8; i++) {
    const p = box.parent;
    if (!p || p.type !== 'tag' || p.name === 'body' || p.attribs.id === 'rso' || p.attribs.id === 'ires' || p.attribs.id === 'search') break;
    if (others.some((o) => o !== anchor && contains(p, o))) break;
    box = p;
  }
  return box;
}

function fromTitleLink(c: Cand, others: Element[]): Omit<NewsResult, 'position' | 'url'> {
  const box = blockOf(c.anchor, others);
  const title = c.heading && !contains(c.anchor, c.heading) ? text(c.anchor) : text(c.heading ?? c.anchor);
  const lines = linesOf(box, (e) => e === c.anchor || (c.heading !== null && e === c.heading) || e.name === 'script');
  const cite = one('cite', box);
  let source = cite ? text(cite) || null : null;
  let date: string | null = null;
  let dateLine: Line | undefined;
  for (const l of lines) {
    const d = dateIn(l.text);
    if (d) {
      date = d;
      dateLine = l;
      source ??= l.text.slice(0, l.text.indexOf(d)).replace(/[\s\-–—·|]+$/, '').trim() || null;
      break;
    }
  }
  // The snippet is the first other line; lines with links are related articles of a cluster.
  const snippet = lines.find((l) => l !== dateLine && (!cite || !contains(cite, l.el)) && l.text !== source && one('a', l.el) === null && !closest(l.el, (e) => e.name === 'a', 4));
  return { title, source, date, snippet: snippet?.text ?? null, thumbnail: thumbnailIn(box) };
}

export function parseNewsTab(doc: Document, pageUrl: string): NewsResult[] {
  const cands = candidates(doc, pageUrl);
  // Card links: several lines inside one link, one of them a title heading or a date.
  const cards = cands.filter((c) => c.lines.length >= 2 && (c.lines.some((l) => l.heading) || c.lines.some((l) => dateIn(l.text) !== null)));
  const out: NewsResult[] = [];
  const push = (url: string, r: Omit<NewsResult, 'position' | 'url'>) => {
    if (r.title) out.push({ position: out.length + 1, url, ...r });
  };
  if (cards.length > 0) {
    for (const c of cards) {
      const f = fromCardLines(c.lines);
      push(c.url, { ...f, thumbnail: thumbnailIn(c.anchor) });
    }
    return out;
  }
  // Title links: headed links when the page has them (clustered sub-articles have no heading).
  const headed = cands.filter((c) => c.heading !== null);
  const titles = headed.length > 0 ? headed : cands.filter((c) => c.lines.length === 1 && c.lines[0].text.length >= 12);
  const anchors = titles.map((c) => c.anchor);
  for (const c of titles) {
    const r = fromTitleLink(c, anchors);
    // A title link of a news result has its source or date next to it; other links have neither.
    if (r.date !== null || r.source !== null) push(c.url, r);
  }
  return out;
}
