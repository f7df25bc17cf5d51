/**
 * The tree depth cap every HTML parse of a page shares (the parsers' DOM, the Markdown tree,
 * the page cut's tag tree), so no page can make a parse or a walk of its tree cost more than
 * a constant per tag.
 *
 * Why: htmlparser2 12 keeps its open elements top-first (`stack.unshift` per start tag,
 * `stack.shift` per close, `indexOf` per end tag), so each tag costs the current depth: a page
 * of n nested `<div>`s parses in O(n²) (320,000 of them, 3.5 MB: tens of seconds), and every
 * recursive walk of such a tree runs out of stack. Browsers bound the same thing: Blink's
 * parser attaches elements opened at depth 512 and deeper to the element at depth 511
 * (kMaximumHTMLParserDOMTreeDepth), so no real page nests deeper (the captured pages reach 55).
 *
 * The rule here, the same in `DepthCappedParser` and `TagTree`: no node is deeper than
 * MAX_TREE_DEPTH. A start tag read while MAX_TREE_DEPTH - 1 elements are open becomes an empty
 * element at depth MAX_TREE_DEPTH (reported like a void element: opened and closed at once),
 * and what follows it lands beside it. Its end tag then closes nothing of its own: like any end
 * tag, it closes the nearest open element of its name, if any. The open stack never holds more
 * than MAX_TREE_DEPTH - 1 names, so each tag costs at most a constant. Elements whose body the
 * tokenizer reads as raw text (`script`, `style`, `title`, `textarea`, ... outside foreign
 * content) are the exception: they hold no elements, so they add one level at most, and a
 * flattened one would leave its body to the element's siblings while the tokenizer still reads
 * it as the element's (the page cut could not keep such an element whole).
 */
import { DomHandler, type Document, type DomHandlerOptions } from 'domhandler';
import { Parser, type ParserOptions } from 'htmlparser2';

export const MAX_TREE_DEPTH = 512;
/** Open elements at which a start tag (of an element that is not raw text) is flattened. */
export const FLAT_AT = MAX_TREE_DEPTH - 1;

/** The Parser's private fields read here (htmlparser2 12.0.0, pinned; test/unit/deps-internals.test.ts). */
interface ParserState {
  stack: string[];
  tagname: string;
  /** The tokenizer; `isSpecial` is set while a start tag whose body is raw text is read. */
  tokenizer: { isSpecial: boolean };
}

/**
 * htmlparser2's Parser with its open stack capped at MAX_TREE_DEPTH (see above). Uses the
 * Parser's documented hook for void elements (`isVoidElement`) and reads two private fields:
 * the open stack's length and the start tag being read.
 */
export class DepthCappedParser extends Parser {
  /** The start tag being read (from its name to its `>`) is past the cap. */
  private flat = false;

  override onopentagname(start: number, endIndex: number): void {
    const state = this as unknown as ParserState;
    this.flat = state.stack.length >= FLAT_AT && !state.tokenizer.isSpecial;
    super.onopentagname(start, endIndex);
  }

  override onopentagend(endIndex: number): void {
    super.onopentagend(endIndex);
    this.flat = false;
  }

  override onselfclosingtag(endIndex: number): void {
    super.onselfclosingtag(endIndex);
    this.flat = false;
  }

  /**
   * Called for the start tag being read as it is pushed and as it ends (and for end tags, when
   * `flat` is never set): a flattened tag is void, so it is not pushed and is closed at its `>`.
   * '' is an ignored nested `<form>`, which must stay without a close.
   */
  protected override isVoidElement(name: string): boolean {
    return super.isVoidElement(name) || (this.flat && name !== '' && name === (this as unknown as ParserState).tagname);
  }
}

/**
 * htmlparser2's `parseDocument` with the depth cap: for a DOM built outside the parsers' own
 * load (which adds its query index and late entity decoding), so that no page tree in the
 * service is deeper than MAX_TREE_DEPTH nor costs more than a constant per tag to build.
 */
export function parseDocumentCapped(html: string, options?: ParserOptions & DomHandlerOptions): Document {
  const handler = new DomHandler(undefined, options);
  new DepthCappedParser(handler, options).end(html);
  return handler.root;
}
