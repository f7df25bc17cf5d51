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
import { soup } from '../helpers/markup.js';

function ser(n: AnyNode): string {
  if (n.type === 'text') return JSON.stringify(n.data);
  if (n.type === 'comment' || n.type === 'directive' || n.type === 'cdata') return `${n.type}(${'data' in n ? JSON.stringify(n.data) : ''})`;
  if ('attribs' in n) return `<${n.name} ${JSON.stringify(n.attribs)}>[${n.children.map(ser).join(',')}]`;
  return `${n.type}[${n.children.map(ser).join(',')}]`;
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
