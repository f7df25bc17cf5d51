/**
 * se1 product listing cards of 2021 mobile pages: the `pla-unit` is the card's link itself, and
 * price and seller have no slots of their own, only lines after the title (a label such as
 * "PRICE DROP" may come first). The page is written here after the structure of captured result
 * pages. Exact outputs.
 */
import { describe, expect, it } from 'vitest';
import { parsePage } from '../../core/targets/index.js';

const card = (n: number, label: string, price: string, seller: string) => `
  <g-inner-card class="pla-unit-container"><div><div><a href="https://www.googleadservices.com/pagead/aclk?sa=L&amp;ai=P${n}&amp;adurl=" class="pla-unit" role="link">
    <div class="pla-img"></div><div><div>${label}<h4 role="heading" aria-level="3">Tea kettle ${n}</h4>
    <div aria-label="Price ${price}"><div>${price}</div></div><div><span>${seller}</span></div>
    <div class="pla-extension"><div><span>Free shipping</span></div></div></div></div></a></div></div></g-inner-card>`;

const page = `<html><body><div id="tvcap"><div class="pla-container" role="region"><g-scrolling-carousel><div>
  ${card(1, '', '$29.99', 'Kettle Shop')}${card(2, '<div>PRICE DROP</div>', '$19.00', 'Tea Store')}
</div></g-scrolling-carousel></div></div>
<div id="rso"><div class="g"><a href="https://tea.example/"><h3>Tea</h3></a><div class="VwiC3b">All about tea.</div></div></div></body></html>`;

describe('se1 mobile product cards', () => {
  it('reads link, price and seller of cards without their slots', () => {
    const json = parsePage('se1/search', { html: page, url: 'https://www.google.com/search?q=kettle', page: 1, params: {} })!.json as { shopping: unknown[]; paid: unknown[] };
    expect(json.shopping).toEqual([
      { position: 1, title: 'Tea kettle 1', url: 'https://www.googleadservices.com/pagead/aclk?sa=L&ai=P1&adurl=', price: '$29.99', merchant: 'Kettle Shop' },
      { position: 2, title: 'Tea kettle 2', url: 'https://www.googleadservices.com/pagead/aclk?sa=L&ai=P2&adurl=', price: '$19.00', merchant: 'Tea Store' },
    ]);
    expect(json.paid).toEqual([]);
  });
});
