/**
 * se1 featured snippets the parser used to miss: the mobile one (2020-2023), whose source result
 * is a heading wrapping its link (`h3 > a`) under an answer line that is itself a level-3
 * heading, and whose block also carries a group heading; and the desktop list snippet (2024),
 * whose answer is a list beside the source result. Sitelinks written as `h3 > a` inside another
 * result's block stay sitelinks. The pages are written here after the structure of captured
 * result pages. Exact outputs.
 */
import { describe, expect, it } from 'vitest';
import { parsePage } from '../../core/targets/index.js';

const URL = 'https://www.google.com/search?q=green+tea';
const parse = (html: string) => parsePage('se1/search', { html, url: URL, page: 1, params: {} })!.json as Record<string, unknown>;

const mobileResult = (n: number) => `
  <div class="MjjYud"><div class="g"><a href="https://site-${n}.example/page"><div role="heading" aria-level="3">Result ${n}</div></a>
  <div class="VwiC3b">Snippet ${n}.</div></div></div>`;

const mobilePage = `<html><body><div id="main"><div id="rso">
  <div class="MjjYud"><block-component><div class="g"><div class="xpdopen">
    <span role="heading" aria-level="2">Images</span>
    <div class="wDYxhc"><div data-attrid="wa:/description" role="heading" aria-level="3"><span class="hgKElc">Green tea is a tea made from unoxidised leaves.</span></div></div>
    <div class="g card-section"><cite>https://tea.example › green</cite>
      <h3><a href="https://tea.example/green">Green tea explained | Tea Notes</a></h3>
      <div class="VwiC3b">Green tea is a tea made from unoxidised leaves.</div></div>
  </div></div></block-component></div>
  ${mobileResult(1)}${mobileResult(2)}
</div></div></body></html>`;

const sitelinksPage = `<html><body><div id="rso">
  <div class="MjjYud"><div class="g"><a href="https://shop.example/"><h3>Shop home</h3></a><cite>shop.example</cite>
    <table><tr><td><h3><a href="https://shop.example/kits">Kits</a></h3><div>All our kits.</div></td>
    <td><h3><a href="https://shop.example/spares">Spares</a></h3><div>Spare parts.</div></td></tr></table></div></div>
  ${mobileResult(1)}
</div></body></html>`;

describe('se1 featured snippets', () => {
  it('reads the mobile featured snippet whose title heading wraps its link', () => {
    const json = parse(mobilePage);
    expect(json.featured_snippet).toEqual({
      title: 'Green tea explained | Tea Notes',
      url: 'https://tea.example/green',
      displayed_url: 'https://tea.example › green',
      text: 'Green tea is a tea made from unoxidised leaves.',
    });
    expect((json.organic as { title: string; url: string }[]).map((o) => [o.title, o.url])).toEqual([
      ['Green tea explained | Tea Notes', 'https://tea.example/green'],
      ['Result 1', 'https://site-1.example/page'],
      ['Result 2', 'https://site-2.example/page'],
    ]);
  });

  it('keeps sitelinks written as headed links inside their result', () => {
    const organic = parse(sitelinksPage).organic as { title: string; sitelinks: unknown[] }[];
    expect(organic.map((o) => o.title)).toEqual(['Shop home', 'Result 1']);
    expect(organic[0]!.sitelinks).toEqual([
      { title: 'Kits', url: 'https://shop.example/kits' },
      { title: 'Spares', url: 'https://shop.example/spares' },
    ]);
  });
});

const listPage = `<html><body><div id="rso">
  <div class="MjjYud"><block-component><div class="g g-blk"><div><div class="xpdopen"><div>
    <h2>Featured snippet from the web</h2>
    <div><div role="heading" aria-level="3"><b>Steps</b></div><ul><li>Boil the water.</li><li>Steep the leaves.</li><li>Pour.</li></ul>
      <a href="https://tea.example/brew">More items...</a></div>
    <div class="g"><div><a href="https://tea.example/brew"><h3>How to brew tea | Tea Notes</h3><cite>tea.example › brew</cite></a></div>
      <div class="IsZvec"><span></span></div></div>
  </div></div></div></div></block-component></div>
  ${mobileResult(1)}
</div></body></html>`;

describe('se1 list featured snippets', () => {
  it('reads the list beside the source result as the answer', () => {
    const json = parse(listPage);
    const text = 'Boil the water.\nSteep the leaves.\nPour.';
    expect(json.featured_snippet).toEqual({ title: 'How to brew tea | Tea Notes', url: 'https://tea.example/brew', displayed_url: 'tea.example › brew', text });
    expect((json.organic as { title: string; snippet: string | null }[]).map((o) => [o.title, o.snippet])).toEqual([
      ['How to brew tea | Tea Notes', text],
      ['Result 1', 'Snippet 1.'],
    ]);
  });
});
