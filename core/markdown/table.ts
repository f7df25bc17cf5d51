/**
 * Tables. A data table becomes a GFM table: the header row is the first row (the `thead` row
 * when there is one), every cell's content is rendered inline on one line with pipes escaped,
 * `colspan` repeats empty cells so columns stay aligned, short rows are padded, and columns
 * and body rows that are empty throughout are left out.
 *
 * Layout tables are unwrapped (their cells rendered as ordinary blocks, in order): a table with
 * at most one cell, `role="presentation"`/`"none"`, or one that holds another table. A table
 * inside an inline context (a cell, a link) is flattened to its cell texts.
 */
import type { Ctx } from './render.js';
import type { El, Node } from './tree.js';
import { Writer } from './writer.js';

type RenderKids = (el: El, ctx: Ctx) => void;

interface Rows {
  rows: El[][];
  caption: El | null;
  cells: number;
}

/** Collects rows in display order: thead rows, body rows, tfoot rows. */
function collect(nodes: readonly Node[], table: El): Rows {
  const head: El[][] = [];
  const body: El[][] = [];
  const foot: El[][] = [];
  const out: Rows = { rows: [], caption: null, cells: 0 };
  const walk = (parent: El, into: El[][]): void => {
    for (let i = parent.start; i < parent.end; ) {
      const k = nodes[i];
      if (typeof k === 'string') {
        i++;
        continue;
      }
      i = k.end;
      switch (k.tag) {
        case 'tr': {
          const row: El[] = [];
          for (let j = k.start; j < k.end; ) {
            const c = nodes[j];
            if (typeof c === 'string') {
              j++;
              continue;
            }
            j = c.end;
            if (c.tag === 'td' || c.tag === 'th') row.push(c);
          }
          out.cells += row.length;
          into.push(row);
          break;
        }
        case 'thead':
          walk(k, head);
          break;
        case 'tfoot':
          walk(k, foot);
          break;
        case 'caption':
          if (out.caption === null) out.caption = k;
          break;
        case 'table':
        case 'td':
        case 'th':
          break; // misplaced; not part of this table's grid
        default:
          walk(k, into); // tbody, and wrappers malformed markup puts around rows
      }
    }
  };
  walk(table, body);
  out.rows = head.concat(body, foot).filter((r) => r.length > 0);
  return out;
}

function cellText(cell: El, ctx: Ctx, renderKids: RenderKids): string {
  const saved = ctx.w;
  const w = new Writer(true);
  ctx.w = w;
  renderKids(cell, ctx);
  ctx.w = saved;
  const s = w.finishLine();
  return s.includes('|') ? s.replace(/\|/g, '\\|') : s;
}

function span(cell: El): number {
  const v = cell.attrs.colspan;
  if (v === undefined) return 1;
  const n = parseInt(v, 10);
  return Number.isFinite(n) && n > 1 ? Math.min(n, 100) : 1;
}

function renderBlock(el: El, ctx: Ctx, renderKids: RenderKids): void {
  ctx.w.block(2);
  renderKids(el, ctx);
  ctx.w.block(2);
}

export function renderTable(table: El, ctx: Ctx, renderKids: RenderKids): void {
  const { rows, caption, cells } = collect(ctx.nodes, table);
  const w = ctx.w;
  if (w.inline > 0) {
    for (const row of rows) for (const c of row) {
      w.softSpace();
      renderKids(c, ctx);
    }
    w.softSpace();
    return;
  }
  const role = table.attrs.role;
  if (cells <= 1 || table.nestedTable || role === 'presentation' || role === 'none') {
    if (caption !== null) renderBlock(caption, ctx, renderKids);
    for (const row of rows) for (const c of row) renderBlock(c, ctx, renderKids);
    return;
  }
  const grid: string[][] = [];
  let width = 0;
  for (const row of rows) {
    const line: string[] = [];
    for (const c of row) {
      line.push(cellText(c, ctx, renderKids));
      for (let i = span(c); i > 1; i--) line.push('');
    }
    if (line.length > width) width = line.length;
    grid.push(line);
  }
  // Columns empty in every row (spacer cells, spans past the data) carry nothing.
  const keep: number[] = [];
  for (let c = 0; c < width; c++) if (grid.some((r) => c < r.length && r[c] !== '')) keep.push(c);
  if (keep.length === 0) return;
  const body = grid.slice(1).filter((r) => r.some((c) => c !== ''));
  const fmt = (r: string[]): string => '| ' + keep.map((c) => r[c] ?? '').join(' | ') + ' |';
  const lines = [fmt(grid[0]), '|' + ' --- |'.repeat(keep.length)];
  for (const r of body) lines.push(fmt(r));
  if (caption !== null) renderBlock(caption, ctx, renderKids);
  w.block(2);
  w.lines(lines);
  w.block(2);
}
