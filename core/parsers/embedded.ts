/**
 * JSON embedded in a page's scripts: state blobs (`var ytInitialData = {...};`,
 * `window.__INITIAL_STATE__ = {...}`, `<script id="__NEXT_DATA__">`), found with a scan that
 * knows where a JSON value ends — strings, escapes and nesting — instead of a regex that stops
 * at the first `};` inside a string. Pure, no I/O; never throws.
 */

const OPEN = 0x7b; // {
const CLOSE = 0x7d; // }
const OPEN_SQ = 0x5b; // [
const CLOSE_SQ = 0x5d; // ]
const QUOTE = 0x22; // "
const APOS = 0x27; // '
const BACKTICK = 0x60; // `
const BACKSLASH = 0x5c;

/**
 * Index just past the balanced object or array that opens at `start` (`{` or `[`), or -1 when
 * it does not close. Strings in double, single and back quotes are skipped with their escapes,
 * so the scan also walks JavaScript object literals (whose values the caller may not be able
 * to `JSON.parse`).
 */
export function valueEnd(text: string, start: number): number {
  const first = text.charCodeAt(start);
  if (first !== OPEN && first !== OPEN_SQ) return -1;
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE || c === APOS || c === BACKTICK) {
      i = stringEnd(text, i, c);
      if (i < 0) return -1;
    } else if (c === OPEN || c === OPEN_SQ) {
      depth++;
    } else if (c === CLOSE || c === CLOSE_SQ) {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** Index of the closing quote of the string opening at `start`, or -1. */
function stringEnd(text: string, start: number, quote: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === quote) return i;
  }
  return -1;
}

/** `JSON.parse` that answers undefined instead of throwing. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The raw text of the first object or array after `marker` (searching from `from`), where only
 * whitespace and the punctuation of an assignment or call (`=`, `:`, `(`) may stand between the
 * marker and the value. Undefined when the marker is absent or no value follows it.
 */
export function rawJsonAfter(text: string, marker: string, from = 0): { raw: string; end: number } | undefined {
  const hit = valueAfter(text, marker, from, false);
  return hit && { raw: hit.raw, end: hit.end };
}

/** `rawJsonAfter`, and with `parse` the value when the raw text is JSON (undefined when it is not). */
function valueAfter(text: string, marker: string, from: number, parse: boolean): { raw: string; end: number; value: unknown } | undefined {
  let at = text.indexOf(marker, from);
  while (at >= 0) {
    let i = at + marker.length;
    while (i < text.length && /[\s=:(]/.test(text[i] as string)) i++;
    if (parse) {
      const whole = wholeScriptValue(text, i);
      if (whole) return whole;
    }
    const end = valueEnd(text, i);
    if (end > 0) {
      const raw = text.slice(i, end);
      return { raw, end, value: parse ? parseJson(raw) : undefined };
    }
    at = text.indexOf(marker, at + marker.length);
  }
  return undefined;
}

/**
 * The common case of a state blob, `= {...};</script>`, without the walk that finds where the
 * value ends (a quarter of a video page's parse; `JSON.parse` walks the same bytes again): when
 * the script's rest, up to its `;` and `</script>`, parses as JSON, that is the value `valueEnd`
 * would have delimited, as a JSON text closes where its brackets balance. Otherwise undefined,
 * and the caller walks.
 */
function wholeScriptValue(text: string, start: number): { raw: string; end: number; value: unknown } | undefined {
  const open = text.charCodeAt(start);
  if (open !== OPEN && open !== OPEN_SQ) return undefined;
  const close = text.indexOf('</script>', start);
  if (close < 0) return undefined;
  let end = close;
  while (end > start && /[\s;]/.test(text[end - 1] as string)) end--;
  if (text.charCodeAt(end - 1) !== (open === OPEN ? CLOSE : CLOSE_SQ)) return undefined;
  const raw = text.slice(start, end);
  const value = parseJson(raw);
  return value === undefined ? undefined : { raw, end, value };
}

/** The parsed JSON value after the first of `markers` that has one (see `rawJsonAfter`). */
export function jsonAfter(text: string, markers: string | readonly string[]): unknown {
  return jsonHitAfter(text, markers)?.value;
}

/** `jsonAfter` with the value's raw text (a caller may search that instead of the whole page). */
export function jsonHitAfter(text: string, markers: string | readonly string[]): { value: unknown; raw: string } | undefined {
  for (const marker of typeof markers === 'string' ? [markers] : markers) {
    let from = 0;
    for (;;) {
      const hit = valueAfter(text, marker, from, true);
      if (!hit) break;
      if (hit.value !== undefined) return { value: hit.value, raw: hit.raw };
      from = hit.end;
    }
  }
  return undefined;
}

/**
 * The JSON text of `<script ... id="<id>" ...>` (such as `__NEXT_DATA__`), parsed; undefined
 * when absent or not JSON.
 */
export function scriptJsonById(html: string, id: string): unknown {
  const re = new RegExp(`<script\\b[^>]*\\bid=["']?${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}["']?[^>]*>`, 'i');
  const m = re.exec(html);
  if (!m) return undefined;
  const start = m.index + m[0].length;
  const end = html.indexOf('</script>', start);
  return end < 0 ? undefined : parseJson(html.slice(start, end).trim());
}

/**
 * Every `<script>` body of a page whose `type` is one of `types` (default: JSON-LD), in page
 * order. Cheap on large pages: a string scan, not a DOM.
 */
export function scriptBodies(html: string, types: readonly string[] = ['application/ld+json']): string[] {
  const out: string[] = [];
  const re = /<script\b([^>]*)>/gi;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(m[1] as string)?.[1]?.toLowerCase();
    const start = m.index + m[0].length;
    const end = html.indexOf('</script>', start);
    if (end < 0) break;
    if (type !== undefined && types.includes(type)) out.push(html.slice(start, end));
    re.lastIndex = end;
  }
  return out;
}
