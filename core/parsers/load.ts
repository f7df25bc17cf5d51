/**
 * Loading a page for the parsers: the DOM build of the lean page (lean.ts). Pure, no I/O.
 */
import { Tokenizer } from 'htmlparser2';
import { DomHandler, Element, Text } from 'domhandler';
import type { ChildNode, Document } from 'domhandler';
import { DepthCappedParser } from './depth.js';
import { decodeInPlace } from './entities.js';
import type { RawEntities } from './entities.js';
import { leanHtml } from './lean.js';
import { pageSlot } from './page-memo.js';

export { leanHtml, stripRawText } from './lean.js';

/** What the load handler saw of a page: its elements (for the query index) and the strings holding `&`. */
export interface PageSeed {
  /** Elements of type `tag` (not script or style) in document order. */
  elements: Element[];
  /** The same elements by attribute name, in document order. */
  byAttr: Map<string, Element[]>;
  /**
   * The `class` value of each element of `byAttr.get('class')`, at the same index; null where
   * the value holds `&` (entities may be decoded after the load: read `attribs` then). Class
   * queries filter these strings instead of reading each element's `attribs` again.
   */
  classes: (string | null)[];
}

/** Kept on the document (page-memo.ts says why not in a WeakMap). */
const seeds = pageSlot<PageSeed>('gleaner.seed');

/** The seed recorded when `doc` was built by `loadHtml`, else undefined. */
export function seedOf(doc: Document): PageSeed | undefined {
  return seeds.get(doc);
}

/**
 * Element and Text nodes built by plain constructors that share domhandler's prototypes and set
 * the same own fields in the same order as its classes (domhandler 6.0.1, pinned; held to
 * `new Element`/`new Text` by test/unit/deps-internals.test.ts): `instanceof`, the DOM aliases
 * and every helper see the same nodes. Why: domhandler declares its fields as class fields, and
 * the one initializer of `Node`'s fields runs for every node kind, so its stores see every
 * kind's shape (megamorphic); that initializer was a fifth of the DOM build. Monomorphic
 * constructors make the build about a quarter cheaper on the captured pages.
 */
interface ElementCtor {
  new (name: string, attribs: Record<string, string>, type: string): Element;
}
interface TextCtor {
  new (data: string): Text;
}
const ElementNode = function (this: Record<string, unknown>, name: string, attribs: Record<string, string>, type: string) {
  this.parent = null;
  this.prev = null;
  this.next = null;
  this.startIndex = null;
  this.endIndex = null;
  this.children = [];
  this.name = name;
  this.attribs = attribs;
  this.type = type;
  this.namespace = undefined;
  this['x-attribsNamespace'] = undefined;
  this['x-attribsPrefix'] = undefined;
} as unknown as ElementCtor;
ElementNode.prototype = Element.prototype;
const TextNode = function (this: Record<string, unknown>, data: string) {
  this.parent = null;
  this.prev = null;
  this.next = null;
  this.startIndex = null;
  this.endIndex = null;
  this.data = data;
  this.type = 'text';
} as unknown as TextCtor;
TextNode.prototype = Text.prototype;

/** `new Element(name, attribs)` (its type from the name, as domhandler sets it in HTML mode), monomorphic. */
export function newElement(name: string, attribs: Record<string, string>): Element {
  return new ElementNode(name, attribs, name === 'script' ? 'script' : name === 'style' ? 'style' : 'tag');
}

/** `new Text(data)`, monomorphic. */
export function newText(data: string): Text {
  return new TextNode(data);
}

/**
 * A DomHandler that also records, while each element's attributes are fresh in cache, what the
 * query index and the entity decoder need; reading them in a later walk costs a cache miss and a
 * megamorphic lookup per element.
 */
class LoadHandler extends DomHandler {
  readonly seed: PageSeed = { elements: [], byAttr: new Map(), classes: [] };
  readonly raw: RawEntities = { attrs: [], texts: [] };
  /** Whether the tokenizer decoded entities itself (nothing left to decode). */
  decoded = false;

  /**
   * Attribute names of the tag being read (first occurrence of each) and whether its value holds
   * `&`: arrays reused from tag to tag, `count` entries valid (a fresh pair per tag was a good
   * part of the load's garbage).
   */
  private readonly names: string[] = [];
  private readonly amps: boolean[] = [];
  private count = 0;
  /** The tag's `class` value (its first), else null. */
  private classValue: string | null = null;

  // The parser reports the tag name, then each attribute, then `onopentag`; a repeated name keeps
  // its first value, as in `attribs`. Enumerating the fresh `attribs` object instead is a slow
  // path. A second `<form>` gets attributes but no `onopentagname`/`onopentag`: the reset here
  // drops them.
  onopentagname(): void {
    this.count = 0;
  }

  onattribute(name: string, value: string): void {
    for (let i = 0; i < this.count; i++) if (this.names[i] === name) return;
    this.names[this.count] = name;
    const amp = value.indexOf('&') >= 0;
    this.amps[this.count++] = amp;
    if (name === 'class') this.classValue = amp ? null : value;
  }

  // DomHandler's onopentag and ontext (HTML mode, no indices), with the nodes from newElement/newText.
  override onopentag(name: string, attribs: Record<string, string>): void {
    const el = newElement(name, attribs);
    this.addNode(el);
    this.tagStack.push(el);
    const tag = el.type === 'tag';
    if (tag) this.seed.elements.push(el);
    for (let i = 0; i < this.count; i++) {
      const key = this.names[i] as string;
      if (tag) {
        const list = this.seed.byAttr.get(key);
        if (list) list.push(el);
        else this.seed.byAttr.set(key, [el]);
        if (key === 'class') this.seed.classes.push(this.classValue);
      }
      if (this.amps[i]) this.raw.attrs.push({ el, name: key });
    }
    this.count = 0;
  }

  /**
   * DomHandler's addNode (no indices), except that an element's first child gets a children
   * array of its own size (`[node]`): a push onto the empty array allocates room for 17, and
   * most elements of a page hold one child. The same children in the same order, 5-10 % less
   * live DOM on the retail listings (less to allocate, and to copy when a minor GC meets the
   * page's tree). The document's own children stay DomHandler's `dom` array. DomHandler 6.0.1's
   * addNode is protected API; test/unit/deps-internals.test.ts holds the links to the stock DOM's.
   */
  protected override addNode(node: ChildNode): void {
    const parent = this.tagStack[this.tagStack.length - 1] as Element | Document;
    const siblings = parent.children;
    const n = siblings.length;
    if (n === 0 && parent.type !== 'root') parent.children = [node];
    else {
      siblings.push(node);
      const previous = siblings[n - 1];
      if (previous) {
        node.prev = previous;
        previous.next = node;
      }
    }
    node.parent = parent;
    this.lastNode = null;
  }

  override ontext(data: string): void {
    let node = this.lastNode;
    if (node !== null && node.type === 'text') node.data += data;
    else {
      node = newText(data);
      this.addNode(node as Text);
      this.lastNode = node;
    }
    // A text node is recorded once however many chunks it gets.
    if (data.indexOf('&') >= 0 && this.raw.texts[this.raw.texts.length - 1] !== node) this.raw.texts.push(node as Text);
  }
}

/** The tokenizer's state `fastForwardTo` reads and moves (htmlparser2 12's private fields). */
interface TokenizerState {
  buffer: string;
  index: number;
  offset: number;
}

/** One-character strings of the ASCII codes the tokenizer skips to (`<`, `>`, quotes, `-`, `]`, `?`). */
const CHARS: string[] = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c));

/**
 * htmlparser2's tokenizer, with `fastForwardTo` (the skip to the next `<` of text, the closing
 * quote of an attribute value, the `>` of an end tag or a comment's next `-`) done by indexOf
 * instead of a charCodeAt loop: the same stop, found natively. On attribute-heavy pages the
 * loop was a sixth of the parse. The method is internal to htmlparser2 12, so it is replaced on
 * the prototype; test/unit/parsers-load.test.ts holds the DOM to the stock tokenizer's.
 */
export class FastTokenizer extends Tokenizer {}
Object.defineProperty(FastTokenizer.prototype, 'fastForwardTo', {
  value(this: TokenizerState, c: number): boolean {
    const at = this.buffer.indexOf(CHARS[c] ?? String.fromCharCode(c), this.index + 1 - this.offset);
    if (at >= 0) {
      this.index = at + this.offset;
      return true;
    }
    // As the loop leaves it: the caller's `index++` ends the buffer.
    this.index = this.buffer.length + this.offset - 1;
    return false;
  },
});

function parseWith(html: string, decodeEntities: boolean): LoadHandler {
  const handler = new LoadHandler();
  handler.decoded = decodeEntities;
  new DepthCappedParser(handler, { decodeEntities, Tokenizer: FastTokenizer }).end(html);
  return handler;
}

function hasCdata(html: string): boolean {
  for (let i = html.indexOf('<!['); i >= 0; i = html.indexOf('<![', i + 3)) {
    if (html.slice(i + 3, i + 9).toUpperCase() === 'CDATA[') return true;
  }
  return false;
}

/**
 * The DOM of a lean page (see `leanHtml`), with its seed for the query index.
 *
 * The page is tokenised without entity decoding: htmlparser2 then skips text and attribute
 * values with indexOf instead of stepping through every character (about a third of the parse).
 * The few strings holding `&` are decoded afterwards by `decodeInPlace`, giving the same DOM as
 * a decoding parse (checked node for node on every captured page).
 */
export function leanDom(lean: string): Document {
  // CDATA sections (foreign content) are never decoded and can share a text node with decoded
  // text, which the re-tokenising cannot reproduce: such pages take the decoding parse.
  let handler = hasCdata(lean) ? parseWith(lean, true) : parseWith(lean, false);
  if (!handler.decoded && !decodeInPlace(handler.raw)) handler = parseWith(lean, true);
  seeds.set(handler.root, handler.seed);
  return handler.root;
}

/** The DOM parsers read: `leanDom(leanHtml(html))`. */
export function loadHtml(html: string): Document {
  return leanDom(leanHtml(html));
}
