/**
 * The Markdown line writer. Output is only ever appended (linear time).
 *
 * Laziness is what keeps the output clean without a post-pass:
 *  - block breaks are *requested* (1 = new line, 2 = blank line) and written only before the
 *    next content, so nothing trails the document and blank lines never double;
 *  - collapsed whitespace is a pending flag, written only between two pieces of content on the
 *    same line (no leading or trailing spaces);
 *  - inline openers (`**`, `[`, `## `) are written only before the element's first content,
 *    so empty elements vanish and edge whitespace moves outside the markers.
 *
 * Containers that prefix lines (blockquote `> `, list item `- ` then 4 spaces) are frames; each
 * line gets the concatenated prefixes when its first content arrives.
 *
 * In inline mode (`inline > 0`: inside links, headings, table cells) block breaks become
 * spaces, so the output stays on one line.
 */
import { escapeInline, escapeLineStart } from './escape.js';

const CHUNK = 8192;

interface Frame {
  readonly first: string;
  readonly rest: string;
  used: boolean;
}

export class Writer {
  /** > 0: block structure is flattened to spaces. */
  inline: number;
  /**
   * The output: sealed chunks plus the open one. `+=` builds a rope of small cells; sealing
   * flattens it every CHUNK characters so those cells die young instead of piling up for the
   * garbage collector on multi-megabyte pages.
   */
  private readonly chunks: string[] = [];
  private out = '';
  /**
   * Closers are held back until the next write, so that `**a**` + `**b**` with nothing
   * between can become `**ab**` without editing what was written.
   */
  private closers = '';
  private any = false;
  /** Newlines written since the last content; >= 1 means "at the start of a line". */
  private nl = 1;
  private want = 0;
  /** Frames that existed when the pending break was requested: its blank line's prefix. */
  private wantDepth = 0;
  /** Just entered a frame: break requests are void until content arrives. */
  private fresh = false;
  private space = false;
  /** The current line holds only its prefix. */
  private lineStart = false;
  private readonly frames: Frame[] = [];
  private readonly openers: string[] = [];

  /** @param cell a table-cell writer: one line, no block-start escaping. */
  constructor(private readonly cell = false) {
    this.inline = cell ? 1 : 0;
  }

  /** Requests a break before the next content: 1 new line, 2 blank line. */
  block(n: 1 | 2): void {
    if (this.inline > 0) this.space = true;
    else if (!this.fresh && n > this.want) this.request(n);
  }

  private request(n: 1 | 2): void {
    if (this.want === 0 || this.frames.length < this.wantDepth) this.wantDepth = this.frames.length;
    this.want = n;
  }

  /** Caps a pending break at a single newline (between list items). */
  tighten(): void {
    if (this.want > 1) this.want = 1;
  }

  /** `<br>`: a new line; two in a row make a blank line; ignored at a line start. */
  lineBreak(): void {
    if (this.inline > 0) {
      this.space = true;
      return;
    }
    if (this.fresh || !this.any || (this.nl > 0 && this.want === 0)) return;
    this.request(this.want >= 1 ? 2 : 1);
  }

  /** Collapsed whitespace between inline content. */
  softSpace(): void {
    this.space = true;
  }

  /** Text from the page: whitespace collapsed by the caller, escaped here. */
  text(collapsed: string): void {
    let s = collapsed;
    if (s.length === 0) return;
    if (s.charCodeAt(0) === 32) {
      this.space = true;
      if (s.length === 1) return;
      s = s.slice(1);
    }
    const trail = s.charCodeAt(s.length - 1) === 32;
    if (trail) s = s.slice(0, -1);
    s = escapeInline(s);
    this.start();
    this.out += this.lineStart && !this.cell ? escapeLineStart(s) : s;
    this.lineStart = false;
    this.space = trail;
  }

  /** Ready-made Markdown (image, code span, rule) placed as one inline piece. */
  raw(md: string): void {
    this.start();
    this.out += md;
    this.lineStart = false;
  }

  /** Block lines (code block, table) with the current prefixes; call `block(2)` around it. */
  lines(ls: readonly string[]): void {
    this.start();
    this.out += ls[0];
    for (let i = 1; i < ls.length; i++) {
      const l = ls[i];
      this.out += '\n' + (l === '' ? this.blankPrefix(this.frames.length) : this.prefix() + l);
    }
    this.lineStart = false;
  }

  /** Registers a lazy opener; returns the token to pass to `close`. */
  open(marker: string): number {
    this.openers.push(marker);
    return this.openers.length - 1;
  }

  /**
   * Closes an opener: writes `closer` if the opener was written, else forgets both (an empty
   * element leaves no markers). Openers pending at a close are always the innermost ones.
   */
  close(token: number, closer: string): boolean {
    if (this.openers.length > token) {
      this.openers.length = token;
      return false;
    }
    this.closers += closer;
    return true;
  }

  /** Breaks requested before the push are written (lazily) with the outer prefix. */
  pushFrame(first: string, rest: string): void {
    this.frames.push({ first, rest, used: false });
    this.fresh = true;
  }

  popFrame(): void {
    this.frames.pop();
    if (this.wantDepth > this.frames.length) this.wantDepth = this.frames.length;
    this.fresh = false;
  }

  /** The Markdown: ends with one newline, or is empty. */
  finish(): string {
    if (this.closers !== '') this.flushClosers();
    if (!this.any) return '';
    this.chunks.push(this.out, '\n');
    return this.chunks.join('');
  }

  /** The single line of a cell writer, without the final newline. */
  finishLine(): string {
    if (this.closers !== '') this.flushClosers();
    return this.chunks.length === 0 ? this.out : this.chunks.join('') + this.out;
  }

  /** Writes pending breaks, prefix, space and openers before a piece of content. */
  private start(): void {
    if (this.out.length > CHUNK) this.seal();
    if (this.closers !== '') {
      const n = this.openers.length;
      // `**a**` + `**b**` with nothing between reads better as `**ab**`.
      if (n > 0 && !this.space && this.want === 0 && this.closers === this.openers.join('')) {
        this.closers = '';
        this.openers.length = 0;
      } else {
        this.flushClosers();
      }
    }
    if (this.want > 0) this.flushBreaks();
    if (this.nl > 0) {
      this.out += this.prefix();
      this.nl = 0;
      this.any = true;
      this.lineStart = true;
    } else if (this.space) {
      this.out += ' ';
    }
    this.space = false;
    this.fresh = false;
    const n = this.openers.length;
    if (n > 0) {
      this.out += n === 1 ? this.openers[0] : this.openers.join('');
      this.openers.length = 0;
      this.lineStart = false;
    }
  }

  private seal(): void {
    const s = this.out;
    s.charCodeAt(0); // flattens the rope in place
    this.chunks.push(s);
    this.out = '';
  }

  private flushClosers(): void {
    this.out += this.closers;
    this.closers = '';
  }

  private flushBreaks(): void {
    if (!this.any) {
      this.want = 0;
      return;
    }
    while (this.nl < this.want) {
      this.out += this.nl === 0 ? '\n' : this.blankPrefix(this.wantDepth) + '\n';
      this.nl++;
    }
    this.want = 0;
  }

  private prefix(): string {
    let s = '';
    for (const f of this.frames) {
      if (f.used) s += f.rest;
      else {
        s += f.first;
        f.used = true;
      }
    }
    return s;
  }

  private blankPrefix(depth: number): string {
    let s = '';
    for (let i = 0; i < depth; i++) s += this.frames[i].rest;
    return s.trimEnd();
  }
}
