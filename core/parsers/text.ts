/**
 * The text parsers read off elements: block boundaries as spaces, whitespace collapsed. Pure,
 * no I/O; the DOM is read-only after `loadHtml`.
 */
import type { AnyNode, Element } from 'domhandler';

const BLOCK = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'dd', 'div', 'dl', 'dt', 'figcaption', 'footer',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'ol', 'p', 'section', 'table', 'td', 'th', 'tr', 'ul',
]);

/**
 * Text with block boundaries as spaces and whitespace collapsed; `skip` prunes subtrees.
 *
 * Parsers ask for the text of many elements that contain each other (every element near an
 * anchor, every row and its cells), so a walk per call would cost the subtree each time: on a
 * deeply nested page, hundreds of calls times the whole page. The collapsed text of a subtree
 * of MEMO_NODES nodes or more is kept per element (when it is short: a long text costs its
 * length to the caller anyway, and keeping it would hold the page again per ancestor), so a
 * later call reads it instead of walking again. The DOM is read-only after `loadHtml`.
 */
export function text(node: AnyNode | null | undefined, skip?: (el: Element) => boolean): string {
  if (!node) return '';
  return collapsed(node, skip).s.trim();
}

/** Runs of the characters `text` collapses (`\s`, no-break space, LRM, RLM). */
const RUN = /[\s\u00a0\u200e\u200f]+/g;
/** Subtrees smaller than this are walked again on each call (cheaper than a map entry). */
const MEMO_NODES = 32;
/** Collapsed texts longer than this are not kept. */
const MEMO_CHARS = 4096;
const memo = new WeakMap<AnyNode, string>();

/** A subtree's text, runs collapsed to one space but not trimmed, and the nodes walked for it. */
interface Piece {
  s: string;
  nodes: number;
}

const EMPTY: Piece = { s: '', nodes: 1 };

/** Joins collapsed pieces so a space where two meet stays one space. */
class Joiner {
  private readonly parts: string[] = [];
  private endsInSpace = false;

  add(s: string): void {
    if (s === '') return;
    if (this.endsInSpace && s.charCodeAt(0) === 0x20) {
      if (s.length === 1) return;
      s = s.slice(1);
    }
    this.parts.push(s);
    this.endsInSpace = s.charCodeAt(s.length - 1) === 0x20;
  }

  /** One part is returned as it is: an element around one child shares the child's string. */
  result(): string {
    return this.parts.length === 1 ? (this.parts[0] as string) : this.parts.join('');
  }
}

function collapsed(node: AnyNode, skip: ((el: Element) => boolean) | undefined): Piece {
  if (node.type === 'text') return { s: node.data.replace(RUN, ' '), nodes: 1 };
  if (node.type === 'comment' || node.type === 'directive' || node.type === 'script' || node.type === 'style') return EMPTY;
  if (node.type === 'tag' && skip && skip(node)) return EMPTY;
  if (!('children' in node)) return EMPTY;
  if (!skip) {
    const kept = memo.get(node);
    if (kept !== undefined) return { s: kept, nodes: 1 };
  }
  // Recursion depth is the tree's, which the parse caps (depth.ts).
  const block = node.type === 'tag' && BLOCK.has(node.name);
  const out = new Joiner();
  let nodes = 1;
  if (block) out.add(' ');
  for (const c of node.children) {
    const piece = collapsed(c, skip);
    nodes += piece.nodes;
    out.add(piece.s);
  }
  if (block) out.add(' ');
  const s = out.result();
  if (!skip && nodes >= MEMO_NODES && s.length <= MEMO_CHARS) memo.set(node, s);
  return { s, nodes };
}

