/**
 * se1 snippets of results with a rich-result line (rating stars, votes): on basic-HTML pages the
 * rating line is a marked text block of its own above the description, on 2020-2022 script
 * pages a block beside it; the snippet is the description, not the rating. The page is written
 * here after the structure of captured result pages. Exact outputs.
 */
import { describe, expect, it } from 'vitest';
import { parsePage } from '../../core/targets/index.js';

const page = `<html><body><div id="main">
  <div class="Gx5Zad xpd"><div class="egMi0 kCrYT"><a href="/url?q=https://films.example/tea-movie&amp;sa=U"><h3><div>Tea Movie (1999)</div></h3><div class="BNeawe UPmit">films.example › title</div></a></div>
  <div class="kCrYT"><div><div class="BNeawe s3v9rd"><div>
    <div class="v9i61e"><div class="BNeawe s3v9rd"><span>Rating</span> <span><span aria-hidden="true">8.7/10</span> <div aria-label="Rated 4.5 out of 5" role="img"><span></span></div> <span>(1,000)</span></span></div></div>
    <div class="v9i61e"><div class="BNeawe s3v9rd">A tea merchant learns the truth about the leaves.</div></div>
    <div><div class="BNeawe s3v9rd"><span><a href="/url?q=https://films.example/tea-movie/cast&amp;sa=U"><span>Full cast</span></a></span></div></div>
  </div></div></div></div></div>
</div></body></html>`;

describe('se1 snippets beside rating lines', () => {
  it('takes the description, not the rating line', () => {
    const organic = (parsePage('se1/search', { html: page, url: 'https://www.google.com/search?q=tea+movie&gbv=1', page: 1, params: {} })!.json as { organic: unknown[] }).organic;
    expect(organic).toEqual([{
      position: 1,
      title: 'Tea Movie (1999)',
      url: 'https://films.example/tea-movie',
      displayed_url: 'films.example › title',
      snippet: 'A tea merchant learns the truth about the leaves.',
      sitelinks: [{ title: 'Full cast', url: 'https://films.example/tea-movie/cast' }],
    }]);
  });
});
