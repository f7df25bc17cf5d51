/**
 * Escaping of text (never of code) so that it reads back as the same text. Only characters
 * that would change meaning where they stand are escaped: `snake_case`, `5 * 3`, `a < b` and
 * `AT&T` stay as they are.
 */

/**
 * Whitespace runs collapse to one space, like `white-space: normal`; NBSP and BOM count as
 * whitespace too (spacer `&nbsp;` paragraphs must not survive). Regexes, not a char loop: V8
 * runs them as native code, several times faster over the page's text, and most text needs
 * no change (the test is the fast path).
 */
const NEEDS_COLLAPSE = /[\t\n\v\f\r\u00a0\ufeff]| [ \t\n\v\f\r\u00a0\ufeff]/;
const WS_RUN = /[ \t\n\v\f\r\u00a0\ufeff]+/g;

export function collapse(s: string): string {
  return NEEDS_COLLAPSE.test(s) ? s.replace(WS_RUN, ' ') : s;
}

const MAY_NEED = /[\\`*_[\]<&~]/;
const ENTITY_AT = /&(?:#[0-9]{1,8}|#[xX][0-9a-fA-F]{1,8}|[A-Za-z][A-Za-z0-9]{1,31});/y;

function isSpace(c: number): boolean {
  return c === 32 || Number.isNaN(c);
}

/** ASCII punctuation, per CommonMark's list. */
function isPunct(c: number): boolean {
  return (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126);
}

function isWordChar(c: number): boolean {
  return !Number.isNaN(c) && c !== 32 && !isPunct(c);
}

function isTagStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 47 || c === 33 || c === 63;
}

/**
 * Escapes inline-significant characters in collapsed text. A string boundary counts as
 * "unknown" neighbour, so `*`/`_` at an edge of a text run are escaped.
 */
export function escapeInline(s: string): string {
  if (!MAY_NEED.test(s)) return s;
  let out = '';
  let from = -1; // start of the not yet copied tail; -1 while nothing was escaped
  let tilde = false; // a tilde was seen before i
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let esc = false;
    switch (c) {
      case 92: { // backslash: escapes the next punctuation, or is a hard break at line end
        const n = s.charCodeAt(i + 1);
        esc = Number.isNaN(n) || isPunct(n);
        break;
      }
      case 96: // backtick
      case 91: // [
      case 93: // ]
        esc = true;
        break;
      case 42: { // *: cannot open or close emphasis when spaces surround it
        esc = !(s.charCodeAt(i - 1) === 32 && s.charCodeAt(i + 1) === 32);
        break;
      }
      case 95: { // _: also inert inside a word
        const p = s.charCodeAt(i - 1);
        const n = s.charCodeAt(i + 1);
        esc = !((p === 32 && n === 32) || (isWordChar(p) && isWordChar(n)));
        break;
      }
      case 126: { // ~: GFM strikethrough needs a pair; a lone tilde ("~5 km") stays
        const pair = tilde || s.indexOf('~', i + 1) >= 0;
        tilde = true;
        esc = pair && !(s.charCodeAt(i - 1) === 32 && s.charCodeAt(i + 1) === 32);
        break;
      }
      case 60: // < that would start an HTML tag
        esc = isTagStart(s.charCodeAt(i + 1));
        break;
      case 38: // & that would read back as an entity
        ENTITY_AT.lastIndex = i;
        esc = ENTITY_AT.test(s);
        break;
    }
    if (esc) {
      out += s.slice(from < 0 ? 0 : from, i) + '\\';
      from = i;
    }
  }
  return from < 0 ? s : out + s.slice(from);
}

const HEADING = /^#{1,6}(?: |$)/;
const ORDERED = /^(\d{1,9})([.)])(?: |$)/;
const RULE_LIKE = /^(?:-+|=+|(?:[-*] *){3,}) *$/;

function isSpaceOrEnd(s: string, i: number): boolean {
  return isSpace(s.charCodeAt(i));
}

/**
 * Escapes what would start a block when the text opens a line: ATX heading, list item,
 * blockquote, thematic break, setext underline, code fence.
 */
export function escapeLineStart(s: string): string {
  switch (s.charCodeAt(0)) {
    case 35: // #
      return HEADING.test(s) ? '\\' + s : s;
    case 62: // >
      return '\\' + s;
    case 43: // +
    case 45: // -
      return isSpaceOrEnd(s, 1) || RULE_LIKE.test(s) ? '\\' + s : s;
    case 61: // =
      return RULE_LIKE.test(s) ? '\\' + s : s;
    case 126: // ~
      return s.startsWith('~~~') ? '\\' + s : s;
    default: {
      const c = s.charCodeAt(0);
      if (c >= 48 && c <= 57) {
        const m = ORDERED.exec(s);
        if (m) return m[1] + '\\' + s.slice(m[1].length);
      }
      return s;
    }
  }
}

/** Escapes image alt text (inside `![...]`). */
export function escapeAlt(s: string): string {
  return /[\\[\]]/.test(s) ? s.replace(/[\\[\]]/g, '\\$&') : s;
}

function longestBacktickRun(s: string): number {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) === 96) {
      run++;
      if (run > longest) longest = run;
    } else run = 0;
  }
  return longest;
}

/** A code span for `s` (already collapsed and trimmed), with a fence longer than any run in it. */
export function codeSpan(s: string): string {
  if (!s.includes('`')) return '`' + s + '`';
  const fence = '`'.repeat(longestBacktickRun(s) + 1);
  const pad = s.startsWith('`') || s.endsWith('`') ? ' ' : '';
  return fence + pad + s + pad + fence;
}

/** The fence for a code block: at least three backticks, longer than any run inside. */
export function codeFence(s: string): string {
  return '`'.repeat(Math.max(3, longestBacktickRun(s) + 1));
}
