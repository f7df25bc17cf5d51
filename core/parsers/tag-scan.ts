/**
 * A tag-level tokenizer: it reports start tags, end tags and the end of input exactly where
 * htmlparser2's own tokenizer (HTML mode) does, with the same callbacks, but jumps over text,
 * quoted attribute values and raw-text element bodies with `indexOf` and reports no text,
 * comments or attribute events. `TagTree` (the Parser's tree rules) turns the tags into the
 * element structure of a full parse, at a fraction of its cost. Pure, no I/O.
 *
 * The scan writes the position of the tag being reported, and the attributes of a start tag
 * that the caller watches, into a shared `ScanCursor` the tree's handler reads in its callbacks.
 */
import type { StripTracker } from './lean.js';
import { CLASS, DQ, END, EQ, EQ_CLASS, GT, isAlpha, isSectionEnd, isSpace, sameName, SLASH, SPACE, SPECIAL, specialEnd, SQ } from './tag-chars.js';
import type { ScanCursor } from './tag-cursor.js';

/** What the scan reports (htmlparser2's tokenizer callbacks that shape the tree; tag names in lower case). */
export interface TagSink {
  onopentagname(name: string): void;
  onopentagend(gt: number): void;
  onselfclosingtag(gt: number): void;
  onclosetag(name: string): void;
  onend(): void;
  /** Whether the current element is in SVG or MathML content (raw-text tags are ordinary there). */
  isInForeignContext(): boolean;
}

/**
 * With a `StripTracker` the scan reads the raw page as the tokenizer would read
 * `stripRawText(page)`: comments and script, style and svg bodies are stepped over as strip
 * removes them, and the tracker is shown every place where strip's walk could part from the
 * tokenizer's (then the scan stops, and the caller strips the page first).
 */
export class TagScanner {
  constructor(
    private readonly cursor: ScanCursor,
    private readonly cb: TagSink,
    private readonly strip?: StripTracker,
  ) {}

  /** Scans a whole document and reports its end; false (and no end) when it stopped early. */
  run(s: string): boolean {
    if (!this.scan(s) || (this.strip !== undefined && !this.strip.ok)) {
      this.cursor.complete = false;
      return false;
    }
    this.cursor.event = 'end';
    this.cb.onend();
    return true;
  }

  /** Scans one whole document (the Parser is given it in one `end(html)`). False when it stops early. */
  private scan(s: string): boolean {
    const n = s.length;
    let i = 0;
    while (i < n) {
      const lt = s.indexOf('<', i);
      // A `<` ending the input is text.
      if (lt < 0 || lt + 1 >= n) return true;
      const c = s.charCodeAt(lt + 1);
      if (isAlpha(c)) i = this.startTag(s, lt);
      else if (c === SLASH) i = this.endTag(s, lt);
      else if (c === 0x21 /* ! */) i = this.strip && lt + 4 < n && s.startsWith('<!--', lt) ? this.strip.comment(s, lt) : this.declaration(s, lt);
      else if (c === 0x3f /* ? */) i = this.skipTo(s, lt + 2);
      else i = lt + 1;
      if (i < 0 || (this.strip !== undefined && !this.strip.ok)) return false;
    }
    return true;
  }

  private startTag(s: string, lt: number): number {
    const n = s.length;
    const cur = this.cursor;
    const strip = this.strip;
    let j = lt + 2;
    for (; j < n; j++) {
      const c = s.charCodeAt(j);
      if (c < 128 && (CLASS[c] as number) & (SPACE | END)) break;
      if (c === EQ && strip) strip.equals(s, j, false);
    }
    // Input ending in a tag name: the tokenizer drops the tag.
    if (j >= n) return n;
    const lower = s.slice(lt + 1, j).toLowerCase();
    const special = SPECIAL.has(lower) && !this.cb.isInForeignContext();
    cur.event = 'open';
    cur.tagStart = lt;
    cur.attrs.reset(s);
    this.cb.onopentagname(lower);
    let k = j;
    while (k < n) {
      const c = s.charCodeAt(k);
      if (c === GT) return this.opened(s, k, special ? lower : null, false);
      if (c === SLASH) {
        k++;
        while (k < n && isSpace(s.charCodeAt(k))) k++;
        if (k < n && s.charCodeAt(k) === GT) return this.opened(s, k, special ? lower : null, true);
        continue;
      }
      if (isSpace(c)) {
        k++;
        continue;
      }
      // An attribute name runs to `=`, whitespace, `/` or `>` (its first character can be `=`).
      if (c === EQ && strip) strip.equals(s, k, false);
      const nameStart = k++;
      for (; k < n; k++) {
        const d = s.charCodeAt(k);
        if (d < 128 && (CLASS[d] as number) & (SPACE | END | EQ_CLASS)) break;
      }
      const nameEnd = k;
      if (s.charCodeAt(k) === EQ && s.charCodeAt(k + 1) === DQ) {
        // The usual `name="value"`.
        const close = s.indexOf('"', k + 2);
        if (close < 0) return -1;
        this.attribute(s, nameStart, nameEnd, k + 2, close);
        k = close + 1;
        continue;
      }
      while (k < n && isSpace(s.charCodeAt(k))) k++;
      if (k < n && s.charCodeAt(k) === EQ) {
        strip?.equals(s, k, true);
        k++;
        while (k < n && isSpace(s.charCodeAt(k))) k++;
        if (k >= n) return -1;
        const q = s.charCodeAt(k);
        if (q === DQ || q === SQ) {
          const close = s.indexOf(q === DQ ? '"' : "'", k + 1);
          if (close < 0) return -1;
          this.attribute(s, nameStart, nameEnd, k + 1, close);
          k = close + 1;
        } else {
          const from = k;
          for (; k < n; k++) {
            const d = s.charCodeAt(k);
            if (d === GT || isSpace(d)) break;
            if (d === EQ && strip) strip.equals(s, k, false);
          }
          this.attribute(s, nameStart, nameEnd, from, k);
        }
      } else this.attribute(s, nameStart, nameEnd, k, k);
    }
    // Input ending inside a start tag: left to the full tokenizer.
    return -1;
  }

  private attribute(s: string, nameStart: number, nameEnd: number, from: number, to: number): void {
    const attrs = this.cursor.attrs;
    const names = attrs.byLength[nameEnd - nameStart];
    if (names === undefined) return;
    for (let i = 0; i < names.length; i++) {
      const w = names[i] as string;
      if (!sameName(s, nameStart, w)) continue;
      attrs.add(w, from, to);
      return;
    }
  }

  /** The `>` of a start tag at `gt`; a raw-text element's body is skipped to its end tag. */
  private opened(s: string, gt: number, special: string | null, selfClosing: boolean): number {
    const cur = this.cursor;
    cur.event = 'opened';
    cur.tagEnd = gt + 1;
    if (selfClosing) this.cb.onselfclosingtag(gt);
    else this.cb.onopentagend(gt);
    // Where the (lean) page goes on: past the body strip removes.
    const body = this.strip ? this.strip.rawBody(s, cur.tagStart, gt) : gt + 1;
    if (special === null || body < 0) return body;
    const end = special === 'plaintext' ? -1 : specialEnd(s, body, special);
    this.strip?.plain(s, body, end < 0 ? s.length : end);
    if (end < 0) return s.length;
    const nameEnd = end + 2 + special.length;
    cur.event = 'close';
    cur.tagStart = end;
    cur.attrs.reset(s);
    const close = s.indexOf('>', nameEnd);
    cur.tagEnd = close < 0 ? s.length : close + 1;
    this.cb.onclosetag(special);
    return cur.tagEnd;
  }

  private endTag(s: string, lt: number): number {
    const n = s.length;
    if (lt + 2 >= n) return n;
    const c = s.charCodeAt(lt + 2);
    if (c === GT) return lt + 3;
    // `</ x>`, `</1>`: a bogus comment up to the next `>`.
    if (!isAlpha(c)) return this.skipTo(s, lt + 2);
    let j = lt + 3;
    while (j < n && !isSectionEnd(s.charCodeAt(j))) j++;
    if (j >= n) return n;
    const cur = this.cursor;
    cur.event = 'close';
    cur.tagStart = lt;
    // An end tag can open an element (`</p>`, `</br>`): it has no attributes.
    cur.attrs.reset(s);
    const close = s.indexOf('>', j);
    cur.tagEnd = close < 0 ? n : close + 1;
    this.strip?.plain(s, lt + 2, cur.tagEnd);
    this.cb.onclosetag(s.slice(lt + 2, j).toLowerCase());
    return cur.tagEnd;
  }

  /** `<!...>`: doctype, comments and bogus comments; CDATA is left to the full tokenizer. */
  private declaration(s: string, lt: number): number {
    const c = s.charCodeAt(lt + 2);
    if (c === 0x5b /* [ */) return s.startsWith('CDATA[', lt + 3) ? -1 : this.skipTo(s, lt + 3);
    if (c === GT) return lt + 3;
    if (c !== 0x2d /* - */ || s.charCodeAt(lt + 3) !== 0x2d) return this.skipTo(s, lt + 2);
    // `<!--`: abruptly closed (`<!-->`, `<!--->`), else up to the first `-->` or `--!>`.
    if (s.charCodeAt(lt + 4) === GT) return lt + 5;
    if (s.charCodeAt(lt + 4) === 0x2d && s.charCodeAt(lt + 5) === GT) return lt + 6;
    const a = s.indexOf('-->', lt + 4);
    const b = s.indexOf('--!>', lt + 4);
    const end = a < 0 && b < 0 ? s.length : a >= 0 && (b < 0 || a < b) ? a + 3 : b + 4;
    this.strip?.plain(s, lt + 4, end);
    return end;
  }

  /** Index past the next `>` at or after `from` (the end of a bogus comment), or the input's end. */
  private skipTo(s: string, from: number): number {
    const gt = s.indexOf('>', from);
    const end = gt < 0 ? s.length : gt + 1;
    this.strip?.plain(s, from, end);
    return end;
  }
}
