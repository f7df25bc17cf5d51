/**
 * Deeply nested pages (issue 24 A): every parse of a page caps its tree at MAX_TREE_DEPTH
 * (core/parsers/depth.ts), so the DOM build, the Markdown tree, the page cut and the walks over
 * them cost a constant per tag. A page of n nested `<div>`s used to parse in O(n²) (htmlparser2
 * keeps its open elements top-first) and overflow every recursive walk.
 */
import type { AnyNode, Document, Element } from 'domhandler';
import { describe, expect, test } from 'vitest';
import { htmlToMarkdown } from '../../core/markdown/index.js';
import { MAX_TREE_DEPTH, parseDocumentCapped } from '../../core/parsers/depth.js';
import { all, loadHtml, text } from '../../core/parsers/dom.js';
import { loadPruned, prunedHtml } from '../../core/parsers/prune.js';
import { parsePage, TARGET_ROUTES } from '../../core/targets/index.js';

const deep = (n: number, inner = 'x') => '<p>' + '<div>'.repeat(n) + inner + '</div>'.repeat(n);

/** The deepest element's depth and the element count, by an explicit stack (no recursion). */
function shape(doc: Document): { depth: number; elements: number } {
  let depth = 0;
  let elements = 0;
  const stack: [AnyNode, number][] = doc.children.map((c) => [c, 1]);
  while (stack.length > 0) {
    const [node, d] = stack.pop()!;
    if (node.type !== 'tag') continue;
    elements++;
    depth = Math.max(depth, d);
    for (const c of node.children) stack.push([c, d + 1]);
  }
  return { depth, elements };
}

describe('the DOM of a deeply nested page', () => {
  test('is capped at MAX_TREE_DEPTH, keeps every element and the text', () => {
    const n = 320_000;
    const doc = loadHtml(deep(n));
    // p + n divs: the divs past the cap are empty elements beside the deepest one.
    expect(shape(doc)).toEqual({ depth: MAX_TREE_DEPTH, elements: n + 1 });
    expect(text(doc)).toBe('x');
    expect(all('div', doc)).toHaveLength(n);
  });

  test('is the same DOM as before up to the cap', () => {
    const html = '<p>' + '<div class="a">'.repeat(MAX_TREE_DEPTH - 2) + '<span>x</span>' + '</div>'.repeat(MAX_TREE_DEPTH - 2) + '<b>after</b>';
    const doc = loadHtml(html);
    // p, the divs, the span (at the cap, holding its text one level below), b.
    expect(shape(doc)).toEqual({ depth: MAX_TREE_DEPTH - 1, elements: MAX_TREE_DEPTH + 1 });
    const span = all('span', doc)[0] as Element;
    expect((span.parent as Element).name).toBe('div');
    expect(text(span)).toBe('x');
    // The end tags closed what they opened: `after` is back at the top level.
    expect((all('b', doc)[0] as Element).parent?.type).toBe('root');
  });

  test('past the cap a start tag is an empty element and what follows lands beside it', () => {
    const html = '<div>'.repeat(MAX_TREE_DEPTH - 1) + '<section id="s"><i>in</i></section><b>next</b>';
    const doc = loadHtml(html);
    const section = all('#s', doc)[0] as Element;
    expect(section.children).toHaveLength(0);
    const i = all('i', doc)[0] as Element;
    expect(i.parent).toBe(section.parent);
    expect(shape(doc).depth).toBe(MAX_TREE_DEPTH);
    // section is a block, so its (empty) box still separates; i and b are inline.
    expect(text(doc)).toBe('innext');
  });

  test('the text of every ancestor is read without walking the page again', () => {
    const n = 100_000;
    const doc = loadHtml(deep(n, '<span>x</span>'));
    // What a parser reading the text near an anchor does: 400 elements, outermost first. The
    // first MAX_TREE_DEPTH - 1 divs hold everything after them; the rest are empty.
    const divs = all('div', doc);
    expect(divs.slice(0, 400).map((d) => text(d))).toEqual(divs.slice(0, 400).map(() => 'x'));
    expect(divs.slice(MAX_TREE_DEPTH - 1, MAX_TREE_DEPTH - 1 + 400).map((d) => text(d))).toEqual(divs.slice(0, 400).map(() => ''));
  });

  test('text collapses whitespace across element boundaries as one walk did', () => {
    const doc = loadHtml('<div> a <b> b\u00a0</b>\n<i>\u200e c</i><p>d</p>e<script>no</script>' + '<u>'.repeat(40) + ' f ' + '</u>'.repeat(40) + '</div>');
    expect(text(doc)).toBe('a b c d e f');
    expect(text(doc, (el) => el.name === 'i')).toBe('a b d e f');
  });
});

describe('parseDocumentCapped (DOMs built outside the parsers\' load)', () => {
  test('is capped like the load, with parseDocument\'s options', () => {
    const doc = parseDocumentCapped(deep(320_000, '<A HREF="/x">a &amp; b</A>'), { decodeEntities: true, lowerCaseAttributeNames: true });
    expect(shape(doc)).toEqual({ depth: MAX_TREE_DEPTH, elements: 320_002 });
    expect(text(doc)).toBe('a & b');
    expect((all('a', doc)[0] as Element).attribs).toEqual({ href: '/x' });
  });
});

describe('the page cut of a deeply nested page', () => {
  test('of a 320,000-deep page finishes and keeps what the full parse has', () => {
    const html = '<div>'.repeat(300) + '<span class="k">kept</span>' + '<div>'.repeat(320_000) + '<span class="k">flat</span>';
    const keep = { attrs: ['class'], test: (_n: string, attrs: { get(n: string): string | undefined }) => attrs.get('class') === 'k' };
    const cut = loadPruned(html, keep)!;
    expect(all('span.k', cut).map((e) => text(e))).toEqual(['kept', '']);
    expect(all('span.k', loadHtml(html)).map((e) => text(e))).toEqual(['kept', '']);
    expect(prunedHtml(html, keep)!.html.length).toBeLessThan(html.length / 2);
  });
});

describe('Markdown of a deeply nested page', () => {
  test('320,000 nested divs (3.5 MB)', () => {
    expect(htmlToMarkdown(deep(320_000), 'https://example.com/')).toBe('x\n');
  });

  test('1,000,000 nested divs (11 MB), with a link above the cap and text below it', () => {
    const html = '<div>'.repeat(100) + '<a href="/in">link</a>' + deep(1_000_000, 'deep text');
    expect(htmlToMarkdown(html, 'https://example.com/')).toBe('[link](https://example.com/in)\n\ndeep text\n');
  });
});

describe("the built-in parsers on a deeply nested page", () => {
  test('every route answers, and says the page is not its kind', () => {
    const html = deep(10_000);
    const routes = TARGET_ROUTES.filter((r) => r.parser === 'builtin');
    const statuses: Record<string, string[]> = {};
    for (const r of routes) {
      const parsed = parsePage(r.id, { html, url: 'https://example.com/s?k=x', page: 1, params: {} });
      (statuses[parsed?.status ?? 'none'] ??= []).push(r.id);
    }
    expect(statuses).toEqual({ unrecognised: routes.map((r) => r.id) });
  });
});
