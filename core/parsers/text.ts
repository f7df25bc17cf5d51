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
  return collapsed(node, skip).trim();
}

/** Runs of the characters `text` collapses (`\s`, no-break space, LRM, RLM). */
const RUN = /[\s\u00a0\u200e\u200f]+/g;
/** Subtrees smaller than this are walked again on each call (cheaper than a map entry). */
const MEMO_NODES = 32;
/** Collapsed texts longer than this are not kept. */
const MEMO_CHARS = 4096;
const memo = new WeakMap<AnyNode, string>();

/**
 * Nodes visited by `collapsed` so far: a subtree's size is the count's growth over its walk (a
 * memo hit, a skipped or empty node and a text node count one each). A counter instead of a
 * size returned with every piece: an object per visited node was most of a text walk's garbage.
 * A `skip` test may itself ask for text and move the count; sizes only decide what is kept, and
 * nothing is kept from a walk with `skip`.
 */
let walked = 0;

/** Nodes whose text a page does not show (the walks give them none). */
function textless(node: AnyNode): boolean {
  return node.type === 'comment' || node.type === 'directive' || node.type === 'script' || node.type === 'style';
}

/** Joins collapsed pieces so a space where two meet stays one space. */
class Joiner {
  private readonly parts: string[] = [];
  private endsInSpace = false;
  /** Characters joined so far. */
  length = 0;

  add(s: string): void {
    if (s === '') return;
    if (this.endsInSpace && s.charCodeAt(0) === 0x20) {
      if (s.length === 1) return;
      s = s.slice(1);
    }
    this.parts.push(s);
    this.length += s.length;
    this.endsInSpace = s.charCodeAt(s.length - 1) === 0x20;
  }

  /** One part is returned as it is: an element around one child shares the child's string. */
  result(): string {
    return this.parts.length === 1 ? (this.parts[0] as string) : this.parts.join('');
  }
}

function collapsed(node: AnyNode, skip: ((el: Element) => boolean) | undefined): string {
  walked++;
  if (node.type === 'text') return node.data.replace(RUN, ' ');
  if (textless(node)) return '';
  if (node.type === 'tag' && skip && skip(node)) return '';
  if (!('children' in node)) return '';
  if (!skip) {
    const kept = memo.get(node);
    if (kept !== undefined) return kept;
  }
  const start = walked - 1;
  // Recursion depth is the tree's, which the parse caps (depth.ts).
  const block = node.type === 'tag' && BLOCK.has(node.name);
  const children = node.children;
  let s: string;
  if (!block && children.length === 1) s = collapsed(children[0] as AnyNode, skip);
  else {
    const out = new Joiner();
    if (block) out.add(' ');
    for (const c of children) out.add(collapsed(c, skip));
    if (block) out.add(' ');
    s = out.result();
  }
  if (!skip && walked - start >= MEMO_NODES && s.length <= MEMO_CHARS) memo.set(node, s);
  return s;
}

/**
 * `text(node)` when that text is at most `max` characters long, else null — without building
 * the text of a long subtree. Readers that only accept short texts (a price, a "Next" link)
 * ask this of thousands of elements, most of them containers whose whole text they would build
 * and throw away. Collapsing leaves no run of spaces, so the trimmed text is at most two
 * characters shorter than the collapsed one: once the collapsed text passes `max + 2` the
 * answer is null. Kept texts (see `text`) are read; none are written.
 */
export function shortText(node: AnyNode, max: number): string | null {
  // An element around one text node (most of what is asked): that text collapsed and trimmed,
  // which is what the walk below gives (its block spaces are trimmed off), without a joiner.
  if (node.type === 'tag' && node.children.length === 1) {
    const only = node.children[0] as AnyNode;
    if (only.type === 'text') {
      const t = only.data.replace(RUN, ' ').trim();
      return t.length <= max ? t : null;
    }
  }
  const out = new Joiner();
  const ok = bounded(node, out, max + 2);
  if (!ok) return null;
  const t = out.result().trim();
  return t.length <= max ? t : null;
}

/** Adds `node`'s collapsed text to `out` as `collapsed` builds it; false once it passes `limit`. */
function bounded(node: AnyNode, out: Joiner, limit: number): boolean {
  if (node.type === 'text') {
    out.add(node.data.replace(RUN, ' '));
    return out.length <= limit;
  }
  if (textless(node)) return true;
  if (!('children' in node)) return true;
  const kept = memo.get(node);
  if (kept !== undefined) {
    out.add(kept);
    return out.length <= limit;
  }
  const block = node.type === 'tag' && BLOCK.has(node.name);
  if (block) out.add(' ');
  for (const c of node.children) if (!bounded(c, out, limit)) return false;
  if (block) out.add(' ');
  return out.length <= limit;
}
