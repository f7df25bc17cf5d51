/**
 * What the tag scan (tag-scan.ts) tells the tree's handler about the tag being reported: where
 * it lies in the page, and the attributes the caller watches. Pure, no I/O.
 */
import { decodeHTMLAttribute } from 'entities/decode';

export interface ScanCursor {
  /** `open` while a start tag's name is handled (implied closes), `opened` at its `>`, `close` for an end tag, `end` at the end of input. */
  event: 'open' | 'opened' | 'close' | 'end';
  /** Index of the `<` of the tag being reported. */
  tagStart: number;
  /** Index just past the `>` of that tag (its start tag for `opened`). */
  tagEnd: number;
  /** Watched attributes of the current start tag (first wins, as in `attribs`). */
  attrs: TagAttributes;
  /** False when the input ended inside markup this scan leaves to the full tokenizer (an open tag, CDATA). */
  complete: boolean;
}

/**
 * The watched attributes of the start tag being reported: names (lower case) to collect, and
 * where their values lie in the page; a value is sliced (and entity-decoded) only when asked for.
 */
export class TagAttributes {
  private source = '';
  // Parallel arrays reused from tag to tag (`count` entries valid): setting an array's length is slow.
  private count = 0;
  private readonly names: string[] = [];
  private readonly from: number[] = [];
  private readonly to: number[] = [];

  /** Watched names by length (an attribute name is compared only with names of its length). */
  readonly byLength: (readonly string[] | undefined)[] = [];

  constructor(watch: readonly string[]) {
    for (const w of watch) this.byLength[w.length] = [...(this.byLength[w.length] ?? []), w];
  }

  /** Forgets the previous tag's attributes. */
  reset(source: string): void {
    this.source = source;
    this.count = 0;
  }

  add(name: string, from: number, to: number): void {
    if (this.indexOf(name) >= 0) return;
    const i = this.count++;
    this.names[i] = name;
    this.from[i] = from;
    this.to[i] = to;
  }

  private indexOf(name: string): number {
    for (let i = 0; i < this.count; i++) if (this.names[i] === name) return i;
    return -1;
  }

  has(name: string): boolean {
    return this.indexOf(name) >= 0;
  }

  /** The decoded value, as in the DOM's `attribs`; undefined when the tag has no such (watched) attribute. */
  get(name: string): string | undefined {
    const i = this.indexOf(name);
    if (i < 0) return undefined;
    const raw = this.source.slice(this.from[i], this.to[i]);
    return raw.indexOf('&') >= 0 ? decodeHTMLAttribute(raw) : raw;
  }
}
