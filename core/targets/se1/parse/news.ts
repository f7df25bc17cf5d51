/**
 * se1 top stories and video carousels. Both are cards whose link wraps a `role=heading` title;
 * the card's region (news section / `data-news-doc-id`, or `data-vid` video wrapper) says which.
 * Publisher and age are the title's neighbouring lines, so no class names are needed for them.
 */
import type { Document, Element } from '../../../parsers/dom.js';
import { all, attr, closest, isElement, linkTarget, text } from '../../../parsers/dom.js';
import { regionRoot, regionsOf } from './regions.js';
import type { Region } from './regions.js';
import type { NewsItem, VideoItem } from './types.js';

interface Card {
  anchor: Element;
  heading: Element;
  url: string;
}

function headedCards(doc: Document, pageUrl: string, wanted: readonly Region[], skip: Set<Element>): Card[] {
  const out: Card[] = [];
  const seen = new Set<Element>();
  for (const heading of all('[role="heading"]', doc)) {
    const anchor = closest(heading, (e) => e.name === 'a' && e.attribs.href !== undefined, 8);
    if (!anchor || seen.has(anchor) || skip.has(anchor)) continue;
    const regions = regionsOf(anchor);
    if (!regions.some((r) => wanted.includes(r)) || regions.includes('ads') || regions.includes('paa') || regions.includes('aio')) continue;
    const url = linkTarget(anchor.attribs.href, pageUrl);
    if (!url) continue;
    seen.add(anchor);
    out.push({ anchor, heading, url });
  }
  return out;
}

function siblingText(el: Element, dir: 'prev' | 'next'): string | null {
  let cur = dir === 'prev' ? el.prev : el.next;
  while (cur) {
    if (isElement(cur)) {
      const t = text(cur);
      if (t) return t;
    } else if (cur.type === 'text' && cur.data.trim()) {
      return cur.data.trim();
    }
    cur = dir === 'prev' ? cur.prev : cur.next;
  }
  return null;
}

/**
 * The title line of a heading that also holds metadata lines (channel, length, date): its first
 * child block with text, descending through single-child wrappers.
 */
export function headingTitle(h: Element): string {
  let cur = h;
  for (let depth = 0; depth < 6; depth++) {
    const kids = cur.children.filter((c): c is Element => isElement(c) && text(c) !== '');
    if (kids.length === 0 || cur.children.some((c) => c.type === 'text' && c.data.trim())) break;
    if (kids.length > 1) return text(kids[0]);
    cur = kids[0];
  }
  return text(h);
}

/**
 * News cards show the publisher above the title and the age below it; other carousels (recipes)
 * do not. The social-post carousels of 2025-2026 ("What people are saying", recent posts) carry
 * news-doc ids too, but neither line: a card with neither is no story.
 */
export function parseTopStories(doc: Document, pageUrl: string, organic: Set<Element>): NewsItem[] {
  const out: NewsItem[] = [];
  for (const c of headedCards(doc, pageUrl, ['news', 'section', 'carousel'], organic)) {
    const source = siblingText(c.heading, 'prev');
    if (source === null && !closest(c.anchor, (e) => e.attribs['data-news-doc-id'] !== undefined, 4)) continue;
    const published = siblingText(c.heading, 'next');
    if (source === null && published === null) continue;
    out.push({ position: out.length + 1, title: headingTitle(c.heading), url: c.url, source, published });
  }
  return out;
}

const DURATION = /\b(\d{1,2}:\d{2}(?::\d{2})?)\b/;

export function parseVideos(doc: Document, pageUrl: string, organic: Set<Element>): VideoItem[] {
  return headedCards(doc, pageUrl, ['video'], organic).map((c, i) => {
    const card = regionRoot(c.anchor, 'video') ?? c.anchor;
    const url = linkTarget(attr(card, 'data-surl'), pageUrl) ?? c.url;
    const cardText = text(card, (e) => e === c.heading);
    const duration = cardText.match(DURATION)?.[1] ?? null;
    let source = siblingText(c.heading, 'next');
    if (source && duration && source.includes(duration)) source = source.replace(duration, '').trim() || null;
    return { position: i + 1, title: headingTitle(c.heading), url, source, duration };
  });
}
