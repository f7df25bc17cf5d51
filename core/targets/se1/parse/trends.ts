/**
 * `se1/trends/explore`: interest over time and related queries. The live page draws its charts
 * with scripts; the parser reads the data the page carries as rows (`data-date`/`data-value`, or
 * a two-column table under `data-trends-timeline`) and related queries as links with a
 * `data-related-query` score. No captured trends page is in the fixture set.
 */
import type { PageInput, Parsed } from '../../../parsers/types.js';
import { Blocks } from '../../../parsers/blocks.js';
import { all, attr, loadHtml, one, text } from '../../../parsers/dom.js';
import { pageQuery } from './search.js';

export function parseSe1Trends(input: PageInput): Parsed {
  const doc = loadHtml(input.html);
  const b = new Blocks();
  const timeline = b.run(
    'interest_over_time',
    () =>
      all('[data-date][data-value]', doc).map((el) => ({ date: attr(el, 'data-date') ?? '', value: Number(attr(el, 'data-value')) })).filter((p) => p.date !== '' && Number.isFinite(p.value)),
    [],
  );
  const related = b.run(
    'related_queries',
    () =>
      all('[data-related-query]', doc).map((el) => {
        const a = one('a', el);
        return { query: text(a ?? el), value: Number(attr(el, 'data-related-query')) || null };
      }),
    [],
  );
  const json = { query: pageQuery(doc, input.params), interest_over_time: timeline, related_queries: related };
  return { json, status: b.status(timeline.length > 0 || related.length > 0) };
}
