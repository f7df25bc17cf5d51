/**
 * Per-page memos (core/parsers/page-memo.ts) live on the document under symbol keys: each page
 * keeps its own, no other reader of the DOM sees them, and the memos the parsers keep (the load's
 * seed, the query index, a card's element list) are reached only through the page itself —
 * nothing module-level holds a page once its document is dropped.
 */
import { describe, expect, test } from 'vitest';
import { all, loadHtml } from '../../core/parsers/dom.js';
import { pageSlot, rootOf } from '../../core/parsers/page-memo.js';
import { inside } from '../../core/targets/commerce/card-elements.js';
import { elements } from '../../core/targets/commerce/marks.js';

const PAGE = '<html><body><ul><li class="card"><a href="/p/1">One</a><span>$1</span></li><li class="card"><a href="/p/2">Two</a></li></ul></body></html>';

describe('page memos', () => {
  test('a slot keeps one value per document, invisible to keys, for…in and JSON', () => {
    const slot = pageSlot<number[]>('test.slot');
    const a = loadHtml(PAGE);
    const b = loadHtml(PAGE);
    expect(slot.get(a)).toBeUndefined();
    const kept = slot.set(a, [1, 2]);
    expect(slot.get(a)).toBe(kept);
    expect(slot.get(b)).toBeUndefined();
    const keys: string[] = [];
    for (const k in a) keys.push(k);
    expect(keys).not.toContain('test.slot');
    expect(Object.keys(a).some((k) => k.includes('slot'))).toBe(false);
    expect(Object.getOwnPropertySymbols(a).map((s) => s.description)).toContain('test.slot');
  });

  test('the element list, the query index and card scopes are kept on the page they describe', () => {
    const doc = loadHtml(PAGE);
    const before = Object.getOwnPropertySymbols(doc).map((s) => s.description);
    expect(before).toContain('gleaner.seed');
    const cards = all('li.card', doc);
    expect(cards.map((c) => c.attribs.class)).toEqual(['card', 'card']);
    expect(elements(doc).map((e) => e.name)).toEqual(['html', 'body', 'ul', 'li', 'a', 'span', 'li', 'a']);
    const first = inside(cards[0]!);
    expect(first.map((e) => e.name)).toEqual(['a', 'span']);
    expect(inside(cards[0]!)).toBe(first);
    expect(rootOf(cards[0]!)).toBe(doc);
    expect(Object.getOwnPropertySymbols(doc).map((s) => s.description)).toEqual(expect.arrayContaining(['gleaner.seed', 'gleaner.index', 'gleaner.card-scopes']));
    // Another page of the same markup builds its own.
    const other = loadHtml(PAGE);
    const second = inside(all('li.card', other)[0]!);
    expect(second).not.toBe(first);
    expect(second.map((e) => e.name)).toEqual(['a', 'span']);
  });
});
