/**
 * Reading result cards by their visual lines instead of their class names. Every generation of
 * the engine's vertical cards (news 2013-2025, image cells, local places) stacks the same facts
 * as lines — source, title, snippet, date; name, rating · category, address — while the class
 * names change every few months. A line is a block element holding text and no block child with
 * text, or a run of inline content between `<br>`s and blocks.
 */
import type { AnyNode, Element } from '../../../parsers/dom.js';
import { attr, isElement, text } from '../../../parsers/dom.js';

export interface Line {
  text: string;
  /** The block holding the line (for a `<br>`-separated run, the block the run sits in). */
  el: Element;
  /** The line is (inside) a heading: `h1`-`h6` or `role=heading`. */
  heading: boolean;
}

const BLOCK = new Set(['div', 'p', 'li', 'ul', 'ol', 'table', 'tbody', 'tr', 'td', 'th', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'section', 'article', 'header', 'footer', 'g-img', 'cite', 'dl', 'dt', 'dd']);

function isBlock(n: AnyNode): n is Element {
  return isElement(n) && (BLOCK.has(n.name) || attr(n, 'role') === 'heading');
}

function isHeading(el: Element): boolean {
  return /^h[1-6]$/.test(el.name) || attr(el, 'role') === 'heading';
}

function hasBlockText(el: Element): boolean {
  for (const c of el.children) {
    if (!isElement(c)) continue;
    if (c.name === 'br') return true;
    if ((isBlock(c) && text(c) !== '') || hasBlockText(c)) return true;
  }
  return false;
}

/** The lines of `root` in document order; `skip` prunes subtrees (buttons, menus). */
export function linesOf(root: Element, skip?: (el: Element) => boolean, inHeading = false): Line[] {
  const out: Line[] = [];
  const heading = inHeading || isHeading(root);
  if (!hasBlockText(root)) {
    const t = text(root, skip);
    if (t) out.push({ text: t, el: root, heading });
    return out;
  }
  // Inline runs between blocks and <br>s are lines of their own.
  let run: AnyNode[] = [];
  const flush = () => {
    const t = run
      .map((n) => (isElement(n) ? text(n, skip) : n.type === 'text' ? n.data : ''))
      .join('')
      .replace(/[\s\u00a0]+/g, ' ')
      .trim();
    if (t) out.push({ text: t, el: root, heading });
    run = [];
  };
  for (const c of root.children) {
    if (isElement(c) && skip?.(c)) continue;
    if (isElement(c) && c.name === 'br') {
      flush();
    } else if (isElement(c) && (isBlock(c) || hasBlockText(c))) {
      flush();
      out.push(...linesOf(c, skip, heading));
    } else {
      run.push(c);
    }
  }
  flush();
  return out;
}

const MONTHS =
  'jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|janv|févr|mars|avr|mai|juin|juil|août|sept|déc|ene|abr|ago|dic|gen|mag|giu|lug|set|ott|okt|dez|mär|mrt|maj|sty|lut|kwi|maj|cze|lip|sie|wrz|paź|lis|gru|янв|фев|мар|апр|мая|июн|июл|авг|сен|окт|ноя|дек';
/**
 * A publication date as result cards print it: relative ("3 hours ago", "vor 2 Tagen",
 * "il y a 5 jours", "hace 1 día", "2 дня назад", "3 週間前", "5 小时前") or absolute ("Apr 20, 2019",
 * "20 avr. 2019", "2019-04-20", "20.04.2019", "2019年4月20日").
 */
const DATE = new RegExp(
  [
    '\\b\\d+\\s*(?:sec|min|minute|hour|hr|day|week|month|year|mins|hours|days|weeks|months|years)s?\\.?\\s+ago\\b',
    '\\bvor\\s+\\d+\\s+\\p{L}+',
    '\\bil y a\\s+\\d+',
    '\\bhace\\s+\\d+',
    '\\d+\\s+\\p{L}+\\s+(?:назад|fa|geleden|temu|önce|sedan|siden)',
    '\\d+\\s*(?:秒|分|分钟|分鐘|小时|小時|時間|天|日|週間|周|个月|か月|年)前',
    '\\d+\\s*(?:시간|분|일|주|개월|년)\\s*전',
    `\\b(?:${MONTHS})\\p{L}*\\.?\\s+\\d{1,2},?\\s+\\d{4}`,
    `\\b\\d{1,2}\\.?\\s+(?:${MONTHS})\\p{L}*\\.?,?\\s+\\d{4}`,
    '\\b\\d{4}[-/.]\\d{1,2}[-/.]\\d{1,2}\\b',
    '\\b\\d{1,2}[-/.]\\d{1,2}[-/.]\\d{2,4}\\b',
    '\\d{4}\\s*年\\s*\\d{1,2}\\s*月(?:\\s*\\d{1,2}\\s*日)?',
    '\\b(?:yesterday|today|gestern|heute|hier|ayer|ieri|вчера)\\b',
  ].join('|'),
  'iu',
);

/** The date part of a line ("BBC - 3 hours ago" → "3 hours ago"), or null. */
export function dateIn(line: string): string | null {
  if (line.length > 60) return null;
  const m = DATE.exec(line);
  return m ? m[0].trim() : null;
}
