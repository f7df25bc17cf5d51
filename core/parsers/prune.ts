/**
 * A page cut down to what a parser reads, built without tokenising the page in full. A
 * parser names the elements it reads (`Keep`: ids, attributes, classes of a start tag); one
 * tag-level scan of the lean page (`TagScanner` feeding `TagTree`, htmlparser2's tree rules, so
 * the element structure is the full parse's) keeps each such element whole, and of everything else only
 * the start tags of the kept elements' ancestors. The DOM of the cut is the full DOM with every
 * element that neither is kept, lies inside a kept one, nor is an ancestor of one removed
 * (and the text of those ancestors): kept subtrees are node for node the same, their
 * ancestors carry the same names and attributes, so selectors and `closest` walks that go up
 * from a kept element answer as on the full page. Queries must only return kept elements (or
 * test ancestors); siblings of kept elements that are not kept are gone.
 *
 * Why the cut parses the same: at each kept element's start tag the cut has exactly the full
 * parse's open elements (the ancestors), so the parser takes the same decisions (implied
 * closes, the ignored nested `<form>`, foreign content) inside it; a kept element closed
 * implicitly gets an explicit end tag at the point the full parse closed it.
 */
import type { Document } from 'domhandler';
import { dataUris, emptyDataUris, leanHtml, StripTracker, stripRawText } from './lean.js';
import { leanDom } from './load.js';
import { TagAttributes, type ScanCursor } from './tag-cursor.js';
import { TagScanner } from './tag-scan.js';
import { TagTree, type TreeHandler } from './tag-tree.js';

/**
 * Which elements a parser reads. `test` sees each element outside kept subtrees: its tag name,
 * its watched attributes, and the labels of the shells around it (outermost first).
 * It answers `true` to keep the element whole, a label to keep it as a shell (its start tag,
 * and of its content only what `test` keeps, tested under that label), or `false`.
 */
export interface Keep {
  /** Attribute names (lower case) `test` reads; only these are collected from start tags. */
  attrs: readonly string[];
  test(name: string, attrs: TagAttributes, within: readonly string[]): boolean | string;
}

interface Open {
  name: string;
  start: number;
  /** Index past its start tag's `>`. */
  tagEnd: number;
  /** Whether its start tag was written to the cut (it is an ancestor of a kept element, or a shell). */
  emitted: boolean;
  /** Its label when it is a shell. */
  shell: string | null;
}

/** Tree handler writing the cut: kept subtrees whole, their ancestors' start and end tags. */
class PruneHandler implements TreeHandler {
  readonly out: string[] = [];
  kept = 0;
  private readonly stack: Open[] = [];
  private region: Open | null = null;
  /** Labels of the open shells, outermost first. */
  private readonly shells: string[] = [];

  constructor(
    private readonly lean: string,
    private readonly keep: Keep,
    private readonly cursor: ScanCursor,
  ) {}

  onopentag(name: string): void {
    const cur = this.cursor;
    const el: Open = { name, start: cur.tagStart, tagEnd: cur.tagEnd, emitted: false, shell: null };
    this.stack.push(el);
    if (this.region !== null) return;
    let verdict = this.keep.test(name, cur.attrs, this.shells);
    if (verdict === false) return;
    // An element opened by an end tag (`</p>`, `</br>`) is empty and its "start tag" is that end tag: kept whole.
    if (cur.event === 'close') verdict = true;
    for (const a of this.stack) {
      if (a.emitted || a === el) continue;
      this.out.push(this.lean.slice(a.start, a.tagEnd));
      a.emitted = true;
    }
    if (verdict === true) {
      this.region = el;
      this.kept++;
      return;
    }
    this.out.push(this.lean.slice(el.start, el.tagEnd));
    el.emitted = true;
    el.shell = verdict;
    this.shells.push(verdict);
  }

  onclosetag(_name: string, implied: boolean): void {
    const el = this.stack.pop();
    if (!el) return;
    if (el === this.region) {
      const cur = this.cursor;
      // Closed by its own end tag, or at its start tag's `>` (void, self-closed in foreign content).
      const explicit = cur.event === 'opened' || (cur.event === 'close' && !implied);
      const end = explicit ? cur.tagEnd : cur.event === 'end' ? this.lean.length : cur.tagStart;
      this.out.push(this.lean.slice(el.start, end));
      // At the end of input the cut's own end closes it (an end tag could land in a raw-text body).
      if (!explicit && cur.event !== 'end') this.out.push(`</${el.name}>`);
      this.region = null;
    } else if (el.emitted) {
      // An element closed at its own start tag (void, or self-closed in foreign content) needs no
      // end tag, nor one closed by the end of input.
      if (this.cursor.event !== 'opened' && this.cursor.event !== 'end') this.out.push(`</${el.name}>`);
      if (el.shell !== null) this.shells.pop();
    }
  }
}

/**
 * The cut of a lean page (`leanHtml`) and how many elements were kept, or null when the scan
 * met markup it leaves to the full tokenizer (CDATA, input ending inside a tag). With `strip`,
 * `html` is the raw page read as its lean page (see `TagScanner`), and the cut is raw.
 */
export function prunedHtml(html: string, keep: Keep, strip?: StripTracker): { html: string; kept: number } | null {
  const cursor: ScanCursor = { event: 'open', tagStart: 0, tagEnd: 0, attrs: new TagAttributes(keep.attrs), complete: true };
  const handler = new PruneHandler(html, keep, cursor);
  if (!new TagScanner(cursor, new TagTree(handler), strip).run(html)) return null;
  return { html: handler.out.join(''), kept: handler.kept };
}

/**
 * The DOM of the page cut to the elements `keep` names, or null when the scan stopped early
 * (the caller then loads the whole page with `loadHtml`).
 *
 * The raw page is scanned as its lean page (one walk instead of strip's and the scan's) and the
 * cut is made lean; when the two walks could part, the page is stripped first and the lean page
 * scanned. `leanHtml` empties inline `data:` URIs of the whole page; here they are emptied in
 * the cut only. Both give the same DOM when every URI the lean page keeps lies inside one token
 * (an attribute value, a text run without markup): the scan then sees the same tags, and the
 * URIs of the kept parts are all in the cut. A URI running across `<` or `>` takes the
 * whole-page way.
 */
export function loadPruned(html: string, keep: Keep): Document | null {
  const strip = new StripTracker();
  const raw = prunedHtml(html, keep, strip);
  if (raw && !urisAcrossMarkup(html, strip.removed)) return leanDom(leanHtml(raw.html));
  const stripped = stripRawText(html);
  const uris = dataUris(stripped);
  const across = urisAcrossMarkup(stripped, [], uris);
  const cut = prunedHtml(across ? emptyDataUris(stripped, uris) : stripped, keep);
  return cut ? leanDom(emptyDataUris(cut.html)) : null;
}

/**
 * Whether a `data:` URI of the lean page runs across `<` or `>`: on the raw page, one starting
 * outside the `removed` ranges and holding either (one running into a removed range holds the
 * `<` of the tag or comment before it), or one right after a removed range (strip would join it
 * to what precedes the range).
 */
function urisAcrossMarkup(page: string, removed: readonly number[], uris = dataUris(page, removed)): boolean {
  for (let r = 1; r < removed.length; r += 2) if (page.startsWith('data:', removed[r] as number)) return true;
  for (let u = 0; u < uris.length; u += 2) {
    const run = page.slice(uris[u], uris[u + 1]);
    if (run.indexOf('<') >= 0 || run.indexOf('>') >= 0) return true;
  }
  return false;
}
