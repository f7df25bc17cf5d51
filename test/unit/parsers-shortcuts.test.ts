/**
 * The parse-cost shortcuts (issue 26 item 2) answer exactly what the slow way answered: a
 * card's element list filtered per question is css-select's subtree query, `shortText` is
 * `text` when short and null otherwise, and the element list a load recorded is the walk of
 * its tree. Pages written here with the awkward parts real pages have: templates (css-select
 * does not look inside), scripts and styles, comments, whitespace runs, block spacing,
 * entities, a nesting past the depth cap and a stray nested form.
 */
import { describe, expect, it } from 'vitest';
import { inside, isHeading, isLinkEl, isTitleClass } from '../../core/targets/commerce/card-elements.js';
import { elements } from '../../core/targets/commerce/marks.js';
import { all, loadHtml, shortText, text, type AnyNode, type Element } from '../../core/parsers/dom.js';
import { parseDocument } from 'htmlparser2';
import { MAX_TREE_DEPTH } from '../../core/parsers/depth.js';

const CARD = `
<li class="s-item" data-id="x1"><!-- c -->
  <div class="s-item__image"><img src="/a.jpg" alt="Trail shoe"><img alt="ab"></div>
  <h3 class="s-item__title"><span class="LIGHT_HIGHLIGHT">New</span> Trail   Running&nbsp;Shoe</h3>
  <template><a href="/hidden" class="title">hidden</a></template>
  <script type="x">var a = "<a href='/s'>";</script><style>.x{}</style>
  <a href="/p/1" title="Trail Running Shoe, men's">Trail Running</a>
  <div data-testid="product-title-box"><p>Price</p><p> $ 89<sup>.99</sup> </p></div>
  <a href="#">Next</a><a>next</a><span class="name">n</span>
  <ul><li>1</li><li>2 &amp; 3</li></ul>
</li>`;

const page = (body: string) => `<!doctype html><html><head><title>t</title></head><body><ul class="r">${body}</ul><form><form id="f2"><p>x</p></form></form></body></html>`;

describe('a card listed once, filtered per question', () => {
  const doc = loadHtml(page(CARD.repeat(3)));
  const cards = all('li.s-item', doc);

  it('is what css-select visits: every element below the card, in document order, nothing inside a template', () => {
    expect(cards).toHaveLength(3);
    for (const card of cards) {
      expect(inside(card)).toEqual(all('*', card));
      expect(inside(card).some((e) => e.name === 'script')).toBe(true);
      expect(inside(card).some((e) => e.attribs.href === '/hidden')).toBe(false);
    }
  });

  it('gives the same answers as the selectors it replaces', () => {
    const card = cards[1] as Element;
    const els = inside(card);
    expect(els.filter(isLinkEl)).toEqual(all('a[href]', card));
    expect(els.filter(isHeading)).toEqual(all('h1, h2, h3, h4, h5', card));
    expect(els.filter(isTitleClass)).toEqual(all('[class*=title], [class*=Title], [class*=name], [data-testid*=title]', card));
    expect(els.filter(isTitleClass).length).toBeGreaterThan(1);
  });
});

describe('shortText', () => {
  const doc = loadHtml(page(CARD));
  const every = all('*', doc);

  it('is text(el) whenever that is at most max characters, else null', () => {
    for (const max of [0, 1, 5, 13, 40, 160]) {
      for (const el of every) {
        const t = text(el);
        expect(shortText(el, max)).toBe(t.length <= max ? t : null);
      }
    }
  });

  it('reads collapsed, block-spaced text as text does', () => {
    const p = all('[data-testid=product-title-box]', doc)[0] as Element;
    expect(shortText(p, 40)).toBe('Price $ 89.99');
    expect(shortText(p, 12)).toBeNull();
  });
});

describe('the element list a load records', () => {
  const walk = (root: AnyNode): Element[] => {
    const out: Element[] = [];
    const visit = (n: AnyNode) => {
      if (n.type === 'tag') out.push(n);
      if ('children' in n) for (const c of n.children) visit(c);
    };
    visit(root);
    return out;
  };

  it('is the walk of the tree, in document order, also past the depth cap', () => {
    const deep = '<div>'.repeat(MAX_TREE_DEPTH + 20) + '<span>x</span>' + '</div>'.repeat(MAX_TREE_DEPTH + 20);
    for (const html of [page(CARD.repeat(2)), page(deep), '<p>a<p>b<table><tr><td>c</table><template><i>t</i></template>']) {
      const doc = loadHtml(html);
      expect(elements(doc)).toEqual(walk(doc));
      expect(elements(doc).length).toBeGreaterThan(2);
    }
    // A tree not built by loadHtml is walked.
    const bare = parseDocument(page(CARD));
    expect(elements(bare)).toEqual(walk(bare));
  });
});
