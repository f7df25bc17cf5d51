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
 * every quote and parenthesis of the page, this only the `data:` occurrences.
 */
export function dataUris(s: string): number[] {
  const ranges: number[] = [];
  for (let i = s.indexOf('data:', 1); i >= 0; i = s.indexOf('data:', i + 5)) {
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

