/**
 * se1 local pack: a place's `url` is its own website. Basic-HTML and 2021 mobile cards link the
 * place only to the engine's own search for it (`/search?…&ludocid=`); that link names the card,
 * it is not the place's site. The page is written here after the structure of captured result
 * pages. Exact outputs.
 */
import { describe, expect, it } from 'vitest';
import { parsePage } from '../../core/targets/index.js';

const card = (id: string, name: string, site: string) => `
  <div><a href="https://www.google.com/search?q=${encodeURIComponent(name)}&amp;ludocid=${id}"><div role="heading" aria-level="3">${name}</div>
    <div>4.5(120) · Tea house</div><div>1 Leaf St</div></a>${site}</div>`;

const page = `<html><body><div id="main"><div id="rso"><div>
  ${card('1234567890123', 'Tea Corner', '')}
  ${card('2345678901234', 'Leaf House', '<a href="https://www.leafhouse.example/">Website</a>')}
</div></div></div></body></html>`;

describe('se1 local pack links', () => {
  it('keeps the place website, not the engine search link', () => {
    const pack = (parsePage('se1/search', { html: page, url: 'https://www.google.com/search?q=tea', page: 1, params: {} })!.json as { local_pack: { title: string; url: string | null }[] }).local_pack;
    expect(pack.map((p) => [p.title, p.url])).toEqual([
      ['Tea Corner', null],
      ['Leaf House', 'https://www.leafhouse.example/'],
    ]);
  });
});
