/**
 * Entity decoding after the non-decoding parse (core/parsers/entities.ts, on the `entities`
 * package): `loadHtml` must give the DOM of a decoding parse, node for node, in every context
 * the tokenizer treats differently (text vs attribute mode, RCDATA, raw text, foreign content).
 */
import { parseDocument } from 'htmlparser2';
import type { AnyNode } from 'domhandler';
import { describe, expect, test } from 'vitest';
import { loadHtml, stripRawText } from '../../core/parsers/load.js';

function nodes(n: AnyNode, acc: string[] = []): string[] {
  if (n.type === 'text') acc.push(`text ${JSON.stringify(n.data)}`);
  else if ('attribs' in n) acc.push(`<${n.name}> ${JSON.stringify(n.attribs)}`);
  if ('children' in n) for (const c of n.children) nodes(c, acc);
  return acc;
}

/** What a decoding parse of the same (stripped) page gives. */
const decoding = (html: string) => nodes(parseDocument(stripRawText(html), { decodeEntities: true }));

const CASES: Record<string, string> = {
  'text, legacy references and numeric edge cases': '<p>a &amp; b &lt;c&gt; &copy 2024 &notin; &not it; &notit; &#x80; &#0; &#xD800; &#1114112; &bogus; & alone &amp</p>',
  'attributes: attribute mode (no legacy decoding before = or alphanumerics)': '<a href="/x?a=1&copy=2&amp;b=3&lt&notit" title="&notit; &quot;q&quot; &copy;">l</a>',
  'RCDATA is decoded': '<title>A &amp; B &copy</title><textarea>&lt;x&gt; &amp;</textarea>',
  'raw text is not': '<xmp>&amp;</xmp><iframe>&amp;lt;</iframe><noembed>&amp;</noembed><noframes>&amp;</noframes><noscript>&amp;</noscript><style>a{content:"&amp;"}</style>',
  'foreign content makes raw-text elements ordinary, an integration point makes them raw again': '<math><style>x &amp; y</style><mi><xmp>&amp;</xmp></mi></math>',
  'plaintext runs to the end raw': '<p>&amp;</p><plaintext>&amp; rest &lt;b&gt;',
  'only simple references (the old fast path)': '<a href="/s?q=a&amp;b=c&amp;d=&#39;e&#39;">x &amp; y &nbsp;z</a>',
};

describe('loadHtml decodes entities as a decoding parse does', () => {
  test.each(Object.entries(CASES))('%s', (_name, html) => {
    expect(nodes(loadHtml(html))).toEqual(decoding(html));
  });

  test('spot checks of the expected text', () => {
    const doc = nodes(loadHtml(`<p title="&copy=1&amp;x">&copy 1 &notit;</p><xmp>&amp;</xmp>`));
    expect(doc).toEqual(['<p> {"title":"&copy=1&x"}', 'text "© 1 ¬it;"', '<xmp> {}', 'text "&amp;"']);
  });
});
