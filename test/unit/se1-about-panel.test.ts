/**
 * se1 "About <entity>" group (2025 result pages without the entity panel): a level-2 group
 * heading above a list of cards, each one link out labelled by reference (`aria-labelledby`) to
 * the card's text and source line. It is the page's knowledge panel: the heading, the first
 * card's description and its source. A list of the same markup linking back to the engine's own
 * searches (related entities) is not. The page is written here after the structure of captured
 * result pages. Exact outputs.
 */
import { describe, expect, it } from 'vitest';
import { parsePage } from '../../core/targets/index.js';

const card = (id: string, href: string, textLine: string, label: string, source: string) => `
  <div role="listitem"><div><a aria-labelledby="${id}a ${id}b${id}c" href="${href}"></a>
    <div><div id="${id}a"><span>${textLine}</span></div></div>
    <div><div id="${id}b" role="heading" aria-level="3"><span>${label}</span></div><div id="${id}c"><div>${source}</div></div></div>
  </div></div>`;

const result = `<div class="MjjYud"><div class="g"><a href="https://site.example/a"><h3>A result</h3></a><div class="VwiC3b">Its snippet.</div></div></div>`;

const page = (cards: string) => `<html><body><div id="search"><div id="rso">
  ${result}
  <div class="MjjYud"><div><div><div role="heading" aria-level="2"><span><div>About Green Tea Co</div></span></div></div>
    <div><div role="list">${cards}</div></div></div></div>
</div></div></body></html>`;

const parse = (html: string) => parsePage('se1/search', { html, url: 'https://www.google.com/search?q=green+tea+co', page: 1, params: {} })!.json as Record<string, unknown>;

describe('se1 About-entity group', () => {
  it('reads the group as the knowledge panel', () => {
    const json = parse(page(
      card('t1', 'https://encyclopedia.example/wiki/Green_Tea_Co', 'Green Tea Co is a tea company.', 'From the encyclopedia', 'Encyclopedia') +
      card('t2', 'https://www.greenteaco.example/about', 'We grow tea.', 'In their own words', 'www.greenteaco.example'),
    ));
    expect(json.knowledge_panel).toEqual({
      title: 'About Green Tea Co',
      subtitle: null,
      description: 'Green Tea Co is a tea company.',
      source: { title: 'Encyclopedia', url: 'https://encyclopedia.example/wiki/Green_Tea_Co' },
      facts: [],
    });
    expect((json.organic as { url: string }[]).map((o) => o.url)).toEqual(['https://site.example/a']);
  });

  it('leaves out a card list that links back to the engine\'s searches', () => {
    const json = parse(page(
      card('p1', '/search?q=Black+Tea', 'Black Tea', 'Drink', '') + card('p2', '/search?q=Oolong', 'Oolong', 'Drink', ''),
    ));
    expect(json.knowledge_panel).toBe(null);
  });
});
