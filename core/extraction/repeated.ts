/**
 * Arrays of objects from a page: a list in structured data (ItemList, several Products),
 * the rows of a table with a header, or repeated sibling elements (product cards, article
 * teasers) whose contents fill the item schema. Each source is scored by how many item fields
 * its first members fill; the best wins.
 */
import { signature, visibleCandidates } from './candidates.js';
import { type Element, absoluteUrl, budgetFor, children, imageUrl, textOf } from './dom.js';
import { type FillContext, fillObject } from './fill.js';
import type { PropertyName } from './matcher.js';
import { type Candidate, type Entity, WEIGHT, entitySource, flatten, isPlainObject } from './model.js';
import { type SchemaObject, type SchemaView, view } from './schema.js';
import type { Tree } from './tree.js';

/** A repeated structure: how many members, each member's candidates (built lazily), and where it is. */
interface Source {
  count: number;
  pool: (i: number) => Candidate[];
  /** For `metadata.json_fields`: `jsonld:ItemList`, `table`, `cards:li.product-card`. */
  label: string;
}

function fromPools(pools: Candidate[][], label: string): Source {
  return { count: pools.length, pool: (i) => pools[i] as Candidate[], label };
}

/** Members larger than this (in elements) are not read as one item. */
const MEMBER_MAX_SIZE = 5000;

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
  for (let i = 0; i < n; i++) sum += fraction(fillObject(v, [], src.pool(i), ctx)?.value, v);
  return sum / n;
}

/** Structured data: ItemList elements, else the largest group of same-typed entities. */
function structuredSources(entities: Entity[]): Source[] {
  const sources: Source[] = [];
  for (const e of entities) {
    const list = e.types.includes('ItemList') ? e.data.itemListElement : undefined;
    if (!Array.isArray(list)) continue;
    const members = list.filter(isPlainObject).map((m) => (isPlainObject(m.item) ? m.item : m));
    const source = `${entitySource(e)}.itemListElement`;
    sources.push(fromPools(members.map((m) => flatten(m, { origin: e.origin, weight: WEIGHT[e.origin], source })), source));
  }
  const byType = new Map<string, Entity[]>();
  for (const e of entities) {
    const t = e.types[0];
    if (t && t !== 'ListItem' && t !== 'ItemList') byType.set(t, [...(byType.get(t) ?? []), e]);
  }
  for (const group of byType.values()) {
    if (group.length >= 2) {
      const label = `${entitySource(group[0] as Entity)} ×${group.length}`;
      sources.push(fromPools(group.map((e) => flatten(e.data, { origin: e.origin, weight: WEIGHT[e.origin], source: entitySource(e) })), label));
    }
  }
  return sources;
}

/** Header cells of a table, and its data rows. */
function tableSource(rows: readonly Element[], tree: Tree, base: string): Source | undefined {
  const budget = budgetFor(rows.length, 50);
  const cellsOf = (r: Element): Element[] => children(r).filter((c) => c.name === 'td' || c.name === 'th');
  const headRow = rows.find((r) => cellsOf(r).length >= 2 && cellsOf(r).every((c) => c.name === 'th'));
  if (!headRow) return undefined;
  const headers = cellsOf(headRow).map((c) => textOf(c, false, budget));
  const data = rows.filter((r) => r !== headRow && cellsOf(r).length === headers.length && tree.size(r) <= MEMBER_MAX_SIZE);
  if (data.length < 2) return undefined;
  return fromPools(
    data.map((row) => {
      const pool: Candidate[] = [];
      cellsOf(row).forEach((cell, i) => {
        const label = headers[i] as string;
        const text = textOf(cell, false, budget);
        if (text !== '' && label !== '') pool.push({ path: [label], value: text, origin: 'table', weight: WEIGHT.table, source: `table column:${label}` });
        for (const el of tree.within(cell)) {
          if (el.name === 'a' && el.attribs.href) pool.push({ path: ['url'], value: absoluteUrl(el.attribs.href, base), origin: 'table', weight: 0.7, source: 'table column link' });
          if (el.name === 'img') pool.push({ path: ['image'], value: imageUrl(el, base), origin: 'table', weight: 0.7, source: 'table column image' });
        }
      });
      return pool;
    }),
    'table rows',
  );
}

/** Groups of two or more same-signature siblings that hold some text, largest first. */
function siblingGroups(tree: Tree): Element[][] {
  const groups: Element[][] = [];
  for (const parent of tree.elements) {
    const kids = children(parent);
    if (kids.length < 2) continue;
    const bySig = new Map<string, Element[]>();
    for (const k of kids) {
      if (k.name === 'script' || k.name === 'style' || k.name === 'option' || k.name === 'br' || tree.invisible(k)) continue;
      const sig = signature(k);
      const group = bySig.get(sig);
      if (group) group.push(k);
      else bySig.set(sig, [k]);
    }
    for (const g of bySig.values()) if (g.length >= 2 && g.every((el) => el.children.length > 0 && tree.size(el) <= MEMBER_MAX_SIZE)) groups.push(g);
  }
  // Richer members first: a card has several elements inside, a menu item one.
  const rich = groups.map((g) => ({ g, r: Math.min(g.length, 12) * Math.min(tree.size(g[0] as Element), 30) }));
  return rich
    .sort((a, b) => b.r - a.r)
    .slice(0, MAX_GROUPS)
    .map((x) => x.g);
}

export interface RepeatedItems {
  items: Record<string, unknown>[];
  /** Where the items were read (`metadata.json_fields`). */
  source: string;
}

export function findRepeated(
  tree: Tree,
  entities: Entity[],
  itemSchema: SchemaObject,
  prop: PropertyName | undefined,
  ctx: FillContext,
): RepeatedItems | undefined {
  void prop;
  const v = view(itemSchema, ctx.root);
  const itemCtx: FillContext = { root: ctx.root, base: ctx.base };
  const run = (src: Source): RepeatedItems => {
    const items: Record<string, unknown>[] = [];
    for (let i = 0; i < src.count; i++) {
      const item = fillObject(v, [], src.pool(i), itemCtx);
      if (item) items.push(item.value);
    }
    return { items, source: `${src.label} (${items.length} items)` };
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
  for (const rows of tree.rowsByTable().values()) {
    const s = tableSource(rows, tree, ctx.base);
    if (s) consider(s, 0.05);
  }
  const budget = budgetFor(tree.elements.length);
  for (const group of siblingGroups(tree)) {
    // Ties go to more members and to members with more to say (cards over pager links).
    const sample = group.slice(0, SAMPLE);
    const text = sample.reduce((n, el) => n + textOf(el, false, budget).length, 0) / sample.length;
    const bonus = Math.min(group.length, 10) * 0.005 + 0.1 * Math.min(1, text / 100);
    const pools = new Map<number, Candidate[]>();
    const pool = (i: number): Candidate[] => {
      let p = pools.get(i);
      if (!p) pools.set(i, (p = visibleCandidates(group[i] as Element, ctx.base, { card: true })));
      return p;
    };
    consider({ count: group.length, pool, label: `cards:${signature(group[0] as Element)}` }, bonus);
  }
  const chosen = state.best as { src: Source } | undefined;
  return chosen ? run(chosen.src) : undefined;
}
