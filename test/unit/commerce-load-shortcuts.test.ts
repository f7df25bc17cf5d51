/**
 * The listing's load shortcuts held to the slow way they replace: a listing loads its page
 * without the structured data's meta candidates (it reads only the entities), and the price
 * finder reads each climbed ancestor once however many parts of a split price climb to it.
 */
import { describe, expect, it } from 'vitest';
import { loadHtml, text } from '../../core/parsers/dom.js';
import { priceNodes } from '../../core/targets/commerce/card-elements.js';
import { loadPage } from '../../core/targets/commerce/product.js';

const LD = '{"@context":"https://schema.org","@type":"ItemList","numberOfItems":2,"itemListElement":[{"@type":"ListItem","position":1,"url":"https://shop.test/p/1","name":"Trail shoe"}]}';
const HTML = `<!doctype html><html lang="en"><head><title>Shoes | Shop</title>
<meta property="og:title" content="Shoes"><link rel="canonical" href="/s?q=shoes">
<script type="application/ld+json">${LD}</script></head><body>
<ul><li itemscope itemtype="https://schema.org/Product"><h3 itemprop="name">Trail shoe</h3>
<p class="price"><span>$</span><span>89</span><sup>.99</sup></p><s>$ 120.00</s></li>
<li><h3>Road shoe</h3><div><b>€</b><b>12</b>,<b>50</b></div><p>4 colours, 2 sizes and many more words than a price holds</p></li></ul>
</body></html>`;

describe('a listing loads its page without the meta candidates', () => {
  const input = { html: HTML, url: 'https://shop.test/s?q=shoes', page: 1, params: {} };
  const full = loadPage(input);
  const lean = loadPage(input, false);

  it('reads the same entities, and every candidate but the page-level meta ones', () => {
    expect(lean.sd.entities).toEqual(full.sd.entities);
    expect(lean.sd.entities.length).toBeGreaterThanOrEqual(2);
    const meta = new Set(['meta', 'title', 'link', 'page']);
    expect(lean.sd.candidates).toEqual(full.sd.candidates.filter((c) => !meta.has(c.origin)));
    expect(full.sd.candidates.some((c) => c.origin === 'link' && c.path[0] === 'canonical')).toBe(true);
  });
});

describe('priceNodes', () => {
  it('finds each split price once, at the smallest element showing it whole', () => {
    const found = priceNodes(loadHtml(HTML), { currency: null, decimal: '.' });
    expect(found.map((p) => [p.el.name, text(p.el), p.old])).toEqual([
      ['p', '$89.99', false],
      ['s', '$ 120.00', true],
      ['div', '€12,50', false],
    ]);
  });
});
