/**
 * The lean page the DOM is built from: raw-text bodies and comments stripped, inline `data:`
 * URIs emptied. Pure string work, no I/O.
 */

/**
 * Removes what no parser reads before the page is tokenised: the bodies of `<script>`, `<style>`
 * and `<svg>` elements (the tags stay) and comments. Real result pages carry 1-2 MB of inline
 * script, style and vector paths; dropping them roughly halves tokenising time. A plain indexOf
 * scan, linear and allocation-light.
 *
 * Start tags are stepped over whole, quoted attribute values included: pages carry HTML inside
 * attributes (a product page's widget config holds `<title></title><style>…`), and a `<style`
 * found there is not an element; stripping from it to the next real `</style>` would swallow
 * the attribute's closing quote and most of the page.
 */
export function stripRawText(html: string): string {
  const parts: string[] = [];
  let pos = 0;
  let i = 0;
  for (;;) {
    i = html.indexOf('<', i);
    if (i < 0 || i + 4 >= html.length) break;
    if (html.startsWith('<!--', i)) {
      const end = html.indexOf('-->', i + 4);
      if (end < 0) break;
      parts.push(html.slice(pos, i));
      pos = i = end + 3;
      continue;
    }
    const tag = rawTag(html, i);
    if (tag === null) {
      if (!isLetter(html.charCodeAt(i + 1))) {
        i += 1;
        continue;
      }
      const end = tagEnd(html, i);
      if (end < 0) break;
      i = end + 1;
      continue;
    }
    const open = tagEnd(html, i);
    if (open < 0) break;
    if (html.charCodeAt(open - 1) === 0x2f /* self-closing */) {
      i = open + 1;
      continue;
    }
    const close = closingTag(html, tag, i, open + 1);
    if (close < 0) break;
    parts.push(html.slice(pos, open + 1));
    pos = i = close;
    i += 2;
  }
  if (pos === 0) return html;
  parts.push(html.slice(pos));
  return parts.join('');
}

function isLetter(c: number): boolean {
  const l = c | 0x20;
  return l >= 0x61 && l <= 0x7a;
}

/**
 * Index of the `>` that ends the start tag opening at `i`, or -1. A quote opens a value only
 * after `=` (as in the tokenizer); quoted values are skipped with indexOf, the rest of the tag
 * (names, unquoted values) is walked, which on real pages is a small part of the bytes.
 */
function tagEnd(html: string, i: number): number {
  for (let j = i + 1; j < html.length; j++) {
    const c = html.charCodeAt(j);
    if (c === 0x3e /* > */) return j;
    if (c !== 0x3d /* = */) continue;
    let k = j + 1;
    while (k < html.length && html.charCodeAt(k) <= 0x20) k++;
    const q = html.charCodeAt(k);
    if (q === 0x22 || q === 0x27) {
      const close = html.indexOf(q === 0x22 ? '"' : "'", k + 1);
      if (close < 0) return -1;
      j = close;
    } else j = k - 1;
  }
  return -1;
}

/** `script`, `style` or `svg` when a raw-content element opens at `i`, else null. */
function rawTag(html: string, i: number): string | null {
  const c = html.charCodeAt(i + 1) | 0x20;
  if (c !== 0x73 /* s */) return null;
  const head = html.slice(i + 1, i + 8).toLowerCase();
  const tag = head.startsWith('script') ? 'script' : head.startsWith('style') ? 'style' : head.startsWith('svg') ? 'svg' : null;
  if (tag === null) return null;
  const after = html.charCodeAt(i + 1 + tag.length);
  // `<scripts>` or `<styled>` are not the raw-content elements.
  return after === 0x3e || after === 0x20 || after === 0x2f || after === 0x09 || after === 0x0a || after === 0x0d ? tag : null;
}

/**
 * The closing tag, in the case the opening tag was written in (lower or upper; mixed case is
 * not seen on result pages). Searching both cases every time would rescan the page per element.
 */
function closingTag(html: string, tag: string, openedAt: number, from: number): number {
  const upper = html.charCodeAt(openedAt + 1) < 0x61;
  return html.indexOf(`</${upper ? tag.toUpperCase() : tag}`, from);
}

/**
 * `stripRawText`'s removals, followed along a tokenizer's walk of the raw page (`TagScanner`
 * with a tracker): where the tokenizer meets a comment or a script, style or svg start tag, the
 * removal strip makes there, and where the lean page goes on. The two walks agree on where tags
 * start and end except in markup no real page is built of; where they could part (a `<` inside
 * an end tag, a bogus comment or a raw-text body; an `=` strip reads as an attribute's and the
 * tokenizer does not; strip stopping early at an unclosed comment or raw element) `ok` turns
 * false and the caller strips the page first instead.
 */
export class StripTracker {
  /** [from, to) ranges of the raw page strip removes, in page order. */
  readonly removed: number[] = [];
  ok = true;

  /** At `<!--` (lt): the index past the removed comment, or -1 when strip stops there. */
  comment(html: string, lt: number): number {
    const end = html.indexOf('-->', lt + 4);
    if (end < 0) return this.fail();
    this.removed.push(lt, end + 3);
    return end + 3;
  }

  /** After a start tag (`<` at lt, `>` at gt): where the lean page goes on (past a removed body). */
  rawBody(html: string, lt: number, gt: number): number {
    const tag = rawTag(html, lt);
    // A self-closing script, style or svg keeps its body.
    if (tag === null || html.charCodeAt(gt - 1) === 0x2f) return gt + 1;
    const close = closingTag(html, tag, lt, gt + 1);
    if (close < 0) return this.fail();
    this.removed.push(gt + 1, close);
    return close;
  }

  /** A span the tokenizer skips whole (an end tag, a bogus comment, a raw-text body): strip would look for tags in it. */
  plain(html: string, from: number, to: number): void {
    const lt = html.indexOf('<', from);
    if (lt >= 0 && lt < to) this.fail();
  }

  /**
   * An `=` in a start tag at `at`, which the tokenizer reads as the start of an attribute value
   * (`assigns`) or as a plain character: strip reads every `=` as one, skipping characters up
   * to U+0020 to a quote. The walks part when they disagree on a quoted value.
   */
  equals(html: string, at: number, assigns: boolean): void {
    let k = at + 1;
    if (assigns && html.charCodeAt(k) > 0x20) return;
    while (k < html.length && html.charCodeAt(k) <= 0x20) k++;
    const q = html.charCodeAt(k);
    const stripQuoted = q === 0x22 || q === 0x27;
    if (!assigns) {
      if (stripQuoted) this.fail();
      return;
    }
    // The tokenizer skips only its own whitespace before the value: a quote strip reaches past
    // other control characters opens no value for it.
    let t = at + 1;
    while (t < html.length && isTokenizerSpace(html.charCodeAt(t))) t++;
    if (stripQuoted && t !== k) this.fail();
  }

  private fail(): number {
    this.ok = false;
    return -1;
  }
}

function isTokenizerSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0c || c === 0x0d;
}

/**
 * The text the DOM is built from: raw-text bodies and comments stripped (`stripRawText`), and
 * inline `data:` images (base64 thumbnails, often a third of what is left of a page) emptied:
 * no parser reads them, and the tokenizer would otherwise walk every byte.
 */
export function leanHtml(html: string): string {
  return emptyDataUris(stripRawText(html));
}

/** `\s` of a regular expression: ASCII whitespace and the Unicode space separators. */
const JS_SPACE = /\s/;

/**
 * The inline `data:` URIs `/(["'(])data:[a-z]+\/[^"')\s]{200,}/g` matches, as [start, end)
 * ranges after the opening quote or parenthesis, found by indexOf: the regular expression tests
 * every quote and parenthesis of the page, this only the `data:` occurrences. URIs starting in
 * a `skip` range ([from, to) pairs in order) are not looked at.
 */
export function dataUris(s: string, skip: readonly number[] = []): number[] {
  const ranges: number[] = [];
  let k = 0;
  for (let i = s.indexOf('data:', 1); i >= 0; i = s.indexOf('data:', i + 5)) {
    // Inside a `skip` range (a body strip removes): go on past it.
    while (k < skip.length && (skip[k + 1] as number) <= i) k += 2;
    if (k < skip.length && (skip[k] as number) <= i) {
      i = (skip[k + 1] as number) - 5;
      continue;
    }
    const before = s.charCodeAt(i - 1);
    if (before !== 0x22 && before !== 0x27 && before !== 0x28) continue;
    let j = i + 5;
    while (j < s.length && s.charCodeAt(j) >= 0x61 && s.charCodeAt(j) <= 0x7a) j++;
    if (j === i + 5 || s.charCodeAt(j) !== 0x2f /* / */) continue;
    const from = ++j;
    for (; j < s.length; j++) {
      const c = s.charCodeAt(j);
      if (c === 0x22 || c === 0x27 || c === 0x29 || (c <= 0x20 ? c >= 0x09 && (c <= 0x0d || c === 0x20) : c >= 0xa0 && JS_SPACE.test(s[j] as string))) break;
    }
    if (j - from < 200) continue;
    ranges.push(i, j);
    i = j - 5;
  }
  return ranges;
}

/** `s` without the `dataUris` ranges. */
export function emptyDataUris(s: string, ranges = dataUris(s)): string {
  if (ranges.length === 0) return s;
  const parts: string[] = [];
  let pos = 0;
  for (let r = 0; r < ranges.length; r += 2) {
    parts.push(s.slice(pos, ranges[r]));
    pos = ranges[r + 1] as number;
  }
  parts.push(s.slice(pos));
  return parts.join('');
}

