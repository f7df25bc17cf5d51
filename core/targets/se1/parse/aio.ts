/**
 * se1 generated answers: the AI overview block on web results and the AI Mode answer page.
 *
 * Markers (2024-2026 captures): the overview lives in a `data-subtree="mfc"` subtree (or a
 * `data-attrid="SrpGenSumSummary"` block); its answer is a run of paragraph/list blocks inside
 * `data-container-id="main-col"` (or `.WaaZC` blocks); its sources are list items holding a link,
 * with the title in the link's `aria-label` or a heading, and the publisher in a trailing line.
 * AI Mode (`udm=50`) uses the same answer/source pieces under `data-subtree="aimc"`.
 */
import type { Document, Element } from '../../../parsers/dom.js';
import { all, attr, closest, contains, linkTarget, one, text } from '../../../parsers/dom.js';
import { inRegion } from './regions.js';
import type { AiOverview, AiSource, Link } from './types.js';

const ROOT = '[data-subtree="mfc"], [data-attrid="SrpGenSumSummary"], [data-subtree="aimc"]';
const BLOCKS = '.WaaZC, [data-answer-block]';

function answerRoot(doc: Document, selector = ROOT): Element | null {
  for (const el of all(selector, doc)) {
    if (inRegion(el, 'paa')) continue;
    // The outermost marked subtree carries header, answer and sources together.
    let top = el;
    for (let cur = closest(el, (e) => e.attribs['data-subtree'] === 'mfc' || e.attribs['data-attrid'] === 'SrpGenSumSummary'); cur; cur = closest(cur, (e) => e.attribs['data-subtree'] === 'mfc')) {
      top = cur;
    }
    return top;
  }
  return null;
}

function isSourceList(el: Element): boolean {
  return el.name === 'ul' && one('li a[href]', el) !== null;
}

function answerText(root: Element): string {
  const main = one('[data-container-id="main-col"]', root);
  if (main) return text(main, (e) => isSourceList(e) || attr(e, 'role') === 'button' || attr(e, 'role') === 'dialog');
  const blocks = all(BLOCKS, root).filter((b, i, arr) => !arr.some((o, j) => j !== i && contains(o, b)));
  if (blocks.length > 0) return blocks.map((b) => text(b)).filter(Boolean).join(' ');
  const rl = one('[data-rl]', root);
  return rl ? text(rl, isSourceList) : '';
}

function sourcesOf(root: Element, pageUrl: string): AiSource[] {
  const out: AiSource[] = [];
  const seen = new Set<string>();
  for (const li of all('li', root)) {
    const a = one('a[href]', li);
    if (!a) continue;
    const url = linkTarget(a.attribs.href, pageUrl);
    if (!url || seen.has(url)) continue;
    const heading = one('[role="heading"], .mNme1d, [data-source-title]', li);
    const title = (attr(a, 'aria-label') ?? '').trim() || (heading ? text(heading) : '') || text(a);
    if (!title) continue;
    const pub = one('.LzPlYe, [data-source-publisher]', li);
    seen.add(url);
    out.push({ title, url, publisher: pub ? text(pub) || null : null });
  }
  return out;
}

export function parseAiOverview(doc: Document, pageUrl: string): AiOverview | null {
  const root = answerRoot(doc);
  if (!root) return null;
  const t = answerText(root);
  if (!t) return null;
  return { text: t, sources: sourcesOf(root, pageUrl) };
}

export interface AiModeAnswer {
  answer: string;
  citations: AiSource[];
  links: Link[];
}

/** The AI Mode page: the answer, its cited sources, and the links written into the answer itself. */
export function parseAiMode(doc: Document, pageUrl: string): AiModeAnswer | null {
  const root = answerRoot(doc, '[data-subtree="aimc"]') ?? answerRoot(doc);
  if (!root) return null;
  const answer = answerText(root);
  if (!answer) return null;
  const main = one('[data-container-id="main-col"]', root) ?? root;
  const links: Link[] = [];
  const seen = new Set<string>();
  for (const a of all('a[href]', main)) {
    if (closest(a, (e) => e.name === 'li' && isSourceList(e.parent as Element), 6)) continue;
    const url = linkTarget(a.attribs.href, pageUrl);
    const title = text(a);
    if (!url || !title || seen.has(url)) continue;
    seen.add(url);
    links.push({ title, url });
  }
  return { answer, citations: sourcesOf(root, pageUrl), links };
}
