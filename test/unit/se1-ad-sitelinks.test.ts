/**
 * se1 ad sitelinks shown as cards (mobile, 2021-2023): each card link holds its title line and a
 * description line as two blocks; the sitelink's title is the first line. Inline sitelinks (one
 * text) stay whole. The page is written here after the structure of captured result pages.
 * Exact outputs.
 */
import { describe, expect, it } from 'vitest';
import { parsePage } from '../../core/targets/index.js';

const cardLink = (href: string, title: string, line: string) => `
  <div><a href="${href}"><div><div>${title}</div><div><div>${line}</div></div></div></a></div>`;

const page = `<html><body><div id="tads"><div class="uEierd"><div data-text-ad="1">
  <a href="https://www.leafhost.example/"><div role="heading" aria-level="3">Leaf Hosting - Fast Sites</div><span role="text">www.leafhost.example</span></a>
  <div class="yDYNvb">Hosting for tea shops.</div>
  <g-scrolling-carousel>${cardLink('https://www.leafhost.example/names', 'Name Generator', 'Find a name for your shop.')}${cardLink('https://www.leafhost.example/vps', 'VPS Hosting From $5.00/mo', 'Higher speed')}</g-scrolling-carousel>
  <div><a href="https://www.leafhost.example/email">Email <span>Plans</span></a></div>
</div></div></div>
<div id="rso"><div class="g"><a href="https://tea.example/"><h3>Tea</h3></a><div class="VwiC3b">All about tea.</div></div></div></body></html>`;

describe('se1 ad card sitelinks', () => {
  it('takes the title line of a card sitelink', () => {
    const paid = (parsePage('se1/search', { html: page, url: 'https://www.google.com/search?q=hosting', page: 1, params: {} })!.json as { paid: { sitelinks: unknown[] }[] }).paid;
    expect(paid).toHaveLength(1);
    expect(paid[0]!.sitelinks).toEqual([
      { title: 'Name Generator', url: 'https://www.leafhost.example/names' },
      { title: 'VPS Hosting From $5.00/mo', url: 'https://www.leafhost.example/vps' },
      { title: 'Email Plans', url: 'https://www.leafhost.example/email' },
    ]);
  });
});
