/**
 * Libraries used through their internals (issue 24 item 12). htmlparser2 and domhandler are
 * pinned to exact versions in package.json, and this file fails loudly when an upgrade changes
 * what the code relies on:
 *
 * - core/parsers/load.ts replaces the tokenizer's private `fastForwardTo(c)` and reads its
 *   `buffer`, `index` and `offset`; its handler reads DomHandler's `tagStack` and `lastNode`;
 * - core/parsers/load.ts builds Element and Text nodes with constructors of its own on
 *   domhandler's prototypes, restating the classes' own fields and their order;
 * - core/parsers/depth.ts reads the Parser's private `stack`, `tagname` and `tokenizer.isSpecial`
 *   and overrides `isVoidElement`; core/markdown/parse.ts splices `stack` (top first);
 * - core/parsers/tag-tree.ts restates the Parser's private tree rules (held to the Parser by
 *   test/unit/parsers-prune.test.ts).
 *
 * Playwright's own `--disable-features` list, restated in farm/chromium-args.ts, is checked
 * against what the installed Playwright passes in test/integration/deps-playwright.test.ts.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { DomHandler, Element, Text, type AnyNode } from 'domhandler';
import { Parser, parseDocument, Tokenizer } from 'htmlparser2';
import { describe, expect, test } from 'vitest';
import { DepthCappedParser } from '../../core/parsers/depth.js';
import { FastTokenizer, leanDom, leanHtml, newElement, newText } from '../../core/parsers/load.js';
import { REPO } from '../helpers/executable.js';
import { soup } from '../helpers/markup.js';

const require = createRequire(import.meta.url);
const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };

function installed(pkg: string): string {
  // The package's main entry, then up to its package.json (exports may hide ./package.json).
  let dir = dirname(require.resolve(pkg));
  while (!dir.endsWith(`node_modules/${pkg}`)) dir = dirname(dir);
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

describe('pinned versions', () => {
  test.each(['htmlparser2', 'domhandler', 'playwright-core'])('%s is pinned exactly and the pinned version is installed', (pkg) => {
    const spec = manifest.dependencies[pkg];
    expect(spec).toMatch(/^\d+\.\d+\.\d+$/);
    expect(installed(pkg)).toBe(spec);
  });
});

describe('htmlparser2 internals relied on', () => {
  test("the tokenizer's fastForwardTo(c) and the fields it moves", () => {
    const proto = Tokenizer.prototype as unknown as Record<string, unknown>;
    expect(typeof proto.fastForwardTo).toBe('function');
    expect((proto.fastForwardTo as (c: number) => boolean).length).toBe(1);
    // FastTokenizer replaces it on its own prototype, not htmlparser2's.
    expect((FastTokenizer.prototype as unknown as Record<string, unknown>).fastForwardTo).not.toBe(proto.fastForwardTo);
    const seen: Record<string, unknown> = {};
    const parser = new Parser({
      onopentagname() {
        const t = (parser as unknown as { tokenizer: Record<string, unknown> }).tokenizer;
        for (const k of ['buffer', 'index', 'offset', 'isSpecial']) seen[k] = typeof t[k];
      },
    });
    parser.end('<div>x</div>');
    expect(seen).toEqual({ buffer: 'string', index: 'number', offset: 'number', isSpecial: 'boolean' });
  });

  test("the Parser's stack (top first), tagname and isVoidElement", () => {
    const states: Array<{ stack: string[]; tagname: string }> = [];
    const parser = new Parser({
      onopentagname() {
        const p = parser as unknown as { stack: string[]; tagname: string };
        states.push({ stack: [...p.stack], tagname: p.tagname });
      },
    });
    parser.end('<div><span><br><b>');
    // The name is set and the element pushed before `onopentagname`; void elements are not pushed.
    expect(states).toEqual([
      { stack: ['div'], tagname: 'div' },
      { stack: ['span', 'div'], tagname: 'span' },
      { stack: ['span', 'div'], tagname: 'br' },
      { stack: ['b', 'span', 'div'], tagname: 'b' },
    ]);
    expect(typeof (Parser.prototype as unknown as Record<string, unknown>).isVoidElement).toBe('function');
  });

  test("the tokenizer's isSpecial is set while a raw-text start tag is read", () => {
    const special: Record<string, boolean> = {};
    const parser = new Parser({
      onopentagname(name) {
        special[name] = (parser as unknown as { tokenizer: { isSpecial: boolean } }).tokenizer.isSpecial;
      },
    });
    parser.end('<div></div><script></script><title></title><scripts></scripts><svg><style></style></svg>');
    expect(special).toEqual({ div: false, script: true, title: true, scripts: false, svg: false, style: false });
  });

  test("DomHandler's tagStack and lastNode", () => {
    const seen: string[] = [];
    class Probe extends DomHandler {
      override ontext(data: string): void {
        super.ontext(data);
        const self = this as unknown as { tagStack: unknown[]; lastNode: { data?: string } | null };
        seen.push(`${self.tagStack.length}:${self.lastNode?.data}`);
      }
    }
    const handler = new Probe();
    new Parser(handler).end('<div><p>a</p>b</div>');
    expect(seen).toEqual(['3:a', '2:b']);
  });
});

describe("domhandler's node classes, restated by the load's node constructors", () => {
  const fields = (n: object) => Object.entries(n);

  test.each(['div', 'script', 'style', 'a'])('newElement(%s) is new Element: prototype, own fields, their order and values', (name) => {
    const attribs = { class: 'x' };
    const mine = newElement(name, attribs);
    const stock = new Element(name, attribs);
    expect(Object.getPrototypeOf(mine)).toBe(Element.prototype);
    expect(fields(mine)).toEqual(fields(stock));
    expect(mine.children).not.toBe(newElement(name, attribs).children);
    expect([mine instanceof Element, mine.nodeType, mine.tagName]).toEqual([true, 1, name]);
  });

  test('newText is new Text', () => {
    const mine = newText('a');
    expect(Object.getPrototypeOf(mine)).toBe(Text.prototype);
    expect(fields(mine)).toEqual(fields(new Text('a')));
    expect([mine instanceof Text, mine.nodeType, mine.nodeValue]).toEqual([true, 3, 'a']);
  });

  test("DomHandler's addNode links the node and clears lastNode (the load's onopentag and ontext rely on it)", () => {
    const seen: unknown[] = [];
    class Probe extends DomHandler {
      override ontext(data: string): void {
        const self = this as unknown as { lastNode: unknown; addNode(n: AnyNode): void };
        self.lastNode = 'stale';
        const node = new Text(data);
        self.addNode(node);
        seen.push(self.lastNode, node.parent === this.root, node.prev);
      }
    }
    new Parser(new Probe()).end('a');
    expect(seen).toEqual([null, true, null]);
  });

  test('every node of a loaded page has the own fields, in order, of the stock node', () => {
    const walk = (a: AnyNode, b: AnyNode): void => {
      expect(Object.keys(a)).toEqual(Object.keys(b));
      expect(Object.getPrototypeOf(a)).toBe(Object.getPrototypeOf(b));
      if ('children' in a && 'children' in b) a.children.forEach((c, i) => walk(c, b.children[i] as AnyNode));
    };
    for (let seed = 1; seed <= 20; seed++) {
      const lean = leanHtml(soup(seed));
      walk(leanDom(lean), parseDocument(lean, { decodeEntities: true }));
    }
  });
});

describe("the load's own addNode (a first child gets an array of its own size)", () => {
  test('every node links to its parent and its siblings, as in the stock DOM', () => {
    const links = (parent: AnyNode & { children: AnyNode[] }): void => {
      parent.children.forEach((c, i) => {
        expect(c.parent).toBe(parent);
        expect(c.prev).toBe(parent.children[i - 1] ?? null);
        expect(c.next).toBe(parent.children[i + 1] ?? null);
        if ('children' in c) links(c);
      });
    };
    for (let seed = 1; seed <= 100; seed++) {
      const doc = leanDom(leanHtml(soup(seed)));
      links(doc);
    }
  });
});

describe('the DOM the parsers get is stock htmlparser2', () => {
  const ser = (n: AnyNode): string => {
    if (n.type === 'text') return JSON.stringify(n.data);
    if (n.type === 'comment' || n.type === 'directive' || n.type === 'cdata') return `${n.type}(${'data' in n ? JSON.stringify(n.data) : ''})`;
    if ('attribs' in n) return `<${n.name} ${JSON.stringify(n.attribs)}>[${n.children.map(ser).join(',')}]`;
    return `${n.type}[${n.children.map(ser).join(',')}]`;
  };

  test('300 pages of markup soup: the load (patched tokenizer, depth cap, late entity decoding) equals parseDocument', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const lean = leanHtml(soup(seed));
      expect({ seed, dom: ser(leanDom(lean)) }).toEqual({ seed, dom: ser(parseDocument(lean, { decodeEntities: true })) });
    }
  });

  test('below the depth cap, DepthCappedParser builds the stock tree', () => {
    for (let seed = 1; seed <= 100; seed++) {
      const html = '<div>'.repeat(400) + soup(seed);
      const capped = new DomHandler();
      new DepthCappedParser(capped).end(html);
      expect({ seed, dom: ser(capped.root) }).toEqual({ seed, dom: ser(parseDocument(html)) });
    }
  });
});
