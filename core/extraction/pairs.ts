/**
 * Label/value pairs of the visible page: two-column table rows, definition lists, "Label: value"
 * lines (also several per block, split at <br>), label/value elements named by class, and
 * lists of two-cell rows (spec sheets built from divs).
 *
 * A table's header row (`<th>Name</th><th>Value</th>`) is not a pair, and the rows of a
 * two-column table whose header names other columns (`Product | Price`) are a listing, not
 * labels and values. Every walk is linear in the page (tree.ts) and texts share one budget.
 */
import { type AnyNode, type Budget, type Document, type Element, BLOCK, budgetFor, children, clean, imageUrl, isTag, textOf } from './dom.js';
import { type Candidate, type Origin, WEIGHT, ZONE_FACTOR } from './model.js';
import { Tree } from './tree.js';

const SKIP = new Set(['script', 'style', 'noscript', 'template', 'svg', 'head', 'select', 'option', 'iframe']);
const LABEL_LINE = /^([^:：]{1,60}?)\s*[:：]\s*(\S.{0,499})$/;
/** A capitalised label inside a line: `SKU: TS-HP4 Category: Planes` holds two pairs. */
const INNER_LABEL = /(?:^|\s)(\p{Lu}[\p{L}\p{N} ]{0,40}?)\s*[:：](?=\s)/gu;

/** The "Label: value" pairs of one line of text: one, or several written side by side. */
function labelLines(line: string): Array<[string, string]> {
  const starts = [...line.matchAll(INNER_LABEL)];
  if (starts.length >= 2) {
    return starts.map((m, i) => {
      const from = (m.index ?? 0) + m[0].length;
      const to = i + 1 < starts.length ? (starts[i + 1]?.index ?? line.length) : line.length;
      return [m[1] as string, line.slice(from, to).trim()] as [string, string];
    }).filter(([, v]) => v !== '');
  }
  const m = LABEL_LINE.exec(line);
  return m ? [[m[1] as string, m[2] as string]] : [];
}
/** Largest element (in elements) whose text is read as one label or value. */
const PAIR_MAX_SIZE = 200;
/** Header cells that say the table is a list of keys and values. */
const KEY_HEADER = /^(name|key|property|attribute|feature|spec(ification)?s?|field|parameter|characteristic|detail|item|label)$/i;

export function cleanLabel(s: string): string {
  return clean(s.replace(/[\u200e\u200f]/g, '')).replace(/\s*[:：]$/, '').trim();
}

export function isLabel(s: string): boolean {
  return s.length > 0 && s.length <= 60 && /\p{L}/u.test(s) && s.split(' ').length <= 6 && !/^https?$/i.test(s) && !/\d{1,2}$/.test(s);
}

/** What a reader of pairs shares: the tree (sizes, zones, tables) and the text budget. */
export interface PairContext {
  tree: Tree;
  budget: Budget;
}

function push(out: Candidate[], ctx: PairContext, at: Element, label: string, value: string, origin: Origin, weight: number): void {
  out.push({ path: [label], value, origin, weight: weight * ZONE_FACTOR[ctx.tree.zone(at)], source: `${origin}:${label}` });
}

/** A cell's value: its text, else the image it shows. */
function cellValue(el: Element, base: string, ctx: PairContext): string {
  const t = textOf(el, false, ctx.budget);
  if (t !== '') return t;
  const img = ctx.tree.within(el).find((e) => e.name === 'img');
  return img ? (imageUrl(img, base) ?? '') : '';
}

const cellsOf = (row: Element): Element[] => children(row).filter((c) => c.name === 'td' || c.name === 'th');

function tableCandidates(rows: readonly Element[], base: string, ctx: PairContext, out: Candidate[]): void {
  const head = rows.find((r) => cellsOf(r).length >= 2 && cellsOf(r).every((c) => c.name === 'th'));
  if (head) {
    const first = cellsOf(head)[0] as Element;
    // `Product | Price`: a listing keyed by its columns (repeated.ts reads it), not pairs.
    if (cellsOf(head).length === 2 && !KEY_HEADER.test(cleanLabel(textOf(first, false, ctx.budget)))) return;
  }
  for (const row of rows) {
    if (row === head) continue;
    const cells = cellsOf(row);
    if (cells.length !== 2) continue;
    const [l, v] = cells as [Element, Element];
    // A row of two header cells labels columns, it is not a label and its value.
    if (v.name === 'th' || ctx.tree.size(l) > PAIR_MAX_SIZE) continue;
    const label = cleanLabel(textOf(l, false, ctx.budget));
    const value = ctx.tree.size(v) > PAIR_MAX_SIZE ? '' : cellValue(v, base, ctx);
    if (isLabel(label) && value !== '') push(out, ctx, row, label, value, 'table', WEIGHT.table);
  }
}

function dlCandidates(dl: Element, base: string, ctx: PairContext, out: Candidate[]): void {
  let label: string | undefined;
  for (const c of children(dl).flatMap((x) => (x.name === 'div' ? children(x) : [x]))) {
    if (ctx.tree.size(c) > PAIR_MAX_SIZE) {
      label = undefined;
      continue;
    }
    if (c.name === 'dt') label = cleanLabel(textOf(c, false, ctx.budget));
    else if (c.name === 'dd' && label && isLabel(label)) {
      const value = cellValue(c, base, ctx);
      if (value !== '') push(out, ctx, c, label, value, 'dl', WEIGHT.dl);
    }
  }
}

/**
 * Block elements with no block element below them (`<br>` aside): where "Label: value" lines
 * live. Leaves do not nest, so reading each one's text is linear in the page.
 */
function leafBlocks(ctx: PairContext): Element[] {
  const hasBlock = new Set<AnyNode>();
  const leaves: Element[] = [];
  const els = ctx.tree.elements;
  // Children before parents: document order reversed.
  for (let i = els.length - 1; i >= 0; i--) {
    const el = els[i] as Element;
    if (SKIP.has(el.name) || ctx.tree.invisible(el)) continue;
    const block = BLOCK.has(el.name) && el.name !== 'br';
    if (block && !hasBlock.has(el)) leaves.push(el);
    if ((block || hasBlock.has(el)) && el.parent) hasBlock.add(el.parent);
  }
  return leaves.reverse();
}

const TABLE_PARTS = new Set(['tr', 'thead', 'tbody', 'tfoot', 'table', 'colgroup']);
const LABEL_CLASS = /(^|[-_])(label|key|term|name|title|heading)$/i;
const VALUE_CLASS = /(^|[-_])(value|data|content|text|desc|detail)$/i;
const hasClass = (el: Element, re: RegExp): boolean => (el.attribs.class ?? '').split(/\s+/).some((c) => re.test(c));

/** `<div class="x-label">Publisher</div> <div class="x-value">Acme</div>`: pairs named by class, no colon. */
function classPairs(els: readonly Element[], ctx: PairContext, out: Candidate[]): void {
  for (const el of els) {
    if (!el.attribs.class || !hasClass(el, LABEL_CLASS) || ctx.tree.size(el) > PAIR_MAX_SIZE) continue;
    const label = cleanLabel(textOf(el, false, ctx.budget));
    if (!isLabel(label)) continue;
    let sib: AnyNode | null = el.next;
    for (let hops = 0; sib && hops < 6; sib = sib.next, hops++) {
      if (!isTag(sib)) continue;
      if (hasClass(sib, VALUE_CLASS)) {
        const value = ctx.tree.size(sib) > PAIR_MAX_SIZE ? '' : textOf(sib, false, ctx.budget);
        if (value !== '' && value.length <= 500) push(out, ctx, sib, label, value, 'label', WEIGHT.label);
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
function rowPairs(els: readonly Element[], ctx: PairContext, out: Candidate[]): void {
  const { tree } = ctx;
  const isRow = (el: Element): boolean => {
    // Table rows are their table's (tableCandidates): a header row is not a pair.
    if (TABLE_PARTS.has(el.name) || tree.size(el) > PAIR_MAX_SIZE) return false;
    const kids = children(el);
    return kids.length === 2 && kids[0]?.name === kids[1]?.name && kids.every((k) => !tree.within(k).slice(1).some((d) => BLOCK.has(d.name) && d.name !== 'br'));
  };
  const rowCache = new Map<Element, boolean>();
  const row = (el: Element): boolean => {
    let v = rowCache.get(el);
    if (v === undefined) rowCache.set(el, (v = isRow(el)));
    return v;
  };
  for (const el of els) {
    if (!row(el) || !el.parent || !isTag(el.parent)) continue;
    let alike = 0;
    for (const s of children(el.parent)) if (s.name === el.name && row(s) && ++alike >= 2) break;
    if (alike < 2) continue;
    const [l, v] = children(el) as [Element, Element];
    const label = cleanLabel(textOf(l, false, ctx.budget));
    const value = textOf(v, false, ctx.budget);
    if (isLabel(label) && label.length <= 40 && value !== '' && value.length <= 300) push(out, ctx, el, label, value, 'label', 0.65);
  }
}

/**
 * Appends the pairs found under `root`: tables, lists and named pairs among `els` (callers
 * pick them: every element, or only the tables and definition lists of a box), and "Label:
 * value" lines anywhere under `root`. Without a context, one is made for `root`.
 */
export function labelValuePairs(root: Element | Document, els: Element[], base: string, out: Candidate[], given?: PairContext): void {
  const ctx = given ?? newPairContext(root);
  const rowsOf = ctx.tree.rowsByTable();
  for (const el of els) {
    if (el.name === 'table') tableCandidates(rowsOf.get(el) ?? [], base, ctx, out);
    else if (el.name === 'dl') dlCandidates(el, base, ctx, out);
  }
  for (const leaf of leafBlocks(ctx)) {
    for (const line of textOf(leaf, true, ctx.budget).split('\n')) {
      for (const [rawLabel, value] of labelLines(line)) {
        const label = cleanLabel(rawLabel);
        if (isLabel(label)) push(out, ctx, leaf, label, clean(value), 'label', WEIGHT.label);
      }
    }
  }
  classPairs(els, ctx, out);
  rowPairs(els, ctx, out);
}

export function newPairContext(root: Element | Document, tree = new Tree(root)): PairContext {
  return { tree, budget: budgetFor(tree.elements.length) };
}
