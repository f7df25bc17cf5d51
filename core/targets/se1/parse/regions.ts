/**
 * Which block of an se1 result page an element sits in, from structural markers that have been
 * stable across markup generations (2019-2026 captures): region ids (`tads`, `bottomads`, `rhs`),
 * data attributes (`data-text-ad`, `data-news-doc-id`, `data-vid`, `data-q`) and a few long-lived
 * component names (`related-question-pair`, `pla-unit`, `g-section-with-header`).
 */
import type { Document, Element } from '../../../parsers/dom.js';
import { all, contains, hasClass, hostOf, linkTarget } from '../../../parsers/dom.js';

/** `section` and `carousel` are generic wrappers (top stories, recipes, related searches live in them). */
export type Region = 'ads' | 'shopping' | 'paa' | 'news' | 'video' | 'panel' | 'aio' | 'images' | 'section' | 'carousel';

const AD_IDS = new Set(['tads', 'tadsb', 'bottomads', 'tvcap']);

function classify(el: Element): Region | null {
  const a = el.attribs;
  if (a.id && AD_IDS.has(a.id)) return 'ads';
  if (a['data-text-ad'] !== undefined) return 'ads';
  if (a['data-pla'] !== undefined || a['data-pla-slot-pos'] !== undefined) return 'shopping';
  if (a.id === 'rhs') return 'panel';
  if (a.id === 'iur') return 'images';
  if (a['data-news-doc-id'] !== undefined || a['data-news-cluster-id'] !== undefined) return 'news';
  if (a['data-vid'] !== undefined || a['data-surl'] !== undefined) return 'video';
  if (a['data-attrid'] === 'SrpGenSumSummary' || a['data-subtree'] === 'mfc' || a['data-subtree'] === 'aimc') return 'aio';
  if (el.name === 'video-voyager') return 'video';
  if (el.name === 'g-section-with-header') return 'section';
  if (el.name === 'g-scrolling-carousel' || el.name === 'g-inner-card') return 'carousel';
  const cls = a.class;
  if (cls) {
    if (hasClass(el, 'related-question-pair')) return 'paa';
    if (hasClass(el, 'ads-ad') || hasClass(el, 'uEierd')) return 'ads';
    if (hasClass(el, 'pla-unit') || hasClass(el, 'commercial-unit-desktop-top') || hasClass(el, 'commercial-unit-desktop-rhs') || hasClass(el, 'cu-container')) {
      return 'shopping';
    }
  }
  return null;
}

/**
 * Every region the element is inside, innermost first. One walk to the root per call; callers
 * ask for a few dozen elements per page, so this stays well under a millisecond.
 */
export function regionsOf(el: Element): Region[] {
  const out: Region[] = [];
  let cur = el.parent;
  while (cur && cur.type === 'tag') {
    const r = classify(cur);
    if (r) out.push(r);
    cur = cur.parent;
  }
  return out;
}

export function inRegion(el: Element, ...regions: Region[]): boolean {
  let cur = el.parent;
  while (cur && cur.type === 'tag') {
    const r = classify(cur);
    if (r && regions.includes(r)) return true;
    cur = cur.parent;
  }
  return false;
}

/** The nearest ancestor that classifies as `region` (the block container itself). */
export function regionRoot(el: Element, region: Region): Element | null {
  let cur = el.parent;
  while (cur && cur.type === 'tag') {
    if (classify(cur) === region) return cur;
    cur = cur.parent;
  }
  return null;
}

export function classifyElement(el: Element): Region | null {
  return classify(el);
}

/*
 * Titled card groups of the 2023-2026 result pages ("Videos", "Discussions and forums", "Jobs",
 * "Short videos"): a visible group heading (`role=heading aria-level=2`, not an `h2`, which the
 * engine uses for hidden labels such as "Web results") above a few cards whose titles are
 * result-level headings inside links. The cards look like results but are one feature block.
 */
const RESULT_HEADING = 'h3, [role="heading"][aria-level="3"]';
const GROUP_HEADING = '[role="heading"][aria-level="2"]';
/** The result list itself: a group never reaches it. */
const LIST_IDS = new Set(['rso', 'search', 'center_col', 'res', 'main', 'rcnt']);
/** One result block per element of this class: a group spanning two of them is not one block. */
const BLOCK_CLASS = 'MjjYud';
const MAX_CARDS = 8;

/** Ancestors of `el` (its parent up to the root), each once into `into`'s list for it. */
function addToAncestors(el: Element, into: Map<Element, Element[]>): void {
  for (let cur = el.parent; cur && cur.type === 'tag'; cur = cur.parent) {
    const list = into.get(cur);
    if (list) list.push(el);
    else into.set(cur, [el]);
  }
}

/**
 * Every result-level heading that is a card of a titled group. `results`: the page's result
 * headings (RESULT_HEADING, in document order), which the caller has read already. One more pass
 * over the page finds the group headings and the result blocks together; the climbs use ancestor
 * maps rather than a subtree query per level (this runs on every result page: the family's parse
 * cost is held to 1.2× a bare DOM build, issue 26).
 */
export function groupedHeadings(doc: Document, results: Element[]): Set<Element> {
  const out = new Set<Element>();
  const marks = all(`${GROUP_HEADING}, .${BLOCK_CLASS}`, doc);
  const groups = marks.filter((e) => e.name !== 'h2' && e.attribs.role === 'heading' && e.attribs['aria-level'] === '2');
  if (groups.length === 0) return out;
  const held = new Map<Element, Element[]>();
  for (const h of results) addToAncestors(h, held);
  const blocks = new Map<Element, Element[]>();
  for (const b of marks) if (hasClass(b, BLOCK_CLASS)) addToAncestors(b, blocks);
  for (const g of groups) {
    const box = groupOf(g, held, blocks);
    if (box) for (const h of held.get(box) ?? []) out.add(h);
  }
  return out;
}

/** The smallest ancestor of the group heading holding two result headings, if it is one block. */
function groupOf(heading: Element, held: Map<Element, Element[]>, blocks: Map<Element, Element[]>): Element | null {
  let cur = heading.parent;
  for (let i = 0; i < 12 && cur && cur.type === 'tag' && cur.name !== 'body'; i++, cur = cur.parent) {
    if (cur.attribs.id && LIST_IDS.has(cur.attribs.id)) return null;
    const cards = (held.get(cur) ?? []).filter((h) => !contains(heading, h)).length;
    if (cards < 2) continue;
    // A carousel shows a handful of cards; more is a page area (a knowledge panel's column).
    if (cards > MAX_CARDS) return null;
    if (blocks.has(cur)) return null;
    // The group's title comes before its cards; a heading below results (People also ask) heads no group.
    return all(`${GROUP_HEADING}, ${RESULT_HEADING}`, cur)[0] === heading ? cur : null;
  }
  return null;
}

/*
 * Account carousels (the Twitter/X card group, 2019-2024 captures): a section headed by one link
 * to an account ("Movement (@movementlabsxyz) · X", an `h3` in a link, with its own `cite`)
 * above a scrolling carousel of posts by that account, each card linking a post on the same site
 * (`twitter.com/<account>/status/<id>`). The header looks like an organic result (a result-level
 * heading in an external link) but is the group's title: the whole block is one feature.
 *
 * Told by structure, not by class names or the site: the heading's link and the carousel's card
 * links sit in one section (`g-section-with-header`) and point at the same host. The output shape
 * (types.ts, the evaluator's view) has no field for social posts, so the group is only kept out
 * of `organic`.
 */

const CARD_LINKS = 'g-scrolling-carousel g-inner-card a[href], g-scrolling-carousel a[href] g-inner-card';

/** Hosts seen as the same site for the group (`www.` and the mobile subdomain drop). */
function siteOf(url: string): string {
  return hostOf(url).replace(/^(www|mobile|m)\./, '');
}

/**
 * Whether the headed link `anchor` (to `url`) titles an account carousel. Only a link inside a
 * section is looked at (few per page), and each section's card hosts are read once (`memo`).
 */
export function titlesAccountCarousel(anchor: Element, url: string, pageUrl: string, memo: Map<Element, Set<string>>): boolean {
  const section = regionRoot(anchor, 'section');
  if (!section) return false;
  let hosts = memo.get(section);
  if (!hosts) {
    hosts = new Set<string>();
    for (const a of all(CARD_LINKS, section)) {
      const target = linkTarget(a.attribs.href, pageUrl);
      if (target) hosts.add(siteOf(target));
    }
    memo.set(section, hosts);
  }
  return hosts.has(siteOf(url));
}
