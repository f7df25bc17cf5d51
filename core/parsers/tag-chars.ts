/**
 * The characters and names the tag scan (tag-scan.ts) tests, as htmlparser2's tokenizer (HTML
 * mode) reads them: its whitespace, `/`, `>`, `=` and quotes, ASCII letters, the raw-text
 * elements, and the two name matches the scan makes in the page itself. Pure.
 */

export const GT = 0x3e;
export const SLASH = 0x2f;
export const EQ = 0x3d;
export const DQ = 0x22;
export const SQ = 0x27;

export function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0c || c === 0x0d;
}

/** Character classes of the tag walk (ASCII): the tokenizer's whitespace, `/` and `>`, `=`. */
export const SPACE = 1;
export const END = 2;
export const EQ_CLASS = 4;
export const CLASS = new Uint8Array(128);
for (const c of [0x20, 0x0a, 0x09, 0x0c, 0x0d]) CLASS[c] = SPACE;
CLASS[SLASH] = END;
CLASS[GT] = END;
CLASS[EQ] = EQ_CLASS;

/** The tokenizer's end of a tag-name section: whitespace, `/` or `>`. */
export function isSectionEnd(c: number): boolean {
  return c === SLASH || c === GT || isSpace(c);
}

export function isAlpha(c: number): boolean {
  const l = c | 0x20;
  return l >= 0x61 && l <= 0x7a;
}

/** Elements whose body the tokenizer reads as text up to their own end tag (outside foreign content). */
export const SPECIAL: ReadonlySet<string> = new Set(['script', 'style', 'title', 'textarea', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext']);

/** Whether the attribute name at `at` is `name` (lower case), ignoring ASCII case as the Parser does. */
export function sameName(s: string, at: number, name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    const c = s.charCodeAt(at + i);
    if ((isAlpha(c) ? c | 0x20 : c) !== name.charCodeAt(i)) return false;
  }
  return true;
}

/** Index of the `</name` (any case, then whitespace, `/` or `>`) that ends a raw-text body, or -1. */
export function specialEnd(s: string, from: number, name: string): number {
  for (let i = s.indexOf('</', from); i >= 0; i = s.indexOf('</', i + 2)) {
    const after = i + 2 + name.length;
    if (after < s.length && isSectionEnd(s.charCodeAt(after)) && s.slice(i + 2, after).toLowerCase() === name) return i;
    if (after >= s.length) return -1;
  }
  return -1;
}
