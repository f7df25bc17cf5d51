/**
 * Arrays of objects from a page: a list in structured data (ItemList, several Products),
 * the rows of a table with a header, or repeated sibling elements (product cards, article
 * teasers) whose contents fill the item schema. Each source is scored by how many item fields
 * its first members fill; the best wins.
 */
import { visibleCandidates } from './candidates.js';
import { type Document, type Element, absoluteUrl, allElements, children, imageUrl, textOf } from './dom.js';
import { type FillContext, fillObject } from './fill.js';
import type { PropertyName } from './matcher.js';
import { type Candidate, type Entity, WEIGHT, flatten, isPlainObject } from './model.js';
import { type SchemaObject, type SchemaView, view } from './schema.js';

/** A repeated structure: how many members, and each member's candidates (built lazily). */
interface Source {
  count: number;
  pool: (i: number) => Candidate[];
}

function fromPools(pools: Candidate[][]): Source {
  return { count: pools.length, pool: (i) => pools[i] as Candidate[] };
}

const SAMPLE = 4;
const MAX_GROUPS = 40;

function fraction(item: Record<string, unknown> | undefined, v: SchemaView): number {
  if (!item || !v.properties) return 0;
  const names = Object.keys(v.properties);
  return names.filter((n) => item[n] !== undefined && item[n] !== null).length / Math.max(1, names.length);
}

function evaluate(src: Source, v: SchemaView, ctx: FillContext): number {
  if (src.count < 2) return 0;
  const n = Math.min(SAMPLE, src.count);
  let sum = 0;
  for (let i = 0; i < n; i++) sum += fraction(fillObject(v, [], src.pool(i), ctx), v);
  return sum / n;
}

/** Structured data: ItemList elements, else the largest group of same-typed entities. */
function structuredSources(entities: Entity[]): Source[] {
  const sources: Source[] = [];
  for (const e of entities) {
    const list = e.types.includes('ItemList') ? e.data.itemListElement : undefined;
    if (!Array.isArray(list)) continue;
    const members = list.filter(isPlainObject).map((m) => (isPlainObject(m.item) ? m.item : m));
    sources.push(fromPools(members.map((m) => flatten(m, { origin: e.origin, weight: WEIGHT[e.origin] }))));
  }
  const byType = new Map<string, Entity[]>();
  for (const e of entities) {
    const t = e.types[0];
    if (t && t !== 'ListItem' && t !== 'ItemList') byType.set(t, [...(byType.get(t) ?? []), e]);
  }
  for (const group of byType.values()) {
    if (group.length >= 2) sources.push(fromPools(group.map((e) => flatten(e.data, { origin: e.origin, weight: WEIGHT[e.origin] }))));
  }
  return sources;
}

/** Header cells of a table, and its data rows. */
function tableSource(table: Element, base: string): Source | undefined {
  const rows = allElements(table).filter((r) => r.name === 'tr');
  const cellsOf = (r: Element): Element[] => children(r).filter((c) => c.name === 'td' || c.name === 'th');
  const headRow = rows.find((r) => cellsOf(r).length >= 2 && cellsOf(r).every((c) => c.name === 'th'));
  if (!headRow) return undefined;
  const headers = cellsOf(headRow).map((c) => textOf(c));
  const data = rows.filter((r) => r !== headRow && cellsOf(r).length === headers.length);
  if (data.length < 2) return undefined;
  return fromPools(
    data.map((row) => {
      const pool: Candidate[] = [];
      cellsOf(row).forEach((cell, i) => {
        const label = headers[i] as string;
        const text = textOf(cell);
        if (text !== '' && label !== '') pool.push({ path: [label], value: text, origin: 'table', weight: WEIGHT.table });
        for (const el of allElements(cell)) {
          if (el.name === 'a' && el.attribs.href) pool.push({ path: ['url'], value: absoluteUrl(el.attribs.href, base), origin: 'table', weight: 0.5 });
          if (el.name === 'img') pool.push({ path: ['image'], value: imageUrl(el, base), origin: 'table', weight: 0.5 });
        }
      });
      return pool;
    }),
  );
}

const VOLATILE = /\d|^(active|selected|current|first|last|odd|even|hover|open|hidden|visible|show|in|is-.*)$/;

function signature(el: Element): string {
  const classes = (el.attribs.class ?? '').split(/\s+/).filter((c) => c !== '' && !VOLATILE.test(c)).sort();
  return `${el.name}.${classes.join('.')}`;
}

/** Groups of two or more same-signature siblings that hold some text, largest first. */
function siblingGroups(doc: Document): Element[][] {
  const groups: Element[][] = [];
  for (const parent of allElements(doc)) {
    const kids = children(parent);
    if (kids.length < 2) continue;
    const bySig = new Map<string, Element[]>();
    for (const k of kids) {
      if (k.name === 'script' || k.name === 'style' || k.name === 'option' || k.name === 'br') continue;
      const sig = signature(k);
      bySig.set(sig, [...(bySig.get(sig) ?? []), k]);
    }
    for (const g of bySig.values()) if (g.length >= 2 && g.every((el) => el.children.length > 0)) groups.push(g);
  }
  // Richer members first: a card has several elements inside, a menu item one.
  const rich = groups.map((g) => ({ g, r: Math.min(g.length, 12) * Math.min(allElements(g[0] as Element).length, 30) }));
  return rich
    .sort((a, b) => b.r - a.r)
    .slice(0, MAX_GROUPS)
    .map((x) => x.g);
}

export function findRepeated(
  doc: Document,
  entities: Entity[],
  itemSchema: SchemaObject,
  prop: PropertyName | undefined,
  ctx: FillContext,
): Record<string, unknown>[] | undefined {
  void prop;
  const v = view(itemSchema, ctx.root);
  const itemCtx: FillContext = { root: ctx.root, base: ctx.base };
  const run = (src: Source): Record<string, unknown>[] => {
    const out: Record<string, unknown>[] = [];
    for (let i = 0; i < src.count; i++) {
      const item = fillObject(v, [], src.pool(i), itemCtx);
      if (item) out.push(item);
    }
    return out;
  };

  // A holder object: TypeScript does not track assignments made inside the closure below.
  const state: { best?: { src: Source; score: number } } = {};
  const consider = (src: Source, bonus: number): void => {
    const score = evaluate(src, v, itemCtx);
    if (score >= 0.5 && (!state.best || score + bonus > state.best.score)) state.best = { src, score: score + bonus };
  };
  // Structured data is trusted over markup when it fills as well.
  for (const s of structuredSources(entities)) consider(s, 0);
  if (state.best) return run(state.best.src);
  for (const table of allElements(doc).filter((e) => e.name === 'table')) {
    const s = tableSource(table, ctx.base);
    if (s) consider(s, 0.05);
  }
  for (const group of siblingGroups(doc)) {
    // Ties go to more members and to members with more to say (cards over pager links).
    const sample = group.slice(0, SAMPLE);
    const text = sample.reduce((n, el) => n + textOf(el).length, 0) / sample.length;
    const bonus = Math.min(group.length, 10) * 0.005 + 0.1 * Math.min(1, text / 100);
    consider({ count: group.length, pool: (i) => visibleCandidates(group[i] as Element, ctx.base, { card: true }) }, bonus);
  }
  const chosen = state.best as { src: Source } | undefined;
  return chosen ? run(chosen.src) : undefined;
}
