/**
 * Label/value pairs of the visible page: two-column table rows, definition lists, "Label: value"
 * lines (also several per block, split at <br>), label/value elements named by class, and
 * lists of two-cell rows (spec sheets built from divs).
 */
import { type AnyNode, type Document, type Element, BLOCK, allElements, children, clean, imageUrl, isTag, textOf } from './dom.js';
import { type Candidate, WEIGHT } from './model.js';

const SKIP = new Set(['script', 'style', 'noscript', 'template', 'svg', 'head', 'select', 'option', 'iframe']);
const LABEL_LINE = /^([^:：]{1,60}?)\s*[:：]\s*(\S.{0,499})$/;

export function cleanLabel(s: string): string {
  return clean(s.replace(/[\u200e\u200f]/g, '')).replace(/\s*[:：]$/, '').trim();
}

export function isLabel(s: string): boolean {
  return s.length > 0 && s.length <= 60 && /\p{L}/u.test(s) && s.split(' ').length <= 6 && !/^https?$/i.test(s) && !/\d{1,2}$/.test(s);
}

/** A cell's value: its text, else the image it shows. */
function cellValue(el: Element, base: string): string {
  const t = textOf(el);
  if (t !== '') return t;
  const img = allElements(el).find((e) => e.name === 'img');
  return img ? (imageUrl(img, base) ?? '') : '';
}

function tableCandidates(table: Element, base: string, out: Candidate[]): void {
  const rows = allElements(table).filter((r) => r.name === 'tr' && closestTable(r) === table);
  for (const row of rows) {
    const cells = children(row).filter((c) => c.name === 'td' || c.name === 'th');
    if (cells.length !== 2) continue;
    const label = cleanLabel(textOf(cells[0] as Element));
    const value = cellValue(cells[1] as Element, base);
    if (isLabel(label) && value !== '') out.push({ path: [label], value, origin: 'table', weight: WEIGHT.table });
  }
}

function closestTable(el: Element): Element | undefined {
  for (let p = el.parent; p; p = p.parent) if (isTag(p) && p.name === 'table') return p;
  return undefined;
}

function dlCandidates(dl: Element, base: string, out: Candidate[]): void {
  let label: string | undefined;
  for (const c of children(dl).flatMap((x) => (x.name === 'div' ? children(x) : [x]))) {
    if (c.name === 'dt') label = cleanLabel(textOf(c));
    else if (c.name === 'dd' && label && isLabel(label)) {
      const value = cellValue(c, base);
      if (value !== '') out.push({ path: [label], value, origin: 'dl', weight: WEIGHT.dl });
    }
  }
}

/** Whether the element has block-level descendants other than `<br>` (then it is not a leaf block). */
function leafBlocks(root: Element | Document): Element[] {
  const leaves: Element[] = [];
  const visit = (el: Element | Document): boolean => {
    let hasBlock = false;
    for (const c of el.children) if (isTag(c) && !SKIP.has(c.name) && (visit(c) || (BLOCK.has(c.name) && c.name !== 'br'))) hasBlock = true;
    if (!hasBlock && isTag(el) && BLOCK.has(el.name) && el.name !== 'br') leaves.push(el);
    return hasBlock;
  };
  visit(root);
  return leaves;
}

const LABEL_CLASS = /(^|[-_])(label|key|term|name|title|heading)$/i;
const VALUE_CLASS = /(^|[-_])(value|data|content|text|desc|detail)$/i;
const hasClass = (el: Element, re: RegExp): boolean => (el.attribs.class ?? '').split(/\s+/).some((c) => re.test(c));

/** `<div class="x-label">Publisher</div> <div class="x-value">Acme</div>`: pairs named by class, no colon. */
function classPairs(els: Element[], out: Candidate[]): void {
  for (const el of els) {
    if (!hasClass(el, LABEL_CLASS)) continue;
    const label = cleanLabel(textOf(el));
    if (!isLabel(label)) continue;
    let sib: AnyNode | null = el.next;
    for (let hops = 0; sib && hops < 6; sib = sib.next, hops++) {
      if (!isTag(sib)) continue;
      if (hasClass(sib, VALUE_CLASS)) {
        const value = textOf(sib);
        if (value !== '' && value.length <= 500) out.push({ path: [label], value, origin: 'label', weight: WEIGHT.label });
        break;
      }
      if (hasClass(sib, LABEL_CLASS)) break;
    }
  }
}


/**
 * A list of rows with two cells each, the first a short label: `<div><div>Model Number</div>
 * <div>A1383H11-1</div></div>` repeated. Only rows with siblings of the same shape count, so a
 * lone pair of elements is not taken for a label and its value.
 */
function rowPairs(els: Element[], out: Candidate[]): void {
  const isRow = (el: Element): boolean => {
    const kids = children(el);
    return kids.length === 2 && kids[0]?.name === kids[1]?.name && kids.every((k) => !allElements(k).slice(1).some((d) => BLOCK.has(d.name) && d.name !== 'br'));
  };
  for (const el of els) {
    if (!isRow(el) || !el.parent || !isTag(el.parent)) continue;
    if (children(el.parent).filter((s) => s.name === el.name && isRow(s)).length < 2) continue;
    const [l, v] = children(el) as [Element, Element];
    const label = cleanLabel(textOf(l));
    const value = textOf(v);
    if (isLabel(label) && label.length <= 40 && value !== '' && value.length <= 300) out.push({ path: [label], value, origin: 'label', weight: 0.65 });
  }
}

export function labelValuePairs(root: Element | Document, els: Element[], base: string, out: Candidate[]): void {
  for (const el of els) {
    if (el.name === 'table') tableCandidates(el, base, out);
    else if (el.name === 'dl') dlCandidates(el, base, out);
  }
  for (const leaf of leafBlocks(root)) {
    for (const line of textOf(leaf, true).split('\n')) {
      const m = LABEL_LINE.exec(line);
      if (!m) continue;
      const label = cleanLabel(m[1] as string);
      if (isLabel(label)) out.push({ path: [label], value: clean(m[2] as string), origin: 'label', weight: WEIGHT.label });
    }
  }
  classPairs(els, out);
  rowPairs(els, out);
}
