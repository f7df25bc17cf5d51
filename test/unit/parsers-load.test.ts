/**
 * The DOM build (core/parsers/load.ts) tokenises with htmlparser2's tokenizer whose skip loop is
 * done by indexOf (`FastTokenizer`): on random markup soup (comments, CDATA, raw-text bodies,
 * odd attributes, entities, unterminated constructs) it must give, node for node, the stock
 * tokenizer's DOM, decoding entities or not.
 */
import { parseDocument } from 'htmlparser2';
import type { AnyNode } from 'domhandler';
import { describe, expect, test } from 'vitest';
import { FastTokenizer, leanHtml } from '../../core/parsers/load.js';
import { mulberry32 } from '../helpers/random.js';

function ser(n: AnyNode): string {
  if (n.type === 'text') return JSON.stringify(n.data);
  if (n.type === 'comment' || n.type === 'directive' || n.type === 'cdata') return `${n.type}(${'data' in n ? JSON.stringify(n.data) : ''})`;
  if ('attribs' in n) return `<${n.name} ${JSON.stringify(n.attribs)}>[${n.children.map(ser).join(',')}]`;
  return `${n.type}[${n.children.map(ser).join(',')}]`;
}

function soup(seed: number): string {
  const r = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const tags = ['div', 'p', 'span', 'a', 'li', 'td', 'tr', 'table', 'form', 'br', 'img', 'math', 'mi', 'svg', 'title', 'textarea', 'script', 'style', 'xmp', 'iframe', 'plaintext', 'noscript', 'option'];
  const attrs = [' id="x"', " class='k l'", ' title="a>b &amp; c"', ' href=/x?a=1&b=2', ' data-j=\'{"a":"<b>"}\'', ' disabled', ' =e', ' a="b"c=d', ' v = "w &copy x"', ' u=a"b', ' q="', '/'];
  const bits: string[] = [];
  for (let i = 0, n = 10 + Math.floor(r() * 100); i < n; i++) {
    const x = r();
    const tag = pick(tags);
    if (x < 0.4) bits.push(`<${r() < 0.1 ? tag.toUpperCase() : tag}${Array.from({ length: Math.floor(r() * 3) }, () => pick(attrs)).join('')}>`);
    else if (x < 0.65) bits.push(`</${tag}>`);
    else if (x < 0.85) bits.push(pick(['text', ' ', 'a &amp; b &lt;c&gt; &copy 1', '&notit; &#x41;', '<', '< b', '>', '"', '</ x>', '</>']));
    else bits.push(pick(['<!-- c -->', '<!-->', '<!--- a --!>', '<!DOCTYPE html>', '<?pi?>', '<!x>', '<![CDATA[ a < b ]]>', '<!-- unterminated', '<svg><path d="M0"/></svg>', '<script>if (a < b) x = "</div>";</script>']));
  }
  return bits.join('');
}

const both = (html: string, decodeEntities: boolean) => ({
  fast: ser(parseDocument(html, { decodeEntities, Tokenizer: FastTokenizer })),
  stock: ser(parseDocument(html, { decodeEntities })),
});

describe('FastTokenizer gives the DOM of the stock tokenizer', () => {
  test('400 pages of markup soup, raw and lean, decoding entities or not', () => {
    for (let seed = 1; seed <= 400; seed++) {
      const html = soup(seed);
      for (const page of [html, leanHtml(html)]) {
        for (const decode of [false, true]) {
          const { fast, stock } = both(page, decode);
          expect({ seed, decode, dom: fast }).toEqual({ seed, decode, dom: stock });
        }
      }
    }
  });

  test('long runs the skip covers: text, attribute values, end tags, comments, raw text', () => {
    const long = 'x'.repeat(5000);
    const html = `<div title="${long}" data-a='${long}'>${long}<!-- ${long} --></div  ${long}><p>${long}</p><script>${long}</script><!x ${long}>`;
    for (const decode of [false, true]) {
      const { fast, stock } = both(html, decode);
      expect(fast).toEqual(stock);
    }
  });
});
