/**
 * se1 top stories beside the social-post carousels of 2025-2026 ("What people are saying",
 * recent posts): both are sections of cards marked as news documents, but a story shows its
 * publisher above the title and its age below it, a post neither. Posts are not top stories.
 * The page is written here after the structure of captured result pages. Exact outputs.
 */
import { describe, expect, it } from 'vitest';
import { parsePage } from '../../core/targets/index.js';

const story = (n: number) => `
  <div role="listitem"><div data-news-doc-id="s${n}"><a href="https://news-${n}.example/story-${n}"><div>
    <div><span>News ${n}</span></div><div role="heading" aria-level="3">Story ${n} headline</div><div><span>${n} hours ago</span></div></div></a></div></div>`;

const post = (n: number) => `
  <div role="listitem"><div data-news-doc-id="p${n}"><a href="https://social.example/p/${n}"><div><div>
    <div role="heading" aria-level="3">Post ${n} text</div></div></div></a></div></div>`;

const page = `<html><body><div id="search"><div id="rso">
  <div class="MjjYud"><g-section-with-header><div role="heading" aria-level="2">Top stories</div><div role="list">${story(1)}${story(2)}</div></g-section-with-header></div>
  <div class="MjjYud"><div class="g"><a href="https://site.example/a"><h3>A result</h3></a><div class="VwiC3b">Its snippet.</div></div></div>
  <div class="MjjYud"><g-section-with-header><div role="heading" aria-level="2">What people are saying</div><div role="list">${post(1)}${post(2)}${post(3)}</div></g-section-with-header></div>
</div></div></body></html>`;

describe('se1 top stories beside social posts', () => {
  it('keeps the stories and leaves the posts out', () => {
    const json = parsePage('se1/search', { html: page, url: 'https://www.google.com/search?q=news', page: 1, params: {} })!.json as { top_stories: unknown[]; organic: { url: string }[] };
    expect(json.top_stories).toEqual([1, 2].map((n) => ({ position: n, title: `Story ${n} headline`, url: `https://news-${n}.example/story-${n}`, source: `News ${n}`, published: `${n} hours ago` })));
    expect(json.organic.map((o) => o.url)).toEqual(['https://site.example/a']);
  });
});
