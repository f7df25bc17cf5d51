/**
 * Code: inline `code`/`kbd`/`samp` spans and `pre` blocks (fenced, with the language taken
 * from a `language-x` / `lang-x` class on the `pre` or its `code`).
 */
import { codeFence, codeSpan, collapse } from './escape.js';
import { BLOCK_TAGS } from './tags.js';
import type { El, Node } from './tree.js';
import type { Writer } from './writer.js';

/** Text content, with `<br>` and block boundaries as newlines (for `pre`). */
function preText(nodes: readonly Node[], el: El, acc: string[]): void {
  for (let i = el.start; i < el.end; ) {
    const k = nodes[i];
    if (typeof k === 'string') {
      acc.push(k);
      i++;
      continue;
    }
    i = k.end;
    if (k.tag === 'br') {
      acc.push('\n');
    } else if (BLOCK_TAGS.has(k.tag)) {
      // Highlighters that wrap each line in a <div> rely on the block boundary for the newline.
      if (acc.length > 0 && !acc[acc.length - 1].endsWith('\n')) acc.push('\n');
      preText(nodes, k, acc);
      if (acc.length > 0 && !acc[acc.length - 1].endsWith('\n')) acc.push('\n');
    } else {
      preText(nodes, k, acc);
    }
  }
}

/** Plain text content of `el`, `<br>` as a space. */
function textOf(nodes: readonly Node[], el: El): string {
  let s = '';
  for (let i = el.start; i < el.end; i++) {
    const k = nodes[i];
    if (typeof k === 'string') s += k;
    else if (k.tag === 'br') s += ' ';
  }
  return s;
}

const LANG = /(?:^|\s)(?:language|lang)-([^\s]+)/;

function languageOf(nodes: readonly Node[], pre: El): string {
  const own = pre.attrs.cls;
  let m = own === undefined ? null : LANG.exec(own);
  if (m === null) {
    for (let i = pre.start; i < pre.end; ) {
      const k = nodes[i];
      if (typeof k === 'string') {
        i++;
        continue;
      }
      if (k.tag === 'code' && k.attrs.cls !== undefined) {
        m = LANG.exec(k.attrs.cls);
        break;
      }
      i = k.end;
    }
  }
  // A backtick would end the info string early.
  return m === null ? '' : m[1].replace(/`/g, '');
}

/** Writes `code`, `kbd`, `samp` as a code span; surrounding whitespace stays outside it. */
export function renderInlineCode(el: El, nodes: readonly Node[], w: Writer): void {
  const t = collapse(textOf(nodes, el));
  const body = t.trim();
  if (body === '') {
    if (t !== '') w.softSpace();
    return;
  }
  if (t.charCodeAt(0) === 32) w.softSpace();
  w.raw(codeSpan(body));
  if (t.charCodeAt(t.length - 1) === 32) w.softSpace();
}

/** Writes a `pre` as a fenced block, or as a code span when the writer is inline. */
export function renderPre(el: El, nodes: readonly Node[], w: Writer): void {
  const acc: string[] = [];
  preText(nodes, el, acc);
  let text = acc.join('');
  if (w.inline > 0) {
    const body = collapse(text).trim();
    if (body !== '') w.raw(codeSpan(body));
    return;
  }
  text = text.replace(/\r\n?/g, '\n');
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) lines[i] = lines[i].trimEnd();
  let a = 0;
  let b = lines.length;
  while (a < b && lines[a] === '') a++;
  while (b > a && lines[b - 1] === '') b--;
  if (a === b) return;
  const body = lines.slice(a, b);
  const fence = codeFence(text);
  body.unshift(fence + languageOf(nodes, el));
  body.push(fence);
  w.block(2);
  w.lines(body);
  w.block(2);
}
