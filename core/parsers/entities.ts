/**
 * Entity decoding after a non-decoding parse (see `loadHtml`). Every text node and attribute
 * value holding `&` (recorded by the load handler as the page is parsed) is decoded in place by
 * the `entities` package — the decoder htmlparser2's own tokenizer runs — in the mode the
 * tokenizer would have used for it: attribute values in attribute mode (`&copy=` stays as is),
 * text in legacy mode (`&copy` without `;` decodes). Text of a raw-text element opened in HTML
 * content (`<script>`, `<style>`, `<xmp>`, `<iframe>`, `<noembed>`, `<noframes>`,
 * `<plaintext>`) is never decoded by the tokenizer and is left alone; inside `<svg>` or `<math>`
 * those elements are ordinary and their text is decoded. RCDATA (`<title>`, `<textarea>`) is
 * decoded like text. The result is the DOM of a decoding parse, checked node for node on every
 * captured page.
 */
import { DecodingMode, decodeHTML, decodeHTMLAttribute } from 'entities/decode';
import type { Element, Text } from 'domhandler';

/** Elements whose content the tokenizer reads as raw text, without entity decoding (in HTML content). */
const RAW_TEXT = new Set(['script', 'style', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext']);
/** Elements that open a foreign (SVG, MathML) context, and those that return to HTML inside one (htmlparser2's lists). */
const FOREIGN = new Set(['svg', 'math']);
const INTEGRATION = new Set(['mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml', 'foreignObject', 'desc', 'title']);

/** Strings of a non-decoding parse that hold `&`. */
export interface RawEntities {
  attrs: Array<{ el: Element; name: string }>;
  texts: Text[];
}

/** Whether the tokenizer read `text` raw: its parent is a raw-text element opened in HTML content. */
function isRawText(text: Text): boolean {
  const parent = text.parent;
  if (parent === null || !('name' in parent) || !RAW_TEXT.has(parent.name)) return false;
  for (let up = parent.parent; up !== null && 'name' in up; up = up.parent) {
    if (FOREIGN.has(up.name)) return false;
    if (INTEGRATION.has(up.name)) return true;
  }
  return true;
}

/** Decodes the recorded strings in place. Always succeeds (true); the boolean is kept for the loader's fallback contract. */
export function decodeInPlace(raw: RawEntities): boolean {
  for (const { el, name } of raw.attrs) el.attribs[name] = decodeHTMLAttribute(el.attribs[name]);
  for (const node of raw.texts) if (!isRawText(node)) node.data = decodeHTML(node.data, DecodingMode.Legacy);
  return true;
}
