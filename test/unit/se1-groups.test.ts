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
