/**
 * Loading a page for the parsers: the raw-content strip and the DOM build. Pure, no I/O.
 */
import { parseDocument } from 'htmlparser2';
import type { Document } from 'domhandler';

/**
 * Removes what no parser reads before the page is tokenised: the bodies of `<script>`, `<style>`
 * and `<svg>` elements (the tags stay) and comments. Real result pages carry 1-2 MB of inline
 * script, style and vector paths; dropping them roughly halves tokenising time. A plain indexOf
 * scan, linear and allocation-light.
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
      i += 1;
      continue;
    }
    const open = html.indexOf('>', i);
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
 * Inline `data:` images (base64 thumbnails, often a third of what is left of a page) are emptied
 * too: no parser reads them, and the tokenizer would otherwise walk every byte.
 */
export function loadHtml(html: string): Document {
  const lean = stripRawText(html).replace(/(["'(])data:[a-z]+\/[^"')\s]{200,}/g, '$1');
  return parseDocument(lean, { decodeEntities: true });
}

