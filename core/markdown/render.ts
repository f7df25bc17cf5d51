/**
 * The tree walk: maps each kept element to Markdown through the Writer. Recursion depth is
 * bounded by builder.ts (MAX_DEPTH), so a walk cannot overflow the stack.
 */
import { renderInlineCode, renderPre } from './code.js';
import { collapse, escapeAlt } from './escape.js';
import { renderTable } from './table.js';
import type { Attrs } from './attrs.js';
import { BLOCK_TAGS } from './tags.js';
import type { El, Node } from './tree.js';
import type { UrlResolver } from './urls.js';
import { Writer } from './writer.js';

export interface Ctx {
  readonly nodes: readonly Node[];
  /** Swapped for a cell writer while a table cell renders. */
  w: Writer;
  readonly urls: UrlResolver;
  inLink: boolean;
  strong: number;
  em: number;
  del: number;
  /** Open lists around the current element. */
  lists: number;
}

/** Renders `root` (and what it holds) to Markdown. */
export function renderRoot(nodes: readonly Node[], root: El, urls: UrlResolver): string {
  const ctx: Ctx = { nodes, w: new Writer(), urls, inLink: false, strong: 0, em: 0, del: 0, lists: 0 };
  renderEl(root, ctx);
  return ctx.w.finish();
}

/** Renders the children of `el`: the nodes from `el.start` to `el.end`, skipping subtrees. */
export function renderKids(el: El, ctx: Ctx): void {
  const nodes = ctx.nodes;
  for (let i = el.start; i < el.end; ) {
    const k = nodes[i];
    if (typeof k === 'string') {
      ctx.w.text(collapse(k));
      i++;
    } else {
      renderEl(k, ctx);
      i = k.end;
    }
  }
}

function renderEl(el: El, ctx: Ctx): void {
  const w = ctx.w;
  switch (el.tag) {
    case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6': {
      if (w.inline > 0) { // in a link or cell: just its text
        w.softSpace();
        renderKids(el, ctx);
        w.softSpace();
        return;
      }
      w.block(2);
      w.inline++;
      const t = w.open('#'.repeat(el.tag.charCodeAt(1) - 48) + ' ');
      renderKids(el, ctx);
      w.close(t, '');
      w.inline--;
      w.block(2);
      return;
    }
    case 'br':
      w.lineBreak();
      return;
    case 'hr':
      if (w.inline > 0) w.softSpace();
      else {
        w.block(2);
        w.raw('---');
        w.block(2);
      }
      return;
    case 'ul': case 'ol': case 'menu': case 'dir':
      renderList(el, ctx);
      return;
    case 'li': // outside any list (malformed): still an item
      renderItem(el, '- ', ctx);
      return;
    case 'blockquote':
      if (w.inline > 0) renderKids(el, ctx);
      else {
        w.block(2);
        w.pushFrame('> ', '> ');
        renderKids(el, ctx);
        w.popFrame();
        w.block(2);
      }
      return;
    case 'pre':
      renderPre(el, ctx.nodes, w);
      return;
    case 'code': case 'kbd': case 'samp': case 'tt':
      renderInlineCode(el, ctx.nodes, w);
      return;
    case 'a':
      renderLink(el, ctx);
      return;
    case 'img':
      renderImage(el, ctx);
      return;
    case 'strong': case 'b':
      if (ctx.strong > 0 || el.hasBlock) renderKids(el, ctx);
      else {
        ctx.strong++;
        emphasis(el, '**', ctx);
        ctx.strong--;
      }
      return;
    case 'em': case 'i':
      if (ctx.em > 0 || el.hasBlock) renderKids(el, ctx);
      else {
        ctx.em++;
        emphasis(el, '*', ctx);
        ctx.em--;
      }
      return;
    case 'del': case 's': case 'strike':
      if (ctx.del > 0 || el.hasBlock) renderKids(el, ctx);
      else {
        ctx.del++;
        emphasis(el, '~~', ctx);
        ctx.del--;
      }
      return;
    case 'table':
      renderTable(el, ctx, renderKids);
      return;
    case 'tr':
      w.block(1);
      renderKids(el, ctx);
      w.block(1);
      return;
    case 'td': case 'th':
      w.softSpace();
      renderKids(el, ctx);
      w.softSpace();
      return;
    default:
      if (BLOCK_TAGS.has(el.tag)) {
        w.block(2);
        renderKids(el, ctx);
        w.block(2);
      } else {
        renderKids(el, ctx);
      }
  }
}

function emphasis(el: El, marker: string, ctx: Ctx): void {
  const t = ctx.w.open(marker);
  renderKids(el, ctx);
  ctx.w.close(t, marker);
}

function renderList(el: El, ctx: Ctx): void {
  const w = ctx.w;
  if (w.inline > 0) {
    renderKids(el, ctx);
    return;
  }
  const ordered = el.tag === 'ol';
  let n = ordered ? parseInt(el.attrs.start ?? '1', 10) : 0;
  if (!Number.isFinite(n) || n < 0) n = 1;
  w.block(ctx.lists > 0 ? 1 : 2);
  ctx.lists++;
  const nodes = ctx.nodes;
  for (let i = el.start; i < el.end; ) {
    const k = nodes[i];
    if (typeof k === 'string') {
      if (k !== ' ') ctx.w.text(collapse(k)); // stray text in a list (malformed)
      i++;
      continue;
    }
    i = k.end;
    if (k.tag === 'li') {
      renderItem(k, ordered ? `${n++}. ` : '- ', ctx);
    } else if (k.tag === 'ul' || k.tag === 'ol') {
      // <ul><li>a</li><ul>…</ul></ul>: browsers nest it under the previous item; so do we.
      w.block(1);
      w.pushFrame('    ', '    ');
      renderList(k, ctx);
      w.tighten();
      w.popFrame();
    } else {
      renderEl(k, ctx);
    }
  }
  ctx.lists--;
  w.block(2);
}

function renderItem(li: El, marker: string, ctx: Ctx): void {
  const w = ctx.w;
  if (w.inline > 0) {
    w.softSpace();
    renderKids(li, ctx);
    w.softSpace();
    return;
  }
  w.block(1);
  // Continuation lines are indented 4 spaces (enough for `1. ` and `10. ` markers).
  w.pushFrame(marker, marker.length > 4 ? ' '.repeat(marker.length) : '    ');
  renderKids(li, ctx);
  w.tighten();
  w.popFrame();
}

function renderLink(el: El, ctx: Ctx): void {
  const href = el.attrs.href;
  const url = ctx.inLink || href === undefined ? null : ctx.urls.link(href);
  if (url === null) {
    renderKids(el, ctx);
    return;
  }
  const w = ctx.w;
  // A link wrapping blocks (a product card) still stands apart from its neighbours.
  if (el.hasBlock) w.block(2);
  ctx.inLink = true;
  w.inline++;
  const t = w.open('[');
  renderKids(el, ctx);
  w.inline--;
  ctx.inLink = false;
  w.close(t, '](' + url + ')');
  if (el.hasBlock) w.block(2);
}

/** Lazy-loading pages put the real address in data-src and a placeholder in src. */
function imageSource(a: Readonly<Attrs>): string | undefined {
  const src = a.src;
  if (src !== undefined && src.trim() !== '' && !src.trimStart().startsWith('data:')) return src;
  return a.dataSrc ?? a.lazySrc ?? a.original ?? src;
}

function renderImage(el: El, ctx: Ctx): void {
  const a = el.attrs;
  if (a.width === '1' && a.height === '1') return; // tracking pixel
  const src = imageSource(a);
  const url = src === undefined ? null : ctx.urls.image(src);
  if (url === null) return;
  const alt = a.alt === undefined ? '' : escapeAlt(collapse(a.alt).trim());
  ctx.w.raw('![' + alt + '](' + url + ')');
}
