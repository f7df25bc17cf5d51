/**
 * se1 organic results beside titled card groups (2023-2026 markup): cards under a visible group
 * heading ("Discussions and forums", "Videos") and links back to the engine's own result pages
 * are not organic results; a page-wide hidden "Web results" h2 does not make the list a group.
 * The page is written here, following the structure of captured result pages. Exact outputs.
 */
import { describe, expect, it } from 'vitest';
import { parsePage } from '../../core/targets/index.js';

const result = (n: number) => `
  <div class="MjjYud"><div class="g"><a href="https://site-${n}.example/page-${n}"><h3>Result title ${n}</h3><cite>site-${n}.example</cite></a>
  <div class="VwiC3b">Snippet of result ${n}.</div></div></div>`;

const card = (host: string, title: string) => `
  <div><a href="https://${host}/thread"><div role="heading" aria-level="3">${title}</div></a><span>${host}</span></div>`;

const page = `<html><body><div id="search"><h2>Web results</h2><div id="rso">
  ${result(1)}
  <div class="MjjYud"><div><div role="heading" aria-level="2">Discussions and forums</div>
    ${card('forum-a.example', 'First thread')}${card('forum-b.example', 'Second thread')}${card('forum-c.example', 'Third thread')}
  </div></div>
  ${result(2)}
  <div class="MjjYud"><div><span role="heading" aria-level="2">Videos</span>
    ${card('video-a.example', 'First clip')}${card('video-b.example', 'Second clip')}
  </div></div>
  ${result(3)}
  <div class="MjjYud"><a href="https://www.google.com/search?q=green+tea&aomd=1"><h3 aria-hidden="true">More results</h3></a></div>
</div></div></body></html>`;

describe('se1 organic results beside card groups', () => {
  it('keeps the results, leaves out group cards and links to the engine\'s own search', () => {
    const parsed = parsePage('se1/search', { html: page, url: 'https://www.google.com/search?q=green+tea', page: 1, params: {} })!;
    const organic = (parsed.json as { organic: unknown[] }).organic;
    expect(organic).toEqual([1, 2, 3].map((n, i) => ({
      position: i + 1,
      title: `Result title ${n}`,
      url: `https://site-${n}.example/page-${n}`,
      displayed_url: `site-${n}.example`,
      snippet: `Snippet of result ${n}.`,
      sitelinks: [],
    })));
  });
});

/*
 * An account's post carousel (Twitter/X, 2019-2024 markup): a hidden "Twitter Results" h2, a
 * section whose header is an h3 in a link to the account, and a scrolling carousel of posts on
 * the same site. The header is the group's title, not a result.
 */
const tweet = (n: number) => `
  <g-inner-card><div class="Brgz0"><a href="https://twitter.com/acme/status/10${n}?ref_src=twsrc%5Egoogle"></a>
  <div role="heading" aria-level="3">Post number ${n}</div><div><span>Posted on X</span> · <span>${n} hours ago</span></div></div></g-inner-card>`;

const tweetsPage = `<html><body><div id="search"><div id="rso">
  ${result(1)}
  <div class="MjjYud"><div><h2 style="position:absolute">Twitter Results</h2></div><div class="g">
    <g-section-with-header><div><g-link><a href="https://twitter.com/acme?ref_src=twsrc%5Egoogle%7Ctwgr%5Eauthor"><h3>Acme (@acme) · X</h3>
      <cite>https://twitter.com/acme</cite></a></g-link></div>
    <div><g-scrolling-carousel>${tweet(1)}${tweet(2)}${tweet(3)}</g-scrolling-carousel></div></g-section-with-header>
  </div></div>
  ${result(2)}
  <div class="MjjYud"><g-section-with-header><a href="https://site-9.example/guide"><h3>A guide in a section</h3></a>
    <g-scrolling-carousel><g-inner-card><a href="https://other.example/a">Card</a></g-inner-card></g-scrolling-carousel></g-section-with-header></div>
</div></div></body></html>`;

describe('se1 organic results beside an account carousel', () => {
  it('leaves out the carousel\'s title link and its posts, keeps a section result whose cards are elsewhere', () => {
    const parsed = parsePage('se1/search', { html: tweetsPage, url: 'https://www.google.com/search?q=acme', page: 1, params: {} })!;
    const organic = (parsed.json as { organic: { title: string; url: string }[] }).organic;
    expect(organic.map((o) => [o.title, o.url])).toEqual([
      ['Result title 1', 'https://site-1.example/page-1'],
      ['Result title 2', 'https://site-2.example/page-2'],
      ['A guide in a section', 'https://site-9.example/guide'],
    ]);
  });
});
