/**
 * se1 text ads on basic-HTML result pages (2020-2023): each ad is a `uEierd` box whose title link
 * is the engine's click redirect (`/aclk?…`), naming the landing page in `data-pcu` on the later
 * pages and nowhere on the earlier ones. On script pages the same box only wraps the
 * `data-text-ad` unit, which stays one ad. The pages are written here after the structure of
 * captured result pages. Exact outputs.
 */
import { describe, expect, it } from 'vitest';
import { parsePage } from '../../core/targets/index.js';

const CLICK = 'https://www.google.com/aclk?sa=l&ai=AbC';
const parse = (html: string) => parsePage('se1/search', { html, url: 'https://www.google.com/search?q=tea&gbv=1', page: 1, params: {} })!.json as { paid: unknown[]; organic: unknown[] };

const result = `<div class="Gx5Zad xpd"><div class="egMi0 kCrYT"><a href="/url?q=https://tea.example/&amp;sa=U"><h3><div>Tea shop</div></h3><div class="BNeawe UPmit">tea.example</div></a></div>
  <div class="kCrYT"><div class="BNeawe s3v9rd">Loose leaf tea.</div></div></div>`;

const basicPage = `<html><body><div id="main">
  <div class="uEierd"><div><div class="Gx5Zad"><div><a href="${CLICK}1&amp;adurl=" data-pcu="https://www.greenleaf.example/,https://greenleaf.example/">
    <div><span>Ad·</span><span data-dtld="greenleaf.example" role="text">www.greenleaf.example/</span></div>
    <div role="heading" aria-level="3"><span>Green Leaf Tea - Free Delivery</span></div></a></div>
    <div><div class="yDYNvb"><div>Fresh tea from the farm.</div></div></div></div></div></div>
  <div class="uEierd"><div><div><a href="${CLICK}2&amp;adurl="><div role="heading" aria-level="3"><span>Tea Club - Join Today</span></div>
    <div><span>Ad</span><span><span>www.teaclub.example/</span></span></div></a></div>
    <hr><div><div class="yDYNvb"><span>A new tea every month.</span></div></div>
    <div><div><a href="${CLICK}3&amp;adurl=">Gift boxes</a> · <a href="${CLICK}4&amp;adurl=">Samplers</a></div></div></div></div>
  ${result}
</div></body></html>`;

const scriptPage = `<html><body><div id="search"><div id="tads"><div class="uEierd"><div data-text-ad="1">
  <a href="https://www.greenleaf.example/offer"><div role="heading" aria-level="3">Green Leaf Tea</div><span data-dtld="greenleaf.example" role="text">www.greenleaf.example</span></a>
  <div class="yDYNvb">Fresh tea.</div></div></div></div><div id="rso">${result}</div></div></body></html>`;

describe('se1 basic-HTML text ads', () => {
  it('reads each ad box, the landing page from data-pcu, else the click redirect', () => {
    const json = parse(basicPage);
    expect(json.paid).toEqual([
      { position: 1, block: 'top', title: 'Green Leaf Tea - Free Delivery', url: 'https://www.greenleaf.example/', displayed_url: 'www.greenleaf.example/', description: 'Fresh tea from the farm.', sitelinks: [] },
      {
        position: 2,
        block: 'top',
        title: 'Tea Club - Join Today',
        url: `${CLICK}2&adurl=`,
        displayed_url: null,
        description: 'A new tea every month.',
        sitelinks: [
          { title: 'Gift boxes', url: `${CLICK}3&adurl=` },
          { title: 'Samplers', url: `${CLICK}4&adurl=` },
        ],
      },
    ]);
    expect(json.organic).toHaveLength(1);
  });

  it('keeps a text-ad unit wrapped in the same box one ad', () => {
    expect(parse(scriptPage).paid).toEqual([
      { position: 1, block: 'top', title: 'Green Leaf Tea', url: 'https://www.greenleaf.example/offer', displayed_url: 'www.greenleaf.example', description: 'Fresh tea.', sitelinks: [] },
    ]);
  });
});
