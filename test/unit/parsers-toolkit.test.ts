import { selectAll } from 'css-select';
import type { AnyNode, Element } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { jsonAfter, rawJsonAfter, scriptBodies, scriptJsonById, valueEnd } from '../../core/parsers/embedded.js';
import { parseCount, parsePrice, parseRating } from '../../core/parsers/money.js';
import { all, loadHtml, stripRawText, text } from '../../core/parsers/dom.js';

describe('embedded JSON', () => {
  it('finds where a value ends past braces and quotes inside strings', () => {
    const text = `x = {"a":"};'","b":[1,{"c":"\\"}"}], 'd': \`}\`}; y`;
    expect(valueEnd(text, 4)).toBe(text.indexOf('; y'));
    expect(valueEnd('{"open": 1', 0)).toBe(-1);
    expect(valueEnd('nope', 0)).toBe(-1);
  });

  it('reads the value assigned after a marker, skipping markers without one', () => {
    const html = `<script>var ytInitialData;</script><script>var ytInitialData = {"a":"};x","n":[1,2]};</script>`;
    expect(jsonAfter(html, 'ytInitialData')).toEqual({ a: '};x', n: [1, 2] });
    expect(jsonAfter('window["state"] = [1, {"k": "v"}]', ['missing', 'window["state"]'])).toEqual([1, { k: 'v' }]);
    expect(rawJsonAfter('call({"x":1})', 'call')?.raw).toBe('{"x":1}');
    expect(jsonAfter('no marker here', 'ytInitialData')).toBeUndefined();
  });

  it('reads a blob that fills its script whole or is followed by more script alike', () => {
    const blob = { a: '</b>', n: [1, { c: '}' }] };
    const whole = `<script>var ytInitialData = ${JSON.stringify(blob)} ;\n</script><p>`;
    const more = `<script>var ytInitialData = ${JSON.stringify(blob)};var later = {"z": 1};</script>`;
    const literal = `<script>var ytInitialData = {a: 1};</script><script>ytInitialData = {"b": 2};</script>`;
    // A script ending in a brace that is not the blob's: the walk delimits the blob.
    const braced = `<script>var ytInitialData = {"x": 1}; if (a) {b()}</script>`;
    expect(jsonAfter(whole, 'ytInitialData')).toEqual(blob);
    expect(jsonAfter(more, 'ytInitialData')).toEqual(blob);
    expect(jsonAfter(literal, 'ytInitialData')).toEqual({ b: 2 });
    expect(jsonAfter(braced, 'ytInitialData')).toEqual({ x: 1 });
    expect(rawJsonAfter(whole, 'ytInitialData')?.raw).toBe(JSON.stringify(blob));
  });

  it('reads scripts by id and by type', () => {
    const html = `<script id="__NEXT_DATA__" type="application/json"> {"props":{"p":1}} </script>` +
      `<script type="application/ld+json">{"@type":"Product"}</script><script>var a = 1;</script>`;
    expect(scriptJsonById(html, '__NEXT_DATA__')).toEqual({ props: { p: 1 } });
    expect(scriptJsonById(html, 'absent')).toBeUndefined();
    expect(scriptBodies(html)).toEqual(['{"@type":"Product"}']);
  });
});

describe('money', () => {
  it('normalises displayed prices with the ISO code and the symbol shown', () => {
    expect(parsePrice('1.299,00 €')).toEqual({ text: '1.299,00 €', amount: 1299, currency: 'EUR', symbol: '€' });
    expect(parsePrice('$1,299.99')).toEqual({ text: '$1,299.99', amount: 1299.99, currency: 'USD', symbol: '$' });
    expect(parsePrice('AED330.00')).toEqual({ text: 'AED330.00', amount: 330, currency: 'AED', symbol: 'AED' });
    expect(parsePrice('AED\u00a025.00')).toEqual({ text: 'AED 25.00', amount: 25, currency: 'AED', symbol: 'AED' });
    expect(parsePrice('R$ 1.234,56')?.amount).toBe(1234.56);
    expect(parsePrice('$20', 'CAD')?.currency).toBe('CAD');
    expect(parsePrice('199 kr', 'SEK')).toEqual({ text: '199 kr', amount: 199, currency: 'SEK', symbol: 'kr' });
    expect(parsePrice('Currently unavailable.')).toBeNull();
  });

  it('reads counts and ratings as shown', () => {
    expect(parseCount('1.2K ratings')).toBe(1200);
    expect(parseCount('12,345 ratings')).toBe(12345);
    expect(parseCount('1.234 Bewertungen')).toBe(1234);
    expect(parseCount('3 600 000 views')).toBe(3600000);
    expect(parseCount('no number')).toBeNull();
    expect(parseRating('4.5 out of 5 stars')).toBe(4.5);
    expect(parseRating('4,5 von 5 Sternen')).toBe(4.5);
  });
});

describe('page loading', () => {
  it('steps over HTML inside attribute values instead of stripping from a <style> found there', () => {
    const html = `<div data-cfg="{&quot;html&quot;:&quot;<head><title></title><style>x</style>" id="a">A</div>` +
      `<style>.b{}</style><div id="b" title='<script>'>B</div><script>var s;</script><p>C</p>`;
    expect(stripRawText(html)).toBe(
      `<div data-cfg="{&quot;html&quot;:&quot;<head><title></title><style>x</style>" id="a">A</div>` +
        `<style></style><div id="b" title='<script>'>B</div><script></script><p>C</p>`,
    );
    const doc = loadHtml(html);
    expect(all('#a, #b, p', doc).map((el) => text(el))).toEqual(['A', 'B', 'C']);
  });
});

describe('page-wide class queries', () => {
  // Class queries read the class values recorded by the load (values holding `&` from `attribs`,
  // after entity decoding); groups with a few matches are put in page order without the position map.
  it('answer as css-select does: entities, repeated class attributes, odd spacing, several groups', () => {
    const html =
      '<div class="a b" id="1"></div><div class="x&amp;y b" id="2"></div><div class="c" class="b" id="3"></div>' +
      '<p class=" b\tc " id="4"></p><span class="bb" id="5"></span><i class="&#98;" id="6"></i><div class="b" id="7"><b class="a" id="8"></b></div>';
    const doc = loadHtml(html);
    const ids = (sel: string) => all(sel, doc).map((el) => el.attribs.id);
    const expected = (sel: string) => selectAll<AnyNode, Element>(sel, parseDocument(html)).map((el) => el.attribs.id);
    for (const sel of ['.b', '.x&y', '.c', '.a', '.bb', 'div.b', '.c, .a', '.a, #5, .x&y', 'b, .c, i']) expect(ids(sel)).toEqual(expected(sel));
  });
});
