/**
 * se1 organic results. The signal that survived every markup generation in the fixtures is
 * structural: a result title is a heading (`h3`, or `role=heading aria-level=3` on mobile)
 * inside a link to an external page; the result container is the largest ancestor of that link
 * holding no other result title. Snippet and displayed URL are then looked up inside the
 * container by a short list of long-lived markers, with a text fallback.
 */
import type { Document, Element } from '../../../parsers/dom.js';
import { all, attr, closest, contains, hasClass, linkTarget, one, text } from '../../../parsers/dom.js';
import { groupedHeadings, regionsOf, titlesAccountCarousel } from './regions.js';
import type { FeaturedSnippet, Link, OrganicResult } from './types.js';

interface Candidate {
  anchor: Element;
  heading: Element;
  url: string;
}

/** Regions whose headed links are never organic results. */
const NOT_ORGANIC = new Set(['ads', 'shopping', 'paa', 'news', 'panel', 'aio', 'images', 'carousel']);

const SNIPPET = '[data-sncf="1"], .VwiC3b, .st, .IsZvec, .s3v9rd, .lEBKkf, [data-content-feature="1"], .aCOpRe';
const FEATURED_TEXT = '[data-attrid="wa:/description"], .hgKElc';
/** Container classes that end the climb: one result per element of these, in every generation seen. */
const STOP_CLASSES = ['g', 'MjjYud', 'Gx5Zad', 'xpd'];

function headedLinks(doc: Document, pageUrl: string): Candidate[] {
  const out: Candidate[] = [];
  const seen = new Set<Element>();
  // A featured snippet's answer line is a heading too, but never a card of a group.
  const headings = all('h3, [role="heading"][aria-level="3"]', doc).filter((h) => h.attribs['data-attrid'] !== 'wa:/description');
  const grouped = groupedHeadings(doc, headings);
  const sectionHosts = new Map<Element, Set<string>>();
  for (const h of headings) {
    if (h.name === 'a') continue; // A link that is itself the heading is a carousel card (videos, 2020-2022), never a result.
    const anchor = closest(h, (e) => e.name === 'a' && e.attribs.href !== undefined, 7) ?? innerTitleLink(h);
    if (!anchor || seen.has(anchor)) continue;
    const url = linkTarget(anchor.attribs.href, pageUrl);
    if (!url) continue;
    const regions = regionsOf(anchor);
    // An h3 result inside a video wrapper is a video-typed organic result; a bare heading there is a carousel card.
    // Bare headings (no h3) in carousels and sections are cards (news, recipes, videos), not results.
    if (regions.some((r) => NOT_ORGANIC.has(r) || ((r === 'video' || r === 'section') && h.name !== 'h3'))) continue;
    if (isEngineSearch(url) || grouped.has(h)) continue;
    // The title of an account's post carousel (Twitter/X) heads a feature block, not a result.
    if (regions.includes('section') && titlesAccountCarousel(anchor, url, pageUrl, sectionHosts)) continue;
    seen.add(anchor);
    out.push({ anchor, heading: h, url });
  }
  if (out.length > 0) return out;
  // Oldest generation: `h3.r > a` (title heading wrapping the link).
  for (const anchor of all('h3.r > a[href]', doc)) {
    const url = linkTarget(anchor.attribs.href, pageUrl);
    if (url && !regionsOf(anchor).some((r) => NOT_ORGANIC.has(r))) out.push({ anchor, heading: anchor.parent as Element, url });
  }
  return out;
}

/**
 * The link a heading wraps, when the heading is the title line itself (`h3 > a`, the mobile
 * featured snippet's source result, 2023): its only element child, carrying all its text. Only
 * when the heading is the one result heading of its result block: sitelinks are `h3 > a` too,
 * inside the block of the result they belong to.
 */
function innerTitleLink(h: Element): Element | null {
  if (h.name !== 'h3') return null;
  const kids = h.children.filter((c): c is Element => c.type === 'tag');
  const a = kids.length === 1 ? kids[0] : undefined;
  if (!a || a.name !== 'a' || a.attribs.href === undefined || text(a) !== text(h)) return null;
  const block = closest(h, (e) => STOP_CLASSES.some((cls) => hasClass(e, cls)), 10);
  return block && all('h3', block).length === 1 ? a : null;
}

/** Links back to the engine's own result pages ("More results", the jobs and places views) are not results. */
function isEngineSearch(url: string): boolean {
  try {
    const u = new URL(url);
    return /^(www\.)?google\.[a-z.]+$/.test(u.hostname) && u.pathname === '/search';
  } catch {
    return false;
  }
}

/** Largest ancestor of each candidate's link that holds no other candidate (bounded climb). */
function containers(cands: Candidate[]): Element[] {
  const count = new Map<Element, number>();
  for (const c of cands) {
    let cur = c.anchor.parent;
    while (cur && cur.type === 'tag') {
      count.set(cur, (count.get(cur) ?? 0) + 1);
      cur = cur.parent;
    }
  }
  return cands.map((c) => {
    let box: Element = c.anchor;
    for (let i = 0; i < 12; i++) {
      const p = box.parent;
      if (!p || p.type !== 'tag' || (count.get(p) ?? 0) > 1 || p.name === 'body' || p.attribs.id === 'rso' || p.attribs.id === 'search') break;
      box = p;
      if (STOP_CLASSES.some((cls) => hasClass(box, cls))) break;
    }
    return box;
  });
}

function outside(anchor: Element): (el: Element) => boolean {
  return (el) => !contains(anchor, el);
}

function snippetOf(box: Element, anchor: Element): string | null {
  const notInAnchor = outside(anchor);
  const marked = all(SNIPPET, box).filter(notInAnchor);
  // Prefer a marked block without links: on basic-HTML pages the outer block also holds sitelinks;
  // and without a rating widget (`role=img` stars), the rich-result line above the text there.
  const linkFree = marked.filter((el) => one('a', el) === null);
  const best = linkFree.find((el) => one('[role="img"]', el) === null) ?? linkFree[0] ?? marked[0];
  if (best) {
    const t = text(best);
    if (t) return t;
  }
  // Fallback: the container's text without the title link, links, citations and buttons.
  const t = text(box, (el) => el === anchor || el.name === 'a' || el.name === 'cite' || attr(el, 'role') === 'button' || el.name === 'table');
  return t || null;
}

/** A displayed URL: a host, or a URL, optionally followed by ` › ` path crumbs. */
const URLISH = /^(?:https?:\/\/)?[\p{L}\d-]+(?:\.[\p{L}\d-]+)+(?:[/:][^\s›]*)?(?: › .*)?$/u;

function displayedUrl(box: Element, anchor: Element, heading: Element): string | null {
  const cite = one('cite', box);
  if (cite) return text(cite) || null;
  const roleText = one('[role="text"], .UPmit', anchor);
  if (roleText) return text(roleText) || null;
  // Mobile results of 2021-2022 show it as a plain line in the title link, above the heading.
  for (const el of all('span, div', anchor)) {
    if (contains(el, heading) || contains(heading, el)) continue;
    const t = text(el);
    if (t && t.length <= 200 && URLISH.test(t)) return t;
  }
  return null;
}

function sameDocument(a: string, b: string): boolean {
  return a.split('#')[0] === b.split('#')[0];
}

/**
 * Other links of the result (sitelinks). Left out: menus and citations, links back to the same
 * document ("Read more"), engine services wrapping the result URL (cached copy, translation) and
 * labels without words (review counts, prices).
 */
export function sitelinksOf(box: Element, anchor: Element, mainUrl: string, pageUrl: string): Link[] {
  const out: Link[] = [];
  const seen = new Set<string>();
  const bare = mainUrl.replace(/^https?:\/\//, '').split('#')[0];
  for (const a of all('a[href]', box)) {
    if (a === anchor || contains(anchor, a) || contains(a, anchor)) continue;
    if (closest(a, (e) => e === box || e.name === 'cite' || attr(e, 'role') === 'menu' || hasClass(e, 'action-menu')) !== box) continue;
    const url = linkTarget(a.attribs.href, pageUrl);
    const title = text(a);
    if (!url || !title || title.length > 120 || seen.has(url) || sameDocument(url, mainUrl)) continue;
    if (!/\p{L}{2}/u.test(title.replace(/\d+(?:[.,]\d+)?[KkMm]\b/g, ''))) continue;
    // A link carrying the result's own URL in its query is a service wrapper (cached copy, translation).
    if (bare.length > 8 && safeDecode(queryOf(url)).includes(bare)) continue;
    seen.add(url);
    out.push({ title, url });
  }
  return out;
}

function queryOf(url: string): string {
  const i = url.indexOf('?');
  return i < 0 ? '' : url.slice(i);
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export interface OrganicBlock {
  results: OrganicResult[];
  /** The featured snippet, when one of the results carries it (it also stays in `results`). */
  featured: FeaturedSnippet | null;
  /** The title links of the results, so carousels can skip them. */
  anchors: Set<Element>;
}

/** The wrapper of a featured snippet around its source result, in the generations seen. */
function featuredRoot(anchor: Element): Element | null {
  return closest(anchor, (e) => e.name === 'block-component' || hasClass(e, 'g-blk') || hasClass(e, 'xpdopen'), 20);
}

/**
 * The answer of a list featured snippet (2024): the items of a list beside the source result in
 * the snippet's wrapper, one a line. Lists inside the result's own block are its snippet's.
 */
function featuredList(fRoot: Element, box: Element): string | null {
  const list = all('ol, ul', fRoot).find((l) => !contains(box, l) && !contains(l, box));
  if (!list) return null;
  const items = list.children.filter((c): c is Element => c.type === 'tag' && c.name === 'li').map((li) => text(li)).filter(Boolean);
  return items.length >= 2 ? items.join('\n') : null;
}

export function parseOrganic(doc: Document, pageUrl: string): OrganicBlock {
  const cands = headedLinks(doc, pageUrl);
  const boxes = containers(cands);
  let featured: FeaturedSnippet | null = null;
  const results: OrganicResult[] = [];
  const anchors = new Set<Element>();
  cands.forEach((c, i) => {
    const box = boxes[i];
    // App listings (an install link on the card) are not web results.
    if (one('a[data-app]', box)) return;
    const title = text(c.heading);
    const displayed = displayedUrl(box, c.anchor, c.heading);
    let snippet = snippetOf(box, c.anchor);
    const fRoot = featured ? null : featuredRoot(c.anchor);
    const fText = fRoot ? all(FEATURED_TEXT, fRoot).find(outside(c.anchor)) : undefined;
    // The answer is the snippet's marked text, else a list beside the result (featuredList).
    const answer = fText ? text(fText) || snippet : fRoot ? featuredList(fRoot, box) : null;
    if (fText || answer) {
      snippet = answer;
      featured = { title, url: c.url, displayed_url: displayed, text: snippet ?? '' };
    }
    anchors.add(c.anchor);
    results.push({
      position: results.length + 1,
      title,
      url: c.url,
      displayed_url: displayed,
      snippet,
      sitelinks: sitelinksOf(box, c.anchor, c.url, pageUrl),
    });
  });
  return { results, featured, anchors };
}
