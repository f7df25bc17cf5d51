/**
 * Builds the flat tree (tree.ts) from htmlparser2's streaming callbacks (parse.ts drives it).
 * Noise (noise.ts) is skipped while parsing, so dropped subtrees cost tokenizing only.
 */
import { Attrs, NO_ATTRS } from './attrs.js';
import { dropReason, DROP_SOFT, KEEP } from './noise.js';
import { BLOCK_TAGS, INLINE_KEPT, INTERNED, KEEPS_ATTRS, MAIN_CONTAINERS, MAX_DEPTH } from './tags.js';
import type { El, Node } from './tree.js';

/** Whitespace-only text outside `pre` is kept as one shared string. */
const ONLY_WS = /^[ \t\n\v\f\r\u00a0\ufeff]*$/;

export class Builder {
  readonly root: El = {
    tag: '#root', attrs: NO_ATTRS, start: 1, end: -1, hasBlock: false, nestedTable: false,
  };
  readonly nodes: Node[] = [this.root];
  body: El | null = null;
  main: El | null = null;
  readonly articles: El[] = [];
  baseHref: string | null = null;
  softDrops = 0;
  chars = 0;
  mainChars = 0;
  articleChars = 0;
  private mainStart = -1;
  private articleStart = -1;

  /**
   * Open elements, `null` for one not materialised (transparent, or past MAX_DEPTH); closes
   * always pair with opens. `kept` holds the materialised ones only: its top is the parent of
   * what comes next.
   */
  private readonly stack: (El | null)[] = [];
  private readonly kept: El[] = [];
  /** > 0 while inside a dropped subtree: counts its open elements. */
  private skip = 0;
  private sections = 0;
  private articleDepth = 0;
  private readonly tables: El[] = [];
  private pre = 0;
  /** Index of the last node when it is text that the next text may extend, else -1. */
  private textAt = -1;
  /** Forms removed by `</form>` while elements above them were open (see removeForm). */
  private readonly floating: { el: El; depth: number }[] = [];

  /** The tag whose attributes are arriving; it is opened at the next event. */
  private openTag: string | null = null;
  private collecting = false;
  private readonly bag = new Attrs();

  constructor(private readonly soft: boolean) {}

  onopentagname(name: string): void {
    if (this.openTag !== null) this.open();
    const tag = INTERNED.get(name) ?? name;
    this.openTag = tag;
    this.collecting = this.skip === 0 || tag === 'base';
    if (this.collecting) this.bag.clear();
  }

  onattribute(name: string, value: string): void {
    if (this.collecting) this.bag.set(name, value);
  }

  /** Opens the pending tag; every other event calls this first. */
  open(): void {
    const tag = this.openTag;
    if (tag === null) return;
    this.openTag = null;
    const attrs = this.bag;
    if (tag === 'base' && this.baseHref === null && attrs.href) this.baseHref = attrs.href;
    if (this.skip > 0) {
      this.skip++;
      return;
    }
    const drop = dropReason(tag, attrs, this.sections > 0, this.soft);
    if (drop !== KEEP) {
      if (drop === DROP_SOFT) this.softDrops++;
      this.skip = 1;
      return;
    }
    const stack = this.stack;
    const kept = this.kept;
    const block = BLOCK_TAGS.has(tag);
    if (!block && !INLINE_KEPT.has(tag)) {
      stack.push(null);
      return;
    }
    if (kept.length >= MAX_DEPTH) {
      stack.push(null);
      return;
    }
    const nodes = this.nodes;
    const el: El = {
      tag,
      attrs: KEEPS_ATTRS.has(tag) ? attrs.clone() : NO_ATTRS,
      start: nodes.length + 1,
      end: -1,
      hasBlock: false,
      nestedTable: false,
    };
    if (block) (kept.length > 0 ? kept[kept.length - 1] : this.root).hasBlock = true;
    nodes.push(el);
    stack.push(el);
    kept.push(el);
    this.textAt = -1;
    switch (tag) {
      case 'body':
        if (this.body === null) this.body = el;
        break;
      case 'main':
        this.sections++;
        if (this.main === null) this.setMain(el);
        break;
      case 'section':
        this.sections++;
        break;
      case 'article':
        this.sections++;
        if (this.articleDepth++ === 0) {
          this.articles.push(el);
          if (this.articles.length === 1) this.articleStart = this.chars;
        }
        break;
      case 'table':
        if (this.tables.length > 0) this.tables[this.tables.length - 1].nestedTable = true;
        this.tables.push(el);
        break;
      case 'pre':
        this.pre++;
        break;
      default:
        if (this.main === null && attrs.role === 'main' && MAIN_CONTAINERS.has(tag)) this.setMain(el);
    }
  }

  private setMain(el: El): void {
    this.main = el;
    this.mainStart = this.chars;
  }

  onclosetag(): void {
    if (this.openTag !== null) this.open();
    if (this.skip > 0) this.skip--;
    else this.pop();
  }

  ontext(data: string): void {
    if (this.openTag !== null) this.open();
    if (this.skip > 0) return;
    let text = data;
    if (this.pre === 0 && ONLY_WS.test(text)) text = ' ';
    else this.chars += text.length;
    const nodes = this.nodes;
    if (this.textAt >= 0) {
      const last = nodes[this.textAt] as string;
      if (text !== ' ' || last !== ' ') nodes[this.textAt] = last + text;
    } else {
      this.textAt = nodes.length;
      nodes.push(text);
    }
  }

  /**
   * `</form>` while the form is open below other elements: browsers remove only the form, so
   * the elements above it stay open (parse.ts). The form's range then ends when the last of
   * those closes.
   */
  removeForm(): void {
    if (this.openTag !== null) this.open();
    const stack = this.stack;
    for (let i = stack.length - 1; i >= 0; i--) {
      const el = stack[i];
      if (el !== null && el.tag === 'form') {
        stack.splice(i, 1); // O(depth), once per such </form>
        this.kept.splice(this.kept.lastIndexOf(el), 1);
        this.floating.push({ el, depth: i });
        return;
      }
    }
    if (this.skip > 0) this.skip--; // the form is in (or is) a dropped subtree
    else {
      // Not materialised (past MAX_DEPTH): drop one placeholder; they are interchangeable.
      const at = stack.lastIndexOf(null);
      if (at >= 0) stack.splice(at, 1);
    }
  }

  /** After the last event: close what is still open (the root, elements a </form> kept). */
  finish(): void {
    if (this.openTag !== null) this.open();
    while (this.stack.length > 0) this.pop();
    this.root.end = this.nodes.length;
    for (const f of this.floating) if (f.el.end < 0) f.el.end = this.nodes.length;
  }

  private pop(): void {
    const stack = this.stack;
    const el = stack.pop();
    const fl = this.floating;
    // A floating form's range ends when the last element open above it closes.
    if (fl.length > 0 && fl[fl.length - 1].depth >= stack.length && fl[fl.length - 1].el.end < 0) {
      fl[fl.length - 1].el.end = this.nodes.length;
    }
    if (!el) return; // not materialised
    this.kept.pop();
    el.end = this.nodes.length;
    this.textAt = -1;
    switch (el.tag) {
      case 'main':
      case 'section':
        this.sections--;
        break;
      case 'article':
        this.sections--;
        if (--this.articleDepth === 0 && this.articles.length === 1 && el === this.articles[0]) {
          this.articleChars = this.chars - this.articleStart;
        }
        break;
      case 'table':
        this.tables.pop();
        break;
      case 'pre':
        this.pre--;
        break;
    }
    if (el === this.main) this.mainChars = this.chars - this.mainStart;
    const kept = this.kept;
    const parent = kept.length > 0 ? kept[kept.length - 1] : this.root;
    if (el.hasBlock) parent.hasBlock = true;
  }
}
