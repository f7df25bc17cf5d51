/** The /v1/search merge: de-duplication by normalised URL, engine-weighted position scores, caps. */
import { describe, expect, it } from 'vitest';
import { mergeResults, normaliseUrl, type EngineResults } from '../../core/search/merge.js';
import { parsePage } from '../../core/targets/index.js';
import { se1Docs, se2Docs } from '../sites/se-data.js';
import { se1WebPage } from '../sites/se1-web.js';
import { se2Page } from '../sites/se2-web.js';

const r = (url: string, position: number, title = url, snippet: string | null = `about ${url}`) => ({ url, position, title, snippet });

describe('normaliseUrl', () => {
  it('ignores scheme, www, default port, fragment, tracking parameters, parameter order and trailing slash', () => {
    expect(
      [
        'https://www.a.example/x/?b=2&a=1#top',
        'http://a.example:80/x?a=1&b=2&utm_source=feed',
        'HTTPS://WWW.A.EXAMPLE/x?a=1&b=2&gclid=zz',
        'https://a.example:8443/x',
        'https://a.example/',
        'not a url',
      ].map(normaliseUrl),
    ).toEqual(['a.example/x?a=1&b=2', 'a.example/x?a=1&b=2', 'a.example/x?a=1&b=2', 'a.example:8443/x', 'a.example', 'not a url']);
  });
});

describe('mergeResults', () => {
  const se1: EngineResults = {
    engine: 'se1',
    organic: [r('https://a.example/', 1, 'A from se1'), r('https://b.example/', 2), r('https://c.example/', 3), r('https://a.example/#dup', 4)],
    related_questions: [
      { question: 'What is x?', title: null, snippet: null },
      { question: 'How does x work?', title: 'Works', snippet: 'It works.' },
    ],
    related_searches: [{ query: 'x price' }, { query: 'x  near me' }],
  };
  const se2: EngineResults = {
    engine: 'se2',
    organic: [r('https://www.b.example', 1, 'B from se2', 'b snippet'), r('http://d.example/', 2), r('https://a.example', 3, 'A from se2')],
    related_questions: [{ question: 'what is x', title: 'Answer', snippet: 'X is x.' }],
    related_searches: [{ query: 'X price' }, { query: 'x history' }],
  };

  it('scores sum weight/position over engines, ties broken by best position then first seen', () => {
    // a: 1/1 + 1/3 = 1.333; b: 1/2 + 1/1 = 1.5; c: 1/3; d: 1/2.
    expect(mergeResults([se1, se2], { maxResults: 10 })).toEqual({
      results: [
        { title: 'B from se2', outline: 'b snippet', url: 'https://www.b.example', metadata: { position: 1 } },
        { title: 'A from se1', outline: 'about https://a.example/', url: 'https://a.example/', metadata: { position: 2 } },
        { title: 'http://d.example/', outline: 'about http://d.example/', url: 'http://d.example/', metadata: { position: 3 } },
        { title: 'https://c.example/', outline: 'about https://c.example/', url: 'https://c.example/', metadata: { position: 4 } },
      ],
      related_questions: [
        { question: 'What is x?', title: 'Answer', snippet: 'X is x.' },
        { question: 'How does x work?', title: 'Works', snippet: 'It works.' },
      ],
      related_searches: [{ query: 'x price' }, { query: 'x near me' }, { query: 'x history' }],
    });
  });

  it('engine weights change the ranking and which engine title is shown; max_results caps', () => {
    const merged = mergeResults([se1, se2], { maxResults: 2, weights: { se1: 3 } });
    // a: 3/1 + 1/3; b: 3/2 + 1; the se1 occurrence (weight 3) supplies the title.
    expect(merged.results).toEqual([
      { title: 'A from se1', outline: 'about https://a.example/', url: 'https://a.example/', metadata: { position: 1 } },
      { title: 'https://b.example/', outline: 'about https://b.example/', url: 'https://b.example/', metadata: { position: 2 } },
    ]);
    expect(mergeResults([se1], { maxResults: 0 }).results).toEqual([]);
    expect(mergeResults([], { maxResults: 5 })).toEqual({ results: [], related_questions: [], related_searches: [] });
  });

  it('equal scores keep the better position first, then engine order', () => {
    const x: EngineResults = { engine: 'se1', organic: [r('https://p.example/', 2), r('https://q.example/', 4)] };
    const y: EngineResults = { engine: 'se2', organic: [r('https://q.example/', 4), r('https://s.example/', 1)] };
    // p: 0.5, q: 0.25 + 0.25 = 0.5, s: 1.
    expect(mergeResults([x, y], { maxResults: 10 }).results.map((i) => i.url)).toEqual(['https://s.example/', 'https://p.example/', 'https://q.example/']);
  });

  it('merges the two simulator engines parsed from their pages', () => {
    const url = 'http://127.0.0.1:9/';
    const one = parsePage('se1/search', { html: se1WebPage({ query: 'green tea', page: 1, num: 10, docs: se1Docs('green tea', 1, 10) }), url, page: 1, params: {} })!.json as EngineResults & { people_also_ask: EngineResults['related_questions'] };
    const two = parsePage('se2/search', { html: se2Page({ query: 'green tea', page: 1, docs: se2Docs('green tea', 1) }), url, page: 1, params: {} })!.json as EngineResults;
    const merged = mergeResults(
      [
        { engine: 'se1', organic: one.organic, related_questions: one.people_also_ask, related_searches: one.related_searches },
        { engine: 'se2', organic: two.organic, related_searches: two.related_searches },
      ],
      { maxResults: 5 },
    );
    expect(merged.results.map((i) => [i.metadata.position, i.title])).toEqual([
      [1, 'Green Tea Notes 1'],
      [2, 'Green Tea Tutorial 2'],
      // 1 and 2, then 3 and 4, tie on score and best position: se1's order decides.
      [3, 'Green Tea Guide 3'],
      [4, 'Green Tea Primer 4'],
      // doc 5: 1/5 + 1/6 beats the se2-only document at 1/5.
      [5, 'Green Tea Review 5'],
    ]);
    expect(merged.related_questions.map((q) => q.question)).toEqual(['What is green tea?', 'How does green tea work?', 'Is green tea worth it?', 'Where can I find green tea?']);
    expect(merged.related_searches).toHaveLength(8);
  });
});
