/**
 * Entity decoding after a non-decoding parse (see `loadHtml`). Every text node and attribute
 * value holding `&` (recorded by the load handler as the page is parsed) is re-tokenised by
 * htmlparser2 itself, in one batch document, in the same context it had on the page: attribute
 * values inside an attribute, text inside an `<i>` (or inside its own parent tag when that tag
 * is a raw-text or RCDATA element, whose content the tokenizer treats differently). The decoded
 * strings are written back in place. Reusing the tokenizer keeps the decoding rules (legacy
 * entities, attribute mode) exactly those of a decoding parse; anything that cannot be wrapped
 * faithfully makes the caller fall back to a decoding parse.
 */
import { parseDocument } from 'htmlparser2';
import type { Element, Text } from 'domhandler';

/** Elements whose content the tokenizer reads as raw text or RCDATA. */
const SPECIAL = new Set(['script', 'style', 'title', 'textarea', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext', 'noscript']);

/** Strings of a non-decoding parse that hold `&`. */
export interface RawEntities {
  attrs: Array<{ el: Element; name: string }>;
  texts: Text[];
}

/** References whose decoding does not depend on what follows them or on text vs attribute mode. */
const SIMPLE: Readonly<Record<string, string>> = {
  '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&apos;': "'", '&nbsp;': '\u00a0',
  '&#39;': "'", '&#x27;': "'", '&#34;': '"', '&#x22;': '"', '&#38;': '&', '&#x26;': '&', '&#60;': '<', '&#62;': '>',
};

/**
 * Most `&` on result pages start `&amp;` in link URLs: those strings are decoded here directly.
 * Null when some `&` starts anything else (bare `&`, other entities): the tokenizer decides those.
 */
function decodeSimple(s: string): string | null {
  let out = '';
  let pos = 0;
  for (let i = s.indexOf('&'); i >= 0; i = s.indexOf('&', pos)) {
    const semi = s.indexOf(';', i + 2);
    if (semi < 0 || semi - i > 6) return null;
    const ch = SIMPLE[s.slice(i, semi + 1)];
    if (ch === undefined) return null;
    out += s.slice(pos, i) + ch;
    pos = semi + 1;
  }
  return out + s.slice(pos);
}

/** Decodes the recorded strings in place; false (nothing changed) when one cannot be re-tokenised faithfully. */
export function decodeInPlace(raw: RawEntities): boolean {
  // Index i < attrs.length is an attribute value, the rest are text nodes.
  const n = raw.attrs.length;
  const total = n + raw.texts.length;
  const out: Array<string | null> = new Array<string | null>(total);
  const slow: number[] = [];
  const parts: string[] = [];
  for (let i = 0; i < total; i++) {
    const attr = i < n ? raw.attrs[i] : null;
    const node = i < n ? null : raw.texts[i - n];
    const v = attr ? attr.el.attribs[attr.name] : node!.data;
    const parent = node ? node.parent : null;
    const special = parent !== null && 'name' in parent && SPECIAL.has(parent.name);
    // Raw-text elements (script, xmp, noscript...) are not decoded at all: the tokenizer decides.
    out[i] = special ? null : decodeSimple(v);
    if (out[i] !== null) continue;
    slow.push(i);
    if (attr) {
      const q = v.indexOf('"') < 0 ? '"' : v.indexOf("'") < 0 ? "'" : null;
      if (q === null) return false;
      parts.push(`<i a=${q}${v}${q}></i>`);
    } else {
      const wrap = special ? (parent as Element).name : 'i';
      if (wrap === 'plaintext' || v.toLowerCase().includes(`</${wrap}`)) return false;
      parts.push(`<${wrap}>${v}</${wrap}>`);
    }
  }
  if (parts.length > 0) {
    const batch = parseDocument(parts.join(''), { decodeEntities: true }).children;
    if (batch.length !== parts.length) return false;
    for (let k = 0; k < batch.length; k++) {
      const w = batch[k];
      if (w.type !== 'tag' && w.type !== 'script' && w.type !== 'style') return false;
      const i = slow[k];
      if (i < n) {
        const v = w.attribs.a;
        if (v === undefined) return false;
        out[i] = v;
      } else {
        if (w.children.length !== 1 || w.children[0].type !== 'text') return false;
        out[i] = (w.children[0] as Text).data;
      }
    }
  }
  // Written back only once every string decoded, so a fallback never sees a half-decoded DOM.
  for (let i = 0; i < n; i++) raw.attrs[i].el.attribs[raw.attrs[i].name] = out[i]!;
  for (let i = n; i < total; i++) raw.texts[i - n].data = out[i]!;
  return true;
}
