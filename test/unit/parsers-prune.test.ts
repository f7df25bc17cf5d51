/**
 * The page cut (core/parsers/prune.ts, tag-scan.ts): the DOM of a cut page must be the full
 * page's DOM restricted to the kept elements (whole), the shells and the ancestors of both
 * (start tags only), node for node, whatever the markup does to the tree: implied closes, stray
 * end tags, void and self-closed elements, the ignored nested form, foreign content, raw-text
 * and RCDATA bodies, odd attributes. The expected tree is derived from htmlparser2's own full
 * parse, so these tests also hold the scanner to htmlparser2's tokenizer.
 */
import type { AnyNode, Element } from 'domhandler';
import { describe, expect, test } from 'vitest';
import { leanDom, leanHtml, loadHtml } from '../../core/parsers/load.js';
import { StripTracker } from '../../core/parsers/lean.js';
import { MAX_TREE_DEPTH } from '../../core/parsers/depth.js';
import { loadPruned, prunedHtml, type Keep } from '../../core/parsers/prune.js';
import type { TagAttributes } from '../../core/parsers/tag-cursor.js';
import { mulberry32 } from '../helpers/random.js';

function ser(n: AnyNode): string {
  if (n.type === 'text') return JSON.stringify(n.data);
  if (n.type === 'comment') return `<!--${n.data}-->`;
  if ('attribs' in n) return `<${n.name} ${JSON.stringify(n.attribs)}>[${n.children.map(ser).join(',')}]`;
  return n.type;
}

const isElement = (n: AnyNode): n is Element => n.type === 'tag' || n.type === 'script' || n.type === 'style';

/** Watched attributes read off a DOM element, for `Keep.test` on the full tree. */
function domAttrs(el: Element): TagAttributes {
  return { get: (name: string) => el.attribs[name], has: (name: string) => el.attribs[name] !== undefined } as TagAttributes;
}

/** The full DOM restricted as the cut should be. */
function restricted(nodes: AnyNode[], keep: Keep, within: readonly string[]): string[] {
  const out: string[] = [];
  for (const n of nodes.filter(isElement)) {
    const v = keep.test(n.name, domAttrs(n), within);
    if (v === true) {
      out.push(ser(n));
      continue;
    }
    const inner = restricted(n.children, keep, typeof v === 'string' ? [...within, v] : within);
    if (inner.length > 0 || typeof v === 'string') out.push(`<${n.name} ${JSON.stringify(n.attribs)}>[${inner.join(',')}]`);
  }
  return out;
}

function cutTree(html: string, keep: Keep): string[] | null {
  const cut = prunedHtml(leanHtml(html), keep);
  return cut ? leanDom(cut.html).children.filter(isElement).map(ser) : null;
}

const byId: Keep = { attrs: ['id'], test: (_tag, a) => a.has('id') };
const byClass: Keep = { attrs: ['class'], test: (_tag, a) => /\bk\b/.test(a.get('class') ?? '') };
const shells: Keep = {
  attrs: ['id', 'class'],
  test: (tag, a, within) => (a.get('class') === 'shell' ? 'box' : within.includes('box') ? tag === 'b' || a.get('class') === 'k' : a.get('id') === 'x'),
};
const tagged: Keep = { attrs: [], test: (tag) => tag === 'img' || tag === 'p' || tag === 'br' || tag === 'li' || tag === 'td' || tag === 'form' };

const PAGES: Record<string, string> = {
  'implied closes': '<div><p id="x">one<div id="d">two</div><p>three<h2 id="h">four</h2><ul><li id="a">1<li id="b">2<li class="k">3</ul><table><tr id="r"><td>1<td class="k">2<tr><td id="c">3</table><dl><dt id="t">a<dd class="k">b<dt>c</dl><select><option id="o">1<option class="k">2</select></div>',
  'stray and mismatched end tags': '<div id="a"><span id="b">x</div>y</span><p id="c">z</p></p><div><span class="k">q</section>r</div></div>tail</i><b id="e">e</br></b>',
  'an end tag closing a kept element from outside': '<section><div id="a"><span>open</section><div id="b">after</div>',
  'void and self-closed elements': '<div><img id="i" src="a.png"><br id="br"><input class="k" value=1><hr id="hr"><div id="sc"/>inside<span/>also</div><image id="alias">',
  'nested forms are ignored by the parser': '<form id="f1"><div><form id="f2" class="k"><input id="in"></form><p id="after">p</p></div></form><form id="f3"><span class="k">s</span></form>',
  'foreign content': '<div id="d"><math id="m"><mi id="mi"><b class="k">x</b></mi><mo id="mo"/><mrow><mn id="mn">1</mn></mrow></math><svg id="s"><path id="p"/></svg><span id="s2">after</span></div>',
  'raw text and RCDATA bodies': '<title id="t"><div id="not">a</div></title><textarea class="k"></textarea><div id="x"></div></textarea><xmp><b id="no">x</b></xmp><noscript id="ns"><b id="yes">n</b></noscript><iframe><p id="nope"></p></iframe><script id="sc">var a = "<div id=q>";</script><style>.a{}</style><div id="last">l</div>',
  'odd attributes': `<div id="a" title='it"s > that' data-x=a>b class="k">1</div><div ID="B" Class="K k" id="dup">2</div><div id = "sp" class = k>3</div><div =odd id=u/v class=k>4</div><div id="&#120;&amp;y" class="k&#32;z">5</div><div id></div><div a"b="c" id="q">6</div>`,
  'comments, doctype and bogus markup': '<!DOCTYPE html><!-- <div id="c1"> --><div id="a"><!-->x<!--->y<!--- a -- b --!>z<?xml v?><!x><div id="b"></ div><//x></div></div><! ><p class="k">p</p>',
  'text around kept elements, and attributes with entities': '<p>a &amp; b <span id="s">c &copy; d</span> e <a href="/x?a=1&amp;b=2" class="k">f &lt; g</a></p>',
  'unclosed at the end of input': '<div id="a"><p class="k">one<div><span id="b">two',
  'uppercase and mixed-case tags': '<DIV ID="A"><P CLASS="k">x</P><Span id="s">y</SPAN><SCRIPT>a</SCRIPT><Title>t</TITLE></DIV>',
  'shells: nested, empty, void, kept content': '<div class="shell" id="x1"><p>no<b>yes</b></p><div class="shell"><i class="k">k</i><u>u</u></div><div class="shell"></div><img class="shell"></div><div id="x"><div class="shell">in kept</div></div>',
  'raw-text elements in foreign content are ordinary': '<math id="m"><title><b id="x">t</b></title><style><i id="y" class="k">s</i></style><mi><style><b id="z">raw</b></style></mi></math><p id="after">a</p>',
  'plaintext runs to the end': '<div id="a">x</div><plaintext><div id="b">not a tag</div>',
  'raw-text end tags in other cases and with attributes': '<SCRIPT>a</script ><style>b</STYLE x="y"><textarea>c</textareax></textarea/><div id="a" class="k">d</div>',
  'deeper than the depth cap': '<div id="top">' + '<div>'.repeat(600) + '<p class="k">a<span id="s">b</span></p><form id="f"><form class="k"></form></form><svg id="v"><g class="k"/></svg><li id="l">c<li class="k">d' + '</div>'.repeat(300) + '<b id="after">e</b>' + '</div>'.repeat(301),
  'tables and lists by tag': '<table><tr><td>1</td><td><p>a<p>b</td></tr></table><ul><li>a<li>b<ol><li>c</ol></ul><form><form><p>x</p></form></form><br></br></p>',
};

describe('the cut page is the full DOM restricted to what is kept', () => {
  for (const [name, html] of Object.entries(PAGES)) {
    test.each([
      ['ids', byId],
      ['classes', byClass],
      ['shells', shells],
      ['tags', tagged],
    ] as const)(`${name}, keeping by %s`, (_k, keep) => {
      expect(cutTree(html, keep)).toEqual(restricted(loadHtml(html).children, keep, []));
    });
  }
});

/** Markup soup: every construct above, in random order and nesting (mostly unbalanced). */
function soup(seed: number): string {
  const r = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const tags = ['div', 'p', 'span', 'b', 'li', 'ul', 'table', 'tr', 'td', 'th', 'tbody', 'form', 'select', 'option', 'h1', 'h2', 'dd', 'dt', 'a', 'br', 'img', 'input', 'hr', 'math', 'mi', 'svg', 'title', 'textarea', 'script', 'style', 'xmp', 'noscript', 'button', 'image', 'section'];
  const attrs = [' id="x"', ' id=y', " class='k'", ' class="k z"', ' class=shell', ' title="a>b"', " data-q='\"'", ' id="&#120;"', ' ID="x"', ' disabled', ' a="b"c=d', ' =e', '/', ' / '];
  const bits: string[] = [];
  for (let i = 0, n = 20 + Math.floor(r() * 80); i < n; i++) {
    const x = r();
    const tag = pick(tags);
    if (x < 0.45) bits.push(`<${r() < 0.1 ? tag.toUpperCase() : tag}${Array.from({ length: Math.floor(r() * 3) }, () => pick(attrs)).join('')}${r() < 0.1 ? '/' : ''}>`);
    else if (x < 0.75) bits.push(`</${tag}${r() < 0.1 ? ' x' : ''}>`);
    else if (x < 0.9) bits.push(pick(['text', ' ', 'a &amp; b', '<', '< b', '>', '"', "'"]));
    else bits.push(pick(['<!-- c -->', '<!-->', '<!DOCTYPE html>', '<?pi?>', '<!x>', '</ x>', '</>', '<!--- a --!>']));
  }
  return bits.join('');
}

describe('random markup soup', () => {
  test('around the depth cap (core/parsers/depth.ts): 60 pages whose soup starts just below it', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const html = '<div>'.repeat(MAX_TREE_DEPTH - 1 - (seed % 12)) + soup(seed) + '<section>'.repeat(seed % 5) + soup(seed + 1000);
      for (const keep of [byId, byClass, shells, tagged]) {
        const got = cutTree(html, keep);
        if (got === null) continue;
        expect({ seed, tree: got }).toEqual({ seed, tree: restricted(loadHtml(html).children, keep, []) });
      }
    }
  });

  test('300 pages, four ways of keeping', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const html = soup(seed);
      for (const keep of [byId, byClass, shells, tagged]) {
        const got = cutTree(html, keep);
        // An unterminated start tag at the end is left to the full parse.
        if (got === null) continue;
        expect({ seed, tree: got }).toEqual({ seed, tree: restricted(loadHtml(html).children, keep, []) });
      }
    }
  });
});

/**
 * Pages as real ones are written (scripts, styles and SVG with markup inside, comments around
 * markup, odd but common attributes, data: URIs in attributes): the raw page is scanned as its
 * lean page in one walk (`StripTracker`), which must not give up on them.
 */
function page(seed: number): string {
  const r = mulberry32(seed * 7919);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const tags = ['div', 'p', 'span', 'b', 'li', 'ul', 'table', 'tr', 'td', 'form', 'option', 'select', 'h1', 'a', 'br', 'img', 'input', 'math', 'mi', 'section', 'dd', 'dt'];
  const uri = `data:image/png;base64,${'A'.repeat(210)}`;
  const attrs = [' id="x"', ' id=y', " class='k'", ' class="k z"', ' class=shell', ' title="a>b"', " t='<script>x</script>'", ' d="<!-- c -->"', ' disabled', ' a="b"c=d', ' u=a=b', ` src='${uri}'`, ' v = "w>"'];
  const bits: string[] = [];
  for (let i = 0, n = 10 + Math.floor(r() * 100); i < n; i++) {
    const x = r();
    const tag = pick(tags);
    if (x < 0.4) bits.push(`<${r() < 0.1 ? tag.toUpperCase() : tag}${Array.from({ length: Math.floor(r() * 3) }, () => pick(attrs)).join('')}>`);
    else if (x < 0.65) bits.push(`</${tag}>`);
    else if (x < 0.8) bits.push(pick(['text', ' ', 'a &amp; b', '< b', '>', `(${uri} y`, '<title>t</title>', '<textarea>plain</textarea>']));
    else bits.push(pick(['<!-- c -->', '<!-- <div id=x class=k> -->', '<!-- a --!> <b id=x> -->', '<!DOCTYPE html>', '<script>var a = "<div id=x>";</script>', '<SCRIPT type="x">if (a<b) "</div>"</SCRIPT>', '<style>.a{}</style>', '<svg viewBox="0"><b id="x" class="k">in svg</b><path d="M0"/></svg>', '<svg/>', '<noscript><b id=x>ns</b></noscript>']));
  }
  return bits.join('');
}

describe('the raw page scanned as its lean page', () => {
  test('300 pages, four ways of keeping: one walk, and the same DOM', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const html = page(seed);
      for (const keep of [byId, byClass, shells, tagged]) {
        expect({ seed, oneWalk: prunedHtml(html, keep, new StripTracker()) !== null }).toEqual({ seed, oneWalk: true });
        const doc = loadPruned(html, keep);
        expect({ seed, tree: doc && doc.children.filter(isElement).map(ser) }).toEqual({ seed, tree: restricted(loadHtml(html).children, keep, []) });
      }
    }
  });

  test.each([
    ['markup inside an end tag', '<div id="x">a</div <!-- b -->><p id="y">c</p>'],
    ['a comment strip ends at --> and the tokenizer at --!>', '<!-- a --!> <div id="x">in</div> --><p id="y">p</p>'],
    ['an = strip reads as a value', '<div id="x" a=b="c>d">e</div><p id="y">f</p>'],
    ['a control character before a quote', '<div id="x" a=\x0b"c>d">e</div><p id="y">f</p>'],
    ['markup in a raw-text body', '<textarea id="x"><!-- </textarea> --></textarea><p id="y">f</p>'],
    ['a self-closed script over markup', '<script src="a"/><p id="x">not a p</p></script><p id="y">p</p>'],
    ['an unclosed comment', '<p id="x">a</p><!-- <p id="y">b</p>'],
    ['an unclosed script', '<p id="x">a</p><script>var a; <p id="y">b</p>'],
    ['a script closed in another case', '<script>a</SCRIPT><p id="x">b</p></script><p id="y">c</p>'],
    ['a data: URI joined across a removed comment', `<p id="x" title="a<!-- c -->data:x/${'a'.repeat(250)}">b</p>`],
  ])('where the walks could part (%s): the page is stripped first, and the DOM is the same', (_name, html) => {
    expect(loadPruned(html, byId)?.children.filter(isElement).map(ser)).toEqual(restricted(loadHtml(html).children, byId, []));
  });
});

describe('what the scan leaves to the full parse', () => {
  test('CDATA and input ending inside a start tag give no cut', () => {
    expect(prunedHtml('<div id="a"><![CDATA[x]]></div>', byId)).toBeNull();
    expect(prunedHtml('<div id="a">x</div><span id="b" title="open', byId)).toBeNull();
    expect(prunedHtml('<div id="a">x</div><span', byId)).not.toBeNull();
  });

  test('nothing kept: an empty cut', () => {
    expect(prunedHtml('<div><p>x</p></div>', byId)).toEqual({ html: '', kept: 0 });
  });
});

describe('inline data: URIs', () => {
  const uri = `data:image/png;base64,${'A'.repeat(300)}`;
  test.each([
    ['in attribute values', `<div id="a"><img src="${uri}"><i style="background:url(${uri})">x</i></div><div id="b" title='${uri}'></div>`],
    ['running across markup (the whole-page way)', `<div id="a">(${uri}<b id="b">x</b>y</div><p id="c">z</p>`],
  ])('%s: the same DOM as the full load', (_name, html) => {
    const doc = loadPruned(html, byId);
    expect(doc && doc.children.filter(isElement).map(ser)).toEqual(restricted(loadHtml(html).children, byId, []));
  });
});
