/**
 * se1 sponsored card carousels in the top ad region (the "Tickets & tours" and hotel-offer
 * carousels loaded into `#tads`, 2023-2024): each card is one link through the engine's click
 * redirect, in `data-arwt` beside the landing `href` or in `href` with the landing page in
 * `adurl`. They are paid results, in page order with the text ads; product cards in the same
 * region stay shopping units. The page is written here after the structure of captured result
 * pages. Exact outputs.
 */
import { describe, expect, it } from 'vitest';
import { parsePage } from '../../core/targets/index.js';

const tourCard = (n: number, host: string) => `
  <div><g-inner-card><a data-arwt="/aclk?sa=l&amp;ai=T${n}&amp;adurl=" href="https://www.${host}/"><div><div></div></div>
    <div><div>Park tour ${n}</div><div>$${n}0</div><div>${host}</div><div><span aria-hidden="true">4.${n}</span><span role="img" aria-label="Rated 4.${n} out of 5,"></span><span>(${n}2)</span></div></div></a></g-inner-card></div>`;

const hotelCard = `<div><a href="https://www.google.com/aclk?sa=l&amp;ai=H1&amp;adurl=https://www.hotels.example/room%3Fid%3D7"><g-img></g-img>
  <div><div>Park Hotel</div><span>$250</span><div><span>Hotels Example</span></div></div></a></div>`;

const page = `<html><body><div id="tvcap"><div id="tads">
  <div id="tauc" data-async-type="tauc"><h3 role="heading" aria-level="2"><span>Sponsored</span><span>Tickets &amp; tours</span></h3>
    <g-scrolling-carousel><div>${tourCard(1, 'tours-a.example')}${tourCard(2, 'tours-b.example')}</div></g-scrolling-carousel></div>
  <div data-text-ad="1"><a href="https://www.parkguide.example/"><div role="heading" aria-level="3">Park Guide</div><span role="text">www.parkguide.example</span></a><div class="yDYNvb">Maps and tips.</div></div>
  <div id="hacu"><g-scrolling-carousel><div>${hotelCard}</div></g-scrolling-carousel></div>
  <div class="cu-container"><g-scrolling-carousel><div class="pla-unit"><a href="https://www.google.com/aclk?sa=l&amp;ai=P1&amp;adurl="><div role="heading">Park map poster</div><span class="e10twf">$9.99</span></a></div></g-scrolling-carousel></div>
</div></div>
<div id="search"><div id="rso"><div class="g"><a href="https://park.example/"><h3>The park</h3></a><div class="VwiC3b">About the park.</div></div></div></div></body></html>`;

describe('se1 sponsored card carousels', () => {
  it('reads each card as a paid result in page order', () => {
    const json = parsePage('se1/search', { html: page, url: 'https://www.google.com/search?q=park', page: 1, params: {} })!.json as { paid: unknown[]; shopping: { title: string }[] };
    const card = (position: number, title: string, url: string, description: string) => ({ position, block: 'top', title, url, displayed_url: null, description, sitelinks: [] });
    expect(json.paid).toEqual([
      card(1, 'Park tour 1', 'https://www.tours-a.example/', '$10 · tours-a.example · 4.1(12)'),
      card(2, 'Park tour 2', 'https://www.tours-b.example/', '$20 · tours-b.example · 4.2(22)'),
      { position: 3, block: 'top', title: 'Park Guide', url: 'https://www.parkguide.example/', displayed_url: 'www.parkguide.example', description: 'Maps and tips.', sitelinks: [] },
      card(4, 'Park Hotel', 'https://www.hotels.example/room?id=7', '$250 · Hotels Example'),
    ]);
    expect(json.shopping.map((s) => s.title)).toEqual(['Park map poster']);
  });
});
