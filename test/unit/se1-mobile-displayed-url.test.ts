/**
 * se1 displayed URL of mobile results (2021-2022): no `cite` and no `role=text`, only a plain
 * line inside the title link above the heading ("https://www.example.org › wiki"). A line of
 * the link that is not URL-shaped is not taken for it. The page is written here after the
 * structure of captured result pages. Exact outputs.
 */
import { describe, expect, it } from 'vitest';
import { parsePage } from '../../core/targets/index.js';

const result = (href: string, shown: string, title: string) => `
  <div class="mnr-c xpd"><div><div><a href="${href}"><div><div> <span>${shown}</span></div></div>
    <div role="heading" aria-level="3"><div>${title}</div></div></a></div></div>
  <div><div class="yDYNvb">About ${title}.</div></div></div>`;

const page = `<html><body><div id="main"><div id="rso">
  ${result('https://en.m.wiki.example/wiki/Tea', 'https://en.m.wiki.example<span> › </span><span>wiki</span>', 'Tea - Wiki')}
  ${result('https://www.teahouse.example/', 'www.teahouse.example', 'Tea House')}
  ${result('https://blog.example/tea', 'Posted by a tea lover', 'Tea blog')}
</div></div></body></html>`;

describe('se1 mobile displayed URL', () => {
  it('reads the URL line of the title link', () => {
    const organic = (parsePage('se1/search', { html: page, url: 'https://www.google.com/search?q=tea', page: 1, params: {} })!.json as { organic: { displayed_url: string | null; title: string }[] }).organic;
    expect(organic.map((o) => [o.title, o.displayed_url])).toEqual([
      ['Tea - Wiki', 'https://en.m.wiki.example › wiki'],
      ['Tea House', 'www.teahouse.example'],
      ['Tea blog', null],
    ]);
  });
});
