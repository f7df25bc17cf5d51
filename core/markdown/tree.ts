/**
 * A very light tree built from htmlparser2's streaming callbacks (builder.ts builds it, parse.ts
 * drives it). The tree exists because rendering needs lookahead a stream cannot give: which
 * element is the main content, whether a table is a one-cell layout table, whether an inline
 * element wraps blocks.
 *
 * It is flat: one array of nodes in document order, where an element's children are the nodes
 * from `start` (just after it) up to `end`. No per-element child arrays: on multi-megabyte pages
 * the retained tree is what the garbage collector pays for, and a walk reads memory in order.
 */
import type { Attrs } from './attrs.js';

export interface El {
  readonly tag: string;
  readonly attrs: Readonly<Attrs>;
  /** Index of the first child in `Doc.nodes`; the children run up to `end` (exclusive). */
  readonly start: number;
  end: number;
  /** The subtree holds a block-level element (decided at parse time, propagated on close). */
  hasBlock: boolean;
  /** For tables: another table opens inside it (a layout table). */
  nestedTable: boolean;
}
export type Node = El | string;

export interface Doc {
  readonly nodes: readonly Node[];
  /** `nodes[0]`: a synthetic element holding the whole page. */
  readonly root: El;
  readonly body: El | null;
  /** The first `<main>` (or role=main container) that was kept. */
  readonly main: El | null;
  /** Kept `<article>` elements not nested in another article. */
  readonly articles: readonly El[];
  /** Characters of kept text: in the whole page, in `main`, in the first top-level article. */
  readonly chars: number;
  readonly mainChars: number;
  readonly articleChars: number;
  /** The first `<base href>`, anywhere in the page. */
  readonly baseHref: string | null;
  /** Elements dropped by a soft rule (noise.ts), which the caller may undo. */
  readonly softDrops: number;
}
